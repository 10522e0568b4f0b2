import type { LegRecords } from "./engine.js";
import type { StartedSolanaLeg } from "./types.js";

/** The signatures the leg recorded for one intent (deposit, claim, refund, delivery). */
export type IntentRecord = LegRecords["intents"][string];

/**
 * The leg's record of an intent's transactions (created empty on first use). It is saved with the chain snapshot, so
 * a step called again after a crash finds its earlier transaction here and answers with it.
 */
export function getIntentRecord({
  leg,
  intentId,
}: {
  leg: StartedSolanaLeg;
  intentId: string;
}): IntentRecord {
  const intents = leg.engine.records.intents;
  intents[intentId] ??= {};
  return intents[intentId];
}
