/**
 * Service text in error details never carries a character that renders as nothing: every default-ignorable code
 * point (Hangul fillers, the combining grapheme joiner, variation selectors, tags…) and the blank braille pattern is
 * written as `\u{…}`, as controls and bidi characters are; the refusal comes before the key is used.
 */
import { isSwapIntentError } from "@swapintent/client";
import { DEFAULT_IGNORABLE_RANGES } from "@swapintent/client/internal";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { attempt } from "../test/attempt.js";
import { buildDeposit, type Deposit, hex, userKey } from "../test/fixtures.js";
import { verifyHtlcPsbt } from "./verifyHtlcPsbt/verifyHtlcPsbt.js";

const userPublicKey = hex(userKey.publicKey);

/** The first and last code point of every default-ignorable range, and the blank braille pattern. */
const SAMPLES = [...DEFAULT_IGNORABLE_RANGES.flat(), 0x2800].map(
  (codePoint) => [codePoint.toString(16).toUpperCase().padStart(4, "0"), codePoint] as const,
);

/** The refusal of `deposit`: its code, its details as JSON, and its message. */
function refusalOf(deposit: Deposit): { code: string; details: Record<string, unknown>; message: string } {
  try {
    verifyHtlcPsbt({ ecc, ...deposit, userPublicKey });
  } catch (error) {
    if (!isSwapIntentError(error)) throw error;
    return { code: error.code, details: error.details as Record<string, unknown>, message: error.message };
  }
  throw new Error("expected a refusal");
}

describe("invisible characters in service text are escaped in error details", () => {
  it.each(SAMPLES)("U+%s in the approval mechanism and the secret hash", async (_, codePoint) => {
    const char = String.fromCodePoint(codePoint);
    const escaped = `\\u{${codePoint.toString(16)}}`;
    const deposit = buildDeposit();

    const mechanism = {
      ...deposit,
      intent: { ...deposit.intent, approvalMechanism: `htlc${char}` } as never,
    };
    const byMechanism = refusalOf(mechanism);
    expect(byMechanism.code).toBe("BTC_MECHANISM_MISMATCH");
    expect(byMechanism.details.approvalMechanism).toBe(`htlc${escaped}`);
    expect(byMechanism.message).not.toContain(char);
    expect(await attempt(mechanism)).toEqual({ code: "BTC_MECHANISM_MISMATCH", uses: 0 });

    const hash = {
      ...deposit,
      intent: { ...deposit.intent, secretHash: `${deposit.intent.secretHash}${char}` },
    };
    const byHash = refusalOf(hash as Deposit);
    expect(byHash.code).toBe("BTC_HTLC_SECRET_HASH_MISMATCH");
    expect(JSON.stringify(byHash.details)).toContain(escaped);
    expect(JSON.stringify(byHash.details)).not.toContain(char);
    expect(byHash.message).not.toContain(char);
    expect(await attempt(hash as Deposit)).toEqual({ code: "BTC_HTLC_SECRET_HASH_MISMATCH", uses: 0 });
  });
});
