import type { Instruction } from "@solana/kit";
import { MEMO_PROGRAM_ADDRESS } from "./constants.js";
import type { StartedSolanaLeg } from "./types.js";

/** A Memo program instruction carrying `text`. */
export function createMemoInstruction(text: string): Instruction {
  return { programAddress: MEMO_PROGRAM_ADDRESS, accounts: [], data: new TextEncoder().encode(text) };
}

/**
 * A memo with the leg's next sequence number (`swapintent:<label>:<n>`): it makes every internal transaction unique,
 * since litesvm refuses an identical transaction twice.
 */
export function createNextMemoInstruction({
  leg,
  label,
}: {
  leg: StartedSolanaLeg;
  label: string;
}): Instruction {
  leg.engine.records.sequence += 1;
  return createMemoInstruction(`swapintent:${label}:${leg.engine.records.sequence}`);
}
