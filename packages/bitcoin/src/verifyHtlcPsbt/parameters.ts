// Internal to `verifyHtlcPsbt`: its parameters read once, the intent's fields, the quote and the clock.
import { Psbt } from "bitcoinjs-lib";
import { createBitcoinError } from "../errors.js";
import { escapeForDisplay } from "../internal/displaySafe.js";
import { readBytes, readEcc, readRecord } from "../internal/readParameters.js";
import { MAX_MONEY_LOTS } from "../internal/scriptTypes.js";
import type { BitcoinEcc, HtlcPolicy } from "../types.js";
import type { VerifyHtlcPsbtParameters } from "./types.js";

/** What `readVerifyParameters` copies: every parameter of `verifyHtlcPsbt`, read once. */
export interface ReadParameters {
  ecc: BitcoinEcc;
  intent: {
    approvalMechanism: unknown;
    deadlineSecs: unknown;
    secretHash: unknown;
    paramsToSign: ReadParams;
  };
  quote: { sourceAmountLots: unknown };
  userPublicKey: unknown;
  policy: unknown;
  nowMs: unknown;
}
type ReadParams = { psbt: unknown; inputs: unknown };

/**
 * Every parameter this check reads, read once into a plain copy (`readParameters.ts`): a getter that throws or a
 * revoked proxy anywhere is `BTC_PARAMETER_INVALID`, and nothing later reads the caller's objects again.
 */
export function readVerifyParameters(parameters: VerifyHtlcPsbtParameters): ReadParameters {
  const top = readRecord("", parameters) ?? {};
  const intent = readRecord("intent", top.intent) ?? {};
  const params = readRecord("intent.paramsToSign", intent.paramsToSign) ?? {};
  return {
    ecc: readEcc(top.ecc),
    intent: {
      ...intent,
      paramsToSign: { psbt: params.psbt, inputs: readBytes("intent.paramsToSign.inputs", params.inputs) },
    } as ReadParameters["intent"],
    quote: (readRecord("quote", top.quote) ?? {}) as ReadParameters["quote"],
    userPublicKey: readBytes("userPublicKey", top.userPublicKey),
    policy: readRecord("policy", top.policy),
    nowMs: top.nowMs,
  };
}

/** The fields of the intent this check reads, each of the type it must have (the service could send anything). */
export function readIntent(args: { intent: ReadParameters["intent"]; nowMs: number; policy: HtlcPolicy }): {
  psbtBase64: string;
  listed: unknown;
  secretHashHex: string;
} {
  const { intent, nowMs } = args;
  const mechanism = intent.approvalMechanism;
  if (mechanism !== "htlc") {
    throw createBitcoinError("BTC_MECHANISM_MISMATCH", "The intent is not a Bitcoin htlc intent.", {
      approvalMechanism: escapeForDisplay(mechanism),
    });
  }
  const params = intent.paramsToSign;
  const psbtBase64 = params.psbt;
  if (typeof psbtBase64 !== "string") {
    throw createBitcoinError("BTC_PSBT_INVALID", "params_to_sign.psbt is not a string.", {
      source: "params_to_sign.psbt",
    });
  }
  assertDeadlineAhead({
    deadlineSecs: intent.deadlineSecs,
    nowMs,
    maxDeadlineSecs: args.policy.maxDeadlineSecs,
  });
  const secretHashHex = intent.secretHash;
  if (typeof secretHashHex !== "string") {
    throw createBitcoinError("BTC_HTLC_SECRET_HASH_MISMATCH", "The intent's secret_hash is not a string.", {
      expected: escapeForDisplay(secretHashHex),
      actual: null,
    });
  }
  return { psbtBase64, listed: params.inputs, secretHashHex };
}

/**
 * The intent is still open: its `deadlineSecs` (unix seconds) is after the caller's clock. Bitcoin knows no
 * deadline, so a deposit signed for an expired intent stays valid on chain: whoever holds it can still have it
 * mined, locking the user's coins in an HTLC that no resolver will fill until the refund delay has passed. And the
 * deadline is at most `maxDeadlineSecs` ahead: until it passes the service may hold the signed deposit and broadcast
 * it when the price suits it (the refund delay only starts once it confirms), so a deadline years ahead is refused.
 */
function assertDeadlineAhead(args: { deadlineSecs: unknown; nowMs: number; maxDeadlineSecs: number }): void {
  const { deadlineSecs, nowMs, maxDeadlineSecs } = args;
  const valid = Number.isSafeInteger(deadlineSecs) && (deadlineSecs as number) >= 0;
  if (!valid || (deadlineSecs as number) * 1000 <= nowMs) {
    throw createBitcoinError(
      "BTC_DEADLINE_PASSED",
      "The intent's deadline has passed (or is not a number of seconds): its deposit would still be valid on chain.",
      { deadlineSecs: valid ? (deadlineSecs as number) : null, nowMs },
    );
  }
  if ((deadlineSecs as number) * 1000 - nowMs > maxDeadlineSecs * 1000) {
    throw createBitcoinError("BTC_DEADLINE_TOO_FAR", "The intent's deadline is too far ahead.", {
      deadlineSecs: deadlineSecs as number,
      nowMs,
      maxDeadlineSecs,
    });
  }
}

/** The caller's clock: `Date.now()` unless given, and then a non-negative integer (`BTC_POLICY_INVALID`). */
export function readNow(nowMs: unknown): number {
  if (nowMs === undefined) return Date.now();
  if (!Number.isSafeInteger(nowMs) || (nowMs as number) < 0) {
    throw createBitcoinError("BTC_POLICY_INVALID", "nowMs is not a non-negative integer of milliseconds.", {
      policy: ["nowMs"],
    });
  }
  return nowMs as number;
}

/** The quoted amount: a positive bigint of at most 21,000,000 BTC (`BTC_QUOTE_INVALID`). */
export function readQuoteAmount(quote: { sourceAmountLots: unknown }): bigint {
  const amount = quote.sourceAmountLots;
  if (typeof amount !== "bigint" || amount <= 0n || amount > MAX_MONEY_LOTS) {
    throw createBitcoinError(
      "BTC_QUOTE_INVALID",
      "quote.sourceAmountLots is not a positive bigint of at most 21,000,000 BTC.",
      // A value that is no bigint is named by its type only: it may be a seed or key passed by mistake.
      { sourceAmountLots: typeof amount === "bigint" ? `${amount}` : `(${typeof amount})` },
    );
  }
  return amount;
}

/** The service's base64 PSBT, parsed (`BTC_PSBT_INVALID`). */
export function parsePsbt(base64: string): Psbt {
  try {
    return Psbt.fromBase64(base64);
  } catch (cause) {
    throw createBitcoinError(
      "BTC_PSBT_INVALID",
      "params_to_sign.psbt is not a valid base64 PSBT.",
      { source: "params_to_sign.psbt" },
      cause,
    );
  }
}

/** `params_to_sign.inputs`: a non-empty list of distinct indexes of existing inputs (`BTC_INPUT_INDEX_INVALID`). */
export function assertListedIndexes(listed: unknown, inputCount: number): asserts listed is number[] {
  if (
    !Array.isArray(listed) ||
    listed.length === 0 ||
    new Set(listed).size !== listed.length ||
    listed.some((i) => !Number.isSafeInteger(i) || i < 0 || i >= inputCount)
  ) {
    throw createBitcoinError(
      "BTC_INPUT_INDEX_INVALID",
      "params_to_sign.inputs is not a list of input indexes.",
      {
        inputs: escapeForDisplay(listed),
        inputCount,
      },
    );
  }
}
