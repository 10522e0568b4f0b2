/**
 * Long text never costs super-linear work: each case is a string that made a backtracking pattern (or a quadratic
 * base conversion, or an escape per character) work from every position, so ~100 000 characters took seconds.
 * The work is counted, not timed: every pattern that reads a long text must be one the ReDoS checker proves linear,
 * the base58 decoder is never handed more than an address's 35 characters, and the matches made stay bounded.
 * The speed itself is measured by `pnpm bench` (`sign.bench.ts`).
 */
import * as Base58 from "ox/Base58";
import { describe, expect, it, vi } from "vitest";
import { findSuperLinearReads } from "../../testing/src/findSuperLinearReads.js";
import { recordPatternWork } from "../../testing/src/recordPatternWork.js";
import { codeOf } from "../test/codeOf.js";
import {
  buildPermit2Fixture,
  DOC_WITNESS_TYPE_STRING,
  RECIPIENT,
} from "../test/fixtures/buildPermit2Fixture.js";
import { parseTronAddress } from "./address/parseTronAddress.js";
import { getPermit2WitnessTypeString } from "./getPermit2WitnessTypeString.js";
import { verifyPermit2Approval } from "./verify/verifyPermit2Approval.js";

vi.mock("ox/Base58", async (importOriginal) => {
  const original = await importOriginal<typeof import("ox/Base58")>();
  return { ...original, toHex: vi.fn(original.toHex) };
});

/** Longer than any value a check compares (field types are cut at 256, addresses are far shorter). */
const LONG = 1024;

/**
 * The code `run` refuses with, every pattern that read more than {@link LONG} characters on the way (each must be
 * linear), and how many matches the run made.
 */
async function refusalWork(
  run: () => unknown,
): Promise<{ code: string; superLinear: unknown[]; calls: number }> {
  const { outcome, reads, calls } = await recordPatternWork({ run: () => codeOf(run) });
  if (!("value" in outcome)) throw outcome.thrown;
  const superLinear = await findSuperLinearReads({ reads, longerThan: LONG });
  return { code: outcome.value, superLinear, calls };
}

function verifyWithRecipients(witnessRecipient: string, expectedRecipient: string, networkType = "BITCOIN") {
  const f = buildPermit2Fixture({ witness: { recipient: witnessRecipient } });
  const destination = {
    network: f.quote.destChain,
    networkType,
    token: f.quote.destToken,
    decimals: f.quote.destAmountDecimals,
    minAmountLots: f.quote.minDestAmountLots,
  };
  return verifyPermit2Approval({
    intent: f.intent,
    quote: f.quote,
    expected: { ...f.expected, recipient: expectedRecipient, destination },
    allowedPermit2Addresses: f.allowedPermit2Addresses,
    nowMs: f.nowMs,
  });
}

describe("destination strings compare in linear time", () => {
  it("a 50 000-character recipient of 1s is refused, read by linear patterns only (/^[a-z0-9]+1[a-z0-9]+$/ took ~4.5 s)", async () => {
    // the witness recipient is a bech32-looking address, so the wallet's own recipient is tested for the form too
    const { code, superLinear } = await refusalWork(() =>
      verifyWithRecipients(RECIPIENT, `${"1".repeat(50_000)}!`),
    );
    expect(code).toBe("PERMIT2_RECIPIENT_MISMATCH");
    expect(superLinear).toEqual([]);
  });

  it("on a Bitcoin destination compares a real bech32 address case-insensitively, and nothing else", () => {
    const upper = RECIPIENT.toUpperCase();
    expect(() => verifyWithRecipients(RECIPIENT, upper)).not.toThrow();
    expect(() => verifyWithRecipients(upper, RECIPIENT)).not.toThrow();
    const mixed = `${RECIPIENT.slice(0, 6)}${RECIPIENT.slice(6).toUpperCase()}`;
    expect(codeOf(() => verifyWithRecipients(RECIPIENT, mixed))).toBe("PERMIT2_RECIPIENT_MISMATCH");
    // the separator `1` needs a character on each side: a leading or trailing 1 is not the bech32 form
    for (const [sent, own] of [
      ["1qqqq", "1QQQQ"],
      ["qqqq1", "QQQQ1"],
      ["q1-q", "Q1-Q"],
      ["qqqq", "QQQQ"],
      // single-case with an inner 1 but no valid checksum: not bech32, so not case-insensitive
      ["q1q", "Q1Q"],
      ["bcrt1qqqqq", "BCRT1QQQQQ"],
    ] as const)
      expect(
        codeOf(() => verifyWithRecipients(sent, own)),
        sent,
      ).toBe("PERMIT2_RECIPIENT_MISMATCH");
    // the same real address on another chain, or with no network type, compares exactly
    for (const networkType of ["SOLANA", "TRON", "EVM", "SOMETHING_NEW"])
      expect(
        codeOf(() => verifyWithRecipients(RECIPIENT, upper, networkType)),
        networkType,
      ).toBe("PERMIT2_RECIPIENT_MISMATCH");
  });
});

describe("type names are bounded before a pattern reads them", () => {
  /** The fixture's types with `change` applied to a copy. */
  function typesWith(change: (types: Record<string, { name: string; type: string }[]>) => void) {
    const types = structuredClone(buildPermit2Fixture().evmTypedData.types);
    change(types);
    return types;
  }

  it("a field type of 30 000 `[]` pairs is refused before /(\\[[0-9]*\\])+$/ reads it (~4 s, here and in ox)", async () => {
    const long = `${"[]".repeat(30_000)}x`;
    for (const types of [
      // a struct nothing references (only its names are checked) and a field of the witness (ox reads it too)
      typesWith((t) => {
        t.Long = [{ name: "a", type: long }];
      }),
      typesWith((t) => {
        t.SwapWitness!.push({ name: "z", type: long });
      }),
    ]) {
      const { code, superLinear } = await refusalWork(() => getPermit2WitnessTypeString({ types }));
      expect(code).toBe("PERMIT2_TYPES_INVALID");
      expect(superLinear).toEqual([]);
    }
  });

  it("reads a field type of 256 characters, refuses 257", () => {
    const named = (type: string) =>
      typesWith((t) => {
        t.Other = [{ name: "a", type }];
      });
    const struct = "B".repeat(251);
    expect(getPermit2WitnessTypeString({ types: named(`${struct}[2][]`) })).toBe(DOC_WITNESS_TYPE_STRING);
    expect(codeOf(() => getPermit2WitnessTypeString({ types: named(`${struct}[12][]`) }))).toBe(
      "PERMIT2_TYPES_INVALID",
    );
  });

  it("still strips every array suffix before looking the base name up", () => {
    for (const type of ["constructor[]", "toString[2][]", "__proto__[][7][0]"]) {
      const bad = JSON.parse(JSON.stringify(typesWith((t) => (t.Other = [{ name: "a", type }]))));
      expect(
        codeOf(() => getPermit2WitnessTypeString({ types: bad })),
        type,
      ).toBe("PERMIT2_TYPES_INVALID");
    }
  });
});

describe("Tron addresses are bounded before decoding", () => {
  it("a 100 000-character base58 string is refused before the decoder sees it (its decode is quadratic, ~5 s)", async () => {
    vi.mocked(Base58.toHex).mockClear();
    const { code, superLinear } = await refusalWork(() => parseTronAddress({ address: "z".repeat(100_000) }));
    expect(code).toBe("PERMIT2_TRON_ADDRESS_INVALID");
    expect(superLinear).toEqual([]);
    expect(vi.mocked(Base58.toHex)).not.toHaveBeenCalled();
  });

  it("still decodes an address of 34 characters; the decoder is handed at most 35", () => {
    vi.mocked(Base58.toHex).mockClear();
    expect(parseTronAddress({ address: "TJhSSbZ8dVqtEiLYgva1WWcV4R4NkRCARH" })).toBe(
      "0x5fbdb2315678afecb367f032d93f642f64180aa3",
    );
    expect(codeOf(() => parseTronAddress({ address: "z".repeat(36) }))).toBe("PERMIT2_TRON_ADDRESS_INVALID");
    const handed = vi.mocked(Base58.toHex).mock.calls.map(([text]) => String(text).length);
    expect(handed.length).toBeGreaterThan(0);
    expect(Math.max(...handed)).toBeLessThanOrEqual(35);
  });
});

describe("error details are cut before they are escaped", () => {
  function verifyWith(tamper: NonNullable<Parameters<typeof buildPermit2Fixture>[0]>["tamper"]) {
    const f = buildPermit2Fixture({ tamper });
    return () =>
      verifyPermit2Approval({
        intent: f.intent,
        quote: f.quote,
        expected: f.expected,
        allowedPermit2Addresses: f.allowedPermit2Addresses,
        nowMs: f.nowMs,
      });
  }

  it("4 MB of bidi characters in witness_type_string: refused with ~1024 escapes, not 4 million (~3.7 s)", async () => {
    const sent = "\u202E".repeat(4_000_000);
    const run = verifyWith((p) => {
      p.additionalData.witnessTypeString = sent;
    });
    const { outcome, calls } = await recordPatternWork({ run });
    const error = ("thrown" in outcome ? outcome.thrown : undefined) as
      | { code: string; details: { actual: string } }
      | undefined;
    // escaping the whole text made a match per character: 4 000 000 calls
    expect(calls).toBeLessThan(10_000);
    expect(error?.code).toBe("PERMIT2_WITNESS_TYPE_STRING_MISMATCH");
    // the first 1024 characters, each escaped, then a mark that the value was cut
    expect(error?.details.actual).toBe(`${"\\u{202E}".repeat(1024)}…`);
  });

  it("any detail: 4 MB of bidi characters as the approval mechanism is refused with ~1024 escapes", async () => {
    const f = buildPermit2Fixture();
    const intent = {
      ...f.intent,
      approvalMechanism: "\u202E".repeat(4_000_000),
    } as unknown as typeof f.intent;
    const { code, superLinear, calls } = await refusalWork(() =>
      verifyPermit2Approval({ intent, quote: f.quote, expected: f.expected, nowMs: f.nowMs }),
    );
    expect(code).toBe("PERMIT2_MECHANISM_MISMATCH");
    expect(superLinear).toEqual([]);
    expect(calls).toBeLessThan(10_000);
  });
});
