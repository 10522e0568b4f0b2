// Internal to `verifyHtlcPsbt`: the deposit is valid now and relayable (locktime, BIP-68 sequences, version, weight).
import type { Transaction } from "bitcoinjs-lib";
import { createBitcoinError } from "../errors.js";
import type { HtlcPolicy } from "../types.js";
import { LOCKTIME_THRESHOLD, MAX_STANDARD_TX_WEIGHT, SEGWIT_MARKER_AND_FLAG_WU } from "./common.js";

const SEQUENCE_FINAL = 0xffffffff;
const SEQUENCE_DISABLE_FLAG = 0x80000000;
/**
 * Consensus checks a time locktime against the median time of the last 11 blocks (BIP-113), which lags the clock
 * by about an hour and can lag more: a time locktime is accepted only when it is this far in the past.
 */
const MEDIAN_TIME_PAST_MARGIN_SECS = 7_200;
/** Transaction versions Bitcoin Core relays without extra rules (version 3 is TRUC, with its own limits). */
const STANDARD_TX_VERSIONS: ReadonlySet<number> = new Set([1, 2]);

/**
 * The deposit is final now: an enforced nLockTime is a height within `policy.maxLockTimeHeight` or a time at least
 * two hours past, and no input sets a BIP-68 relative lock.
 */
export function assertNotTimelocked(args: { tx: Transaction; policy: HtlcPolicy; nowMs: number }): void {
  const { tx, policy, nowMs } = args;
  const enforced = tx.ins.some((input) => input.sequence !== SEQUENCE_FINAL);
  if (enforced && tx.locktime !== 0) {
    const allowed =
      tx.locktime >= LOCKTIME_THRESHOLD
        ? tx.locktime <= Math.floor(nowMs / 1000) - MEDIAN_TIME_PAST_MARGIN_SECS
        : policy.maxLockTimeHeight !== undefined && tx.locktime <= policy.maxLockTimeHeight;
    if (!allowed) {
      throw createBitcoinError(
        "BTC_TX_TIMELOCKED",
        "The deposit's nLockTime delays it (a height above policy.maxLockTimeHeight, or a time less than two hours ago).",
        { locktime: tx.locktime, maxLockTimeHeight: policy.maxLockTimeHeight },
      );
    }
  }
  if (tx.version >= 2) {
    // BIP-68: with the disable bit clear, the low 16 bits (blocks, or 512-second units) delay the input.
    const index = tx.ins.findIndex(
      (input) => (input.sequence & SEQUENCE_DISABLE_FLAG) === 0 && (input.sequence & 0xffff) !== 0,
    );
    if (index !== -1) {
      throw createBitcoinError("BTC_TX_TIMELOCKED", "An input's nSequence sets a BIP-68 relative lock.", {
        input: index,
        sequence: tx.ins[index]!.sequence,
      });
    }
  }
}

/**
 * Only transaction versions that nodes relay. Any other version is valid by consensus but not relayed: the user
 * would see a deposit that never propagates, while the service could still have it mined directly at a time it
 * chooses, until the user spends the inputs elsewhere.
 */
export function assertStandardVersion(tx: Transaction): void {
  const version = tx.version >>> 0;
  if (!STANDARD_TX_VERSIONS.has(version)) {
    throw createBitcoinError(
      "BTC_TX_NOT_STANDARD",
      "The deposit's transaction version is not 1 or 2: nodes would not relay it.",
      { version },
    );
  }
}

/**
 * The unsigned transaction alone (no witness) already outweighs what nodes relay: refused before any per-input
 * work, so a PSBT of tens of thousands of inputs costs one parse, not a pass over every input (the full estimate
 * with each input's witness follows in `checkFee`).
 */
export function assertWeightFloor(tx: Transaction): void {
  const floor = BigInt(tx.byteLength(false)) * 4n + SEGWIT_MARKER_AND_FLAG_WU;
  if (floor > MAX_STANDARD_TX_WEIGHT) {
    throw createBitcoinError(
      "BTC_TX_NOT_STANDARD",
      "The deposit is heavier than 400,000 weight units: nodes would not relay it.",
      { estimatedWeight: floor },
    );
  }
}
