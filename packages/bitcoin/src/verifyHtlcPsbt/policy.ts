// Internal to `verifyHtlcPsbt`: the caller's policy with its defaults, each field checked.
import { DEFAULT_HTLC_POLICY } from "../constants.js";
import { createBitcoinError } from "../errors.js";
import { escapeForDisplay } from "../internal/displaySafe.js";
import type { HtlcPolicy } from "../types.js";
import { LOCKTIME_THRESHOLD, MAX_BIP68_BLOCKS } from "./common.js";

/** Every field of `HtlcPolicy`: the compiler keeps this list equal to the interface. */
const POLICY_FIELDS: Readonly<Record<keyof HtlcPolicy, true>> = {
  minCsvBlocks: true,
  maxCsvBlocks: true,
  maxFeeLots: true,
  maxFeeRateSatPerVbyte: true,
  maxFeeBps: true,
  minFeeRateSatPerVbyte: true,
  maxDeadlineSecs: true,
  maxLockTimeHeight: true,
  resolverPublicKey: true,
  changeScriptType: true,
};

/**
 * Defaults for the fields the caller left out (an explicit `undefined` too: spreading it would switch a cap off),
 * and a typed error for values that would make a check meaningless or throw, and for a field the policy does not
 * have: a misspelled cap (`maxFeeRateSatPerVByte`) would otherwise leave the default in force unseen.
 */
export function resolvePolicy(given: unknown): HtlcPolicy {
  // No prototype: a field left out is the default or absent, never read from a polluted Object.prototype.
  const policy = { __proto__: null, ...DEFAULT_HTLC_POLICY } as HtlcPolicy;
  const entries = Object.entries(given ?? {});
  const unknown = entries.map(([key]) => key).filter((key) => !Object.hasOwn(POLICY_FIELDS, key));
  if (unknown.length > 0) {
    throw createBitcoinError("BTC_POLICY_INVALID", "The policy has fields it does not know.", {
      policy: unknown.map((key) => escapeForDisplay(key)),
    });
  }
  for (const [key, value] of entries) {
    if (value !== undefined) (policy as unknown as Record<string, unknown>)[key] = value;
  }
  const isCount = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;
  const isLots = (n: unknown) => typeof n === "bigint" && n >= 0n;
  // A CSV bound above 0xffff is no block count (BIP-68 flag bits), nor a height cap of 500,000,000 or more a height
  // (nLockTime reads it as a unix time), nor a deadline window that long a window (it is an absolute unix time): a
  // value on the wrong side of such a line is not what the caller meant.
  const isBlocks = (n: unknown) => isCount(n) && (n as number) <= MAX_BIP68_BLOCKS;
  const valid =
    isBlocks(policy.minCsvBlocks) &&
    isBlocks(policy.maxCsvBlocks) &&
    isCount(policy.maxDeadlineSecs) &&
    policy.maxDeadlineSecs < LOCKTIME_THRESHOLD &&
    isCount(policy.maxFeeBps) &&
    isLots(policy.maxFeeLots) &&
    isLots(policy.maxFeeRateSatPerVbyte) &&
    isLots(policy.minFeeRateSatPerVbyte) &&
    (policy.maxLockTimeHeight === undefined ||
      (isCount(policy.maxLockTimeHeight) && policy.maxLockTimeHeight < LOCKTIME_THRESHOLD)) &&
    // 32 or 33 bytes of hex: a pinned key of another shape is refused here, never echoed by the claim check.
    (policy.resolverPublicKey === undefined ||
      (typeof policy.resolverPublicKey === "string" &&
        /^(0x)?([\da-f]{2}){32,33}$/i.test(policy.resolverPublicKey))) &&
    (policy.changeScriptType === undefined ||
      policy.changeScriptType === "p2tr" ||
      policy.changeScriptType === "p2wpkh");
  if (!valid) {
    throw createBitcoinError(
      "BTC_POLICY_INVALID",
      "The policy has a field of the wrong type or range (README, BTC_POLICY_INVALID).",
      { policy: Object.keys(given ?? {}) },
    );
  }
  return policy;
}
