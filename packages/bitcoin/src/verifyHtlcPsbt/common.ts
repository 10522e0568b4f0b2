// Internal to `verifyHtlcPsbt`: the types and limits its parts share.
import { createBitcoinError } from "../errors.js";
import type { getUserScripts } from "../getUserScripts.js";
import { MAX_MONEY_LOTS } from "../internal/scriptTypes.js";

/** The user's key and its two scripts (P2TR BIP-86 and P2WPKH). */
export type UserScripts = ReturnType<typeof getUserScripts>;

/** An input the user signs (one of `verifyHtlcPsbt`'s `inputs`), and whether it spends the user's P2TR or P2WPKH output. */
export interface ListedInput {
  /** The input's index in the PSBT. */
  index: number;
  /** Which of the user's outputs it spends: P2TR (BIP-86 key path) or P2WPKH. */
  kind: "p2tr" | "p2wpkh";
}

export const SIGHASH_DEFAULT = 0x00;
export const SIGHASH_ALL = 0x01;
/** BIP-68 keeps only the low 16 bits as a block count; above, flag bits change what the number means. */
export const MAX_BIP68_BLOCKS = 0xffff;
/** At or above it, nLockTime is a unix time, not a height. */
export const LOCKTIME_THRESHOLD = 500_000_000;
export const SEGWIT_MARKER_AND_FLAG_WU = 2n;
/** Bitcoin Core's MAX_STANDARD_TX_WEIGHT: a heavier transaction is not relayed. */
export const MAX_STANDARD_TX_WEIGHT = 400_000n;

/** Field names of a PSBT map that carry a value (an empty list counts as absent). */
export function presentFields(map: object): string[] {
  return Object.entries(map)
    .filter(([, value]) => value !== undefined && !(Array.isArray(value) && value.length === 0))
    .map(([key]) => key);
}

/**
 * Consensus's MoneyRange: no input or output amount, and neither sum, below zero or above 21,000,000 BTC. A deposit
 * outside it is never valid (CheckTransaction refuses the outputs, CheckTxInputs the inputs), yet its stated amounts
 * could balance and pass every fee check: the service's coin stated above it, its value handed back as change. Below
 * zero: bitcoinjs reads amounts as signed (eight 0xff bytes are -1 sat), consensus and other parsers as unsigned.
 */
export function assertMoneyRange(where: string, valueLots: bigint): void {
  if (valueLots < 0n || valueLots > MAX_MONEY_LOTS) {
    throw createBitcoinError(
      "BTC_AMOUNT_OUT_OF_RANGE",
      "An amount is below zero or above 21,000,000 BTC: the chain refuses the deposit.",
      { where, valueLots, maxLots: MAX_MONEY_LOTS },
    );
  }
}
