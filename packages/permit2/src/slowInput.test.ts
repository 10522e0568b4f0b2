/**
 * Long text never costs super-linear time: each case is a string that made a backtracking pattern (or a
 * quadratic base conversion) retry from every position, so ~100 000 characters took seconds. The bounds are
 * generous (a linear pass over such a string takes about a millisecond); before the fixes each case took 4 s or more.
 */
import { describe, expect, it } from "vitest";
import { codeOf } from "../test/codeOf.js";
import {
  buildPermit2Fixture,
  DOC_WITNESS_TYPE_STRING,
  RECIPIENT,
} from "../test/fixtures/buildPermit2Fixture.js";
import { parseTronAddress } from "./address/parseTronAddress.js";
import { getPermit2WitnessTypeString } from "./getPermit2WitnessTypeString.js";
import { verifyPermit2Approval } from "./verify/verifyPermit2Approval.js";

/** The code `run` refuses with, and how long it took in milliseconds. */
function timed(run: () => unknown): { code: string; ms: number } {
  const started = performance.now();
  const code = codeOf(run);
  return { code, ms: performance.now() - started };
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
  it("a 50 000-character recipient of 1s is refused at once (/^[a-z0-9]+1[a-z0-9]+$/ took ~4.5 s)", () => {
    // the witness recipient is a bech32-looking address, so the wallet's own recipient is tested for the form too
    const { code, ms } = timed(() => verifyWithRecipients(RECIPIENT, `${"1".repeat(50_000)}!`));
    expect(code).toBe("PERMIT2_RECIPIENT_MISMATCH");
    expect(ms).toBeLessThan(1000);
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

  it("a field type of 30 000 `[]` pairs is refused at once (/(\\[[0-9]*\\])+$/ took ~4 s, here and in ox)", () => {
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
      const { code, ms } = timed(() => getPermit2WitnessTypeString({ types }));
      expect(code).toBe("PERMIT2_TYPES_INVALID");
      expect(ms).toBeLessThan(1000);
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
  it("a 100 000-character base58 string is refused at once (the base58 decode was quadratic, ~5 s)", () => {
    const { code, ms } = timed(() => parseTronAddress({ address: "z".repeat(100_000) }));
    expect(code).toBe("PERMIT2_TRON_ADDRESS_INVALID");
    expect(ms).toBeLessThan(1000);
  });

  it("still decodes an address of 34 characters", () => {
    expect(parseTronAddress({ address: "TJhSSbZ8dVqtEiLYgva1WWcV4R4NkRCARH" })).toBe(
      "0x5fbdb2315678afecb367f032d93f642f64180aa3",
    );
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

  it("4 MB of bidi characters in witness_type_string: refused at once (escaping all of it took ~3.7 s)", () => {
    const sent = "\u202E".repeat(4_000_000);
    const run = verifyWith((p) => {
      p.additionalData.witnessTypeString = sent;
    });
    const started = performance.now();
    const error = (() => {
      try {
        run();
      } catch (caught) {
        return caught as { code: string; details: { actual: string } };
      }
    })();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(error?.code).toBe("PERMIT2_WITNESS_TYPE_STRING_MISMATCH");
    // the first 1024 characters, each escaped, then a mark that the value was cut
    expect(error?.details.actual).toBe(`${"\\u{202E}".repeat(1024)}…`);
  });

  it("any detail: 4 MB of bidi characters as the approval mechanism is refused at once", () => {
    const f = buildPermit2Fixture();
    const intent = {
      ...f.intent,
      approvalMechanism: "\u202E".repeat(4_000_000),
    } as unknown as typeof f.intent;
    const { code, ms } = timed(() =>
      verifyPermit2Approval({ intent, quote: f.quote, expected: f.expected, nowMs: f.nowMs }),
    );
    expect(code).toBe("PERMIT2_MECHANISM_MISMATCH");
    expect(ms).toBeLessThan(1000);
  });
});
