// Service strings in error details are escaped: no control, bidi or zero-width character reaches a caller.
import { isSwapIntentError } from "@swapintent/client";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { buildDeposit, type Deposit, hex, userKey } from "../test/fixtures.js";
import { verifyHtlcPsbt } from "./verifyHtlcPsbt/verifyHtlcPsbt.js";

const userPublicKey = hex(userKey.publicKey);

describe("service strings in error details", () => {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  const unsafe = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/u;
  async function details(edit: (deposit: Deposit) => Deposit): Promise<{ code: string; text: string }> {
    const deposit = edit(buildDeposit());
    try {
      verifyHtlcPsbt({ ecc, ...deposit, userPublicKey });
    } catch (error) {
      if (!isSwapIntentError(error)) throw error;
      return {
        code: error.code,
        text: JSON.stringify(error.details, (_k, v) => (typeof v === "bigint" ? `${v}` : v)),
      };
    }
    return { code: "ACCEPTED", text: "" };
  }
  it.each([
    [
      "approvalMechanism",
      (d: Deposit) => ({
        ...d,
        intent: { ...d.intent, approvalMechanism: "htlc\u202e\nValid until 2099" } as never,
      }),
      "BTC_MECHANISM_MISMATCH",
    ],
    [
      "inputs",
      (d: Deposit) => ({
        ...d,
        intent: {
          ...d.intent,
          paramsToSign: { ...d.intent.paramsToSign, inputs: ["0\u200b\r\nReceive 1 BTC"] as never },
        },
      }),
      "BTC_INPUT_INDEX_INVALID",
    ],
    [
      "secretHash",
      (d: Deposit) => ({
        ...d,
        intent: { ...d.intent, secretHash: `${d.intent.secretHash}\u2066\u0007` as `0x${string}` },
      }),
      "BTC_HTLC_SECRET_HASH_MISMATCH",
    ],
  ])("escapes control, bidi and zero-width characters of %s", async (_name, edit, code) => {
    const { code: actual, text } = await details(edit);
    expect(actual).toBe(code);
    const values = Object.values(JSON.parse(text) as Record<string, unknown>)
      .map(String)
      .join(" ");
    expect(values).toMatch(/\\u\{(202e|200b|2066|2028)\}/);
    expect(unsafe.test(values)).toBe(false);
  });
});
