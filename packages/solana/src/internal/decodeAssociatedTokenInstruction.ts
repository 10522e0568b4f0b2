import { SOLANA_PROGRAM_ADDRESSES } from "../constants.js";
import type { InstructionEffect, ResolvedInstruction } from "./effects.js";
import { disallowedSlot, involves } from "./effects.js";

/** Rent-exempt minimum of an SPL Token account (165 bytes): (128 + 165) bytes at 6,960 lamports each. */
const TOKEN_ACCOUNT_RENT = 2_039_280n;
/**
 * Upper bound of the rent of a Token-2022 associated account. Its size depends on the mint's extensions: 170 bytes
 * bare (the immutable owner every associated account has), 182 with a transfer fee, 263 with every account
 * extension a mint can require (transfer-fee amount, non-transferable, transfer-hook, confidential transfer-fee
 * amount, pausable; Token-2022's own GetAccountDataSize answers 263). (128 + 263) * 6,960 lamports.
 */
const TOKEN_2022_ACCOUNT_RENT = 2_721_360n;

/**
 * The programs an Associated Token Account instruction invokes through its accounts (cross-program invocations):
 * a create calls the System Program (slot 4) and the token program it names (slot 5); RecoverNested calls the
 * token program (slot 6). Empty for anything else (the ATA program refuses it).
 */
export function associatedTokenInvokedPrograms(ix: ResolvedInstruction): string[] {
  const tag = associatedTokenTag(ix.data);
  const slots = tag === 0 || tag === 1 ? [4, 5] : tag === 2 ? [6] : [];
  return slots.flatMap((slot) => (ix.accounts[slot] === undefined ? [] : [ix.accounts[slot]]));
}

function associatedTokenTag(data: Uint8Array): number | undefined {
  return data.length === 0 ? 0 : data.length === 1 ? data[0] : undefined;
}

/**
 * Decode an Associated Token Account instruction: Create (empty data or 0), CreateIdempotent (1), RecoverNested (2).
 * Accounts of a create: [payer, associatedAccount, owner, mint, systemProgram, tokenProgram]; the user may only be
 * its payer (the rent is counted as native outflow, an upper bound: an idempotent create of an existing account
 * costs nothing) or the owner (an account of the user's own). Accounts of RecoverNested: [nested, nestedMint,
 * destination, ownerAccount, ownerMint, wallet, tokenProgram]; the user may only be the wallet (tokens come back to
 * it). The user in any other slot is refused as `userRole`.
 */
export function decodeAssociatedTokenInstruction(ix: ResolvedInstruction, user: string): InstructionEffect {
  const { accounts, data } = ix;
  if (!involves(accounts, user)) return { kind: "none" };
  const tag = associatedTokenTag(data);
  if (tag === 0 || tag === 1) {
    const slot = disallowedSlot(accounts, user, [0, 2]);
    if (slot !== undefined)
      return { kind: "userRole", instruction: "CreateAssociatedTokenAccount", role: `account ${slot}` };
    if (accounts[0] !== user) return { kind: "none" };
    // The account's size (so the rent the user pays) is whatever the named token program answers to
    // GetAccountDataSize: any other program could ask for megabytes of rent into an account it owns.
    if (accounts[5] !== SOLANA_PROGRAM_ADDRESSES.token && accounts[5] !== SOLANA_PROGRAM_ADDRESSES.token2022)
      return { kind: "unknown", reason: "user-paid associated account create for an unknown token program" };
    const rent =
      accounts[5] === SOLANA_PROGRAM_ADDRESSES.token2022 ? TOKEN_2022_ACCOUNT_RENT : TOKEN_ACCOUNT_RENT;
    // Rent, not a payment: a wrapped SOL account's rent reserve is never part of its token amount.
    return {
      kind: "nativeOutflow",
      lamports: rent,
      instruction: "CreateAssociatedTokenAccount",
      to: undefined,
    };
  }
  if (tag === 2) {
    const slot = disallowedSlot(accounts, user, [5]);
    return slot === undefined
      ? { kind: "none" }
      : { kind: "userRole", instruction: "RecoverNested", role: `account ${slot}` };
  }
  return { kind: "unknown", reason: "associated token instruction" };
}
