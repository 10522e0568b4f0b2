/**
 * Tampered permits a malicious service could send (forged display text, swapped fields), each as the tampered input,
 * plus the other members of its class. Every refusal is checked to happen before any signing callback runs.
 */
import { isSwapIntentError, type Quote } from "@swapintent/client";
import { describe, expect, it } from "vitest";
import { codeOf } from "../test/codeOf.js";
import {
  buildPermit2Fixture,
  DEST_TOKEN,
  type FixtureOptions,
  RECIPIENT,
  USER_PRIVATE_KEY,
} from "../test/fixtures/buildPermit2Fixture.js";
import { signWithSpies } from "../test/signWithSpies.js";
import type { Permit2DestinationExpectation, VerifyPermit2ApprovalParameters } from "./types.js";
import { verifyPermit2Approval } from "./verify/verifyPermit2Approval.js";

/** The destination as the wallet's own registry has it: BTC on network 4, 8 decimals, at least 3900 lots. */
const DESTINATION: Permit2DestinationExpectation = {
  network: 4,
  token: DEST_TOKEN,
  decimals: 8,
  minAmountLots: 3_900n,
};

function parametersOf(
  options: FixtureOptions = {},
  quoteChanges: Partial<Quote> = {},
  destination: Permit2DestinationExpectation | null = DESTINATION,
): VerifyPermit2ApprovalParameters {
  const f = buildFixture(options);
  return {
    intent: f.intent,
    quote: { ...f.quote, ...quoteChanges },
    expected: { ...f.expected, destination: destination ?? undefined },
    allowedPermit2Addresses: f.allowedPermit2Addresses,
    nowMs: f.nowMs,
  };
}

/**
 * The fixture with `options.witness` hashed in (a consistent witness); a value ethers cannot hash (a lone
 * surrogate) is put into the witness after hashing instead; the text check runs before the hash check.
 */
function buildFixture(options: FixtureOptions) {
  try {
    return buildPermit2Fixture(options);
  } catch {
    const { witness = {}, ...rest } = options;
    return buildPermit2Fixture({
      ...rest,
      tamper: (p) => {
        Object.assign(p.additionalData.witness, witness);
      },
    });
  }
}

/** The attack: destination decimals lowered 8 -> 6 and the lots divided by 100, witness consistent with the quote. */
const lowered = {
  witness: { minDestAmount: "39", maxDestAmount: "41" },
  quote: { destAmountDecimals: 6, minDestAmountLots: 39n, maxDestAmountLots: 41n },
};

describe("destination side pinned by the wallet (expected.destination)", () => {
  it("accepts the sandbox's permit when the destination equals the wallet's facts, and says so", () => {
    const { summary } = verifyPermit2Approval(parametersOf());
    expect(summary.sources.destination).toBe("wallet");
    expect(summary.destDecimals).toBe(8);
    expect(summary.lines[1]).toBe(
      "Receive at least 0.000039 (at most 0.000041) of btc on network 4 (3900 to 4100 lots of 8 decimals)",
    );
    expect(summary.lines[1]).not.toContain("not checked by the wallet");
  });

  it("refuses lowered destination decimals with lots lowered alike: PERMIT2_DEST_DECIMALS_MISMATCH", () => {
    const parameters = parametersOf({ witness: lowered.witness }, lowered.quote);
    expect(codeOf(() => verifyPermit2Approval(parameters))).toBe("PERMIT2_DEST_DECIMALS_MISMATCH");
  });

  it("refuses the same attack through the least-accepted amount alone: PERMIT2_MIN_AMOUNT_TOO_LOW", () => {
    // A wallet that knows only the least it accepts, in lots of the decimals it knows (6 here, as the service says).
    const parameters = parametersOf({ witness: lowered.witness }, lowered.quote, {
      ...DESTINATION,
      decimals: 6,
      minAmountLots: 40n,
    });
    expect(codeOf(() => verifyPermit2Approval(parameters))).toBe("PERMIT2_MIN_AMOUNT_TOO_LOW");
  });

  it("accepts a signed minimum above the least the user accepts, refuses one lot below", () => {
    expect(
      verifyPermit2Approval(parametersOf({}, {}, { ...DESTINATION, minAmountLots: 3_899n })).summary
        .minDestAmountLots,
    ).toBe(3_900n);
    expect(
      codeOf(() => verifyPermit2Approval(parametersOf({}, {}, { ...DESTINATION, minAmountLots: 3_901n }))),
    ).toBe("PERMIT2_MIN_AMOUNT_TOO_LOW");
  });

  it("refuses a maximum below the minimum, witness and quote alike (found by the generative test): PERMIT2_MAX_AMOUNT_MISMATCH", () => {
    const parameters = parametersOf({ witness: { maxDestAmount: "0" } }, { maxDestAmountLots: 0n });
    expect(codeOf(() => verifyPermit2Approval(parameters))).toBe("PERMIT2_MAX_AMOUNT_MISMATCH");
    const equal = parametersOf({ witness: { maxDestAmount: "3900" } }, { maxDestAmountLots: 3_900n });
    expect(verifyPermit2Approval(equal).summary.maxDestAmountLots).toBe(3_900n);
  });

  it("refuses another destination network or token, even when witness and quote agree", () => {
    const otherChain = parametersOf({ witness: { destChain: "5" } }, { destChain: 5 });
    expect(codeOf(() => verifyPermit2Approval(otherChain))).toBe("PERMIT2_DEST_CHAIN_MISMATCH");
    const otherToken = parametersOf({ witness: { destToken: "BTCX" } }, { destToken: "BTCX" });
    expect(codeOf(() => verifyPermit2Approval(otherToken))).toBe("PERMIT2_DEST_TOKEN_MISMATCH");
  });

  it("without expected.destination, marks every destination fact as the service's word", () => {
    const { summary } = verifyPermit2Approval(
      parametersOf({ witness: lowered.witness }, lowered.quote, null),
    );
    expect(summary.sources).toEqual({
      sourceToken: "service",
      sourceAmount: "service",
      sourceDecimals: "service",
      spender: "wallet",
      destination: "service",
    });
    // The lots lead; the formatted amount carries the service's decimals and the mark.
    expect(summary.lines[1]).toBe(
      "Receive at least 39 lots (at most 41 lots) of btc on network 4, 0.000039 to 0.000041 with 6 decimals [not checked by the wallet, as the service reports it: network, token, amounts, decimals]",
    );
    expect(summary.lines[0]).toMatch(
      /2\.5 of token .* \(2500000 lots\) \[not checked by the wallet, as the service reports it: token, amount, decimals\]$/,
    );
  });

  it.each([
    ["not an object", "4"],
    ["a fractional network", { ...DESTINATION, network: 4.5 }],
    ["an empty token", { ...DESTINATION, token: "" }],
    ["decimals 256", { ...DESTINATION, decimals: 256 }],
    ["a number as minAmountLots", { ...DESTINATION, minAmountLots: 3900 }],
    ["a negative minAmountLots", { ...DESTINATION, minAmountLots: -1n }],
  ])("refuses an expected.destination that is %s: PERMIT2_EXPECTED_INVALID", (_, destination) => {
    const parameters = parametersOf({}, {}, destination as unknown as Permit2DestinationExpectation);
    expect(codeOf(() => verifyPermit2Approval(parameters))).toBe("PERMIT2_EXPECTED_INVALID");
  });

  it.each(["evm", "tron"] as const)(
    "%s signers never call the key for the lowered destination",
    async (chain) => {
      const parameters = parametersOf({ chain, witness: lowered.witness }, lowered.quote);
      expect(await signWithSpies(parameters, chain)).toEqual({
        code: "PERMIT2_DEST_DECIMALS_MISMATCH",
        calls: 0,
      });
    },
  );
});

/** One of each kind of character that forges or hides text. */
const UNSAFE = [
  ["line feed", "\n"],
  ["carriage return", "\r"],
  ["NUL", "\u0000"],
  ["tab", "\t"],
  ["next line (C1)", "\u0085"],
  ["escape", "\u001b"],
  ["line separator", "\u2028"],
  ["paragraph separator", "\u2029"],
  ["right-to-left override", "\u202e"],
  ["left-to-right mark", "\u200e"],
  ["first strong isolate", "\u2068"],
  ["arabic letter mark", "\u061c"],
  ["zero-width space", "\u200b"],
  ["zero-width joiner", "\u200d"],
  ["word joiner", "\u2060"],
  ["byte-order mark", "\ufeff"],
  ["soft hyphen", "\u00ad"],
  ["tag character", "\u{e0041}"],
  ["lone surrogate", "\ud800"],
  ["Hangul filler", "\u3164"],
] as const;

describe("service strings cannot forge the confirmation text (PERMIT2_TEXT_UNSAFE)", () => {
  it("refuses a forged dest_token with a fake 'Valid until' line", () => {
    const forged = "btc\nValid until 2099-01-01T00:00:00.000Z";
    const parameters = parametersOf({ witness: { destToken: forged } }, { destToken: forged }, null);
    expect(codeOf(() => verifyPermit2Approval(parameters))).toBe("PERMIT2_TEXT_UNSAFE");
  });

  it.each(UNSAFE)(
    "refuses a %s in the witness destToken and recipient, and in the quote's destToken",
    (_, char) => {
      const token = `b${char}tc`;
      const inToken = parametersOf({ witness: { destToken: token } }, { destToken: token }, null);
      expect(codeOf(() => verifyPermit2Approval(inToken))).toBe("PERMIT2_TEXT_UNSAFE");
      // The wallet's own recipient is the same string: the witness still must not carry it.
      const recipient = `${RECIPIENT}${char}`;
      const inRecipient = parametersOf({ witness: { recipient } });
      expect(
        codeOf(() =>
          verifyPermit2Approval({ ...inRecipient, expected: { ...inRecipient.expected, recipient } }),
        ),
      ).toBe("PERMIT2_TEXT_UNSAFE");
      const inQuoteOnly = parametersOf({}, { destToken: `btc${char}` }, null);
      expect(codeOf(() => verifyPermit2Approval(inQuoteOnly))).toBe("PERMIT2_TEXT_UNSAFE");
    },
  );

  it("refuses an empty or overlong witness string, accepts 256 characters", () => {
    const long = "b".repeat(257);
    expect(
      codeOf(() =>
        verifyPermit2Approval(parametersOf({ witness: { destToken: long } }, { destToken: long }, null)),
      ),
    ).toBe("PERMIT2_TEXT_UNSAFE");
    expect(
      codeOf(() =>
        verifyPermit2Approval(parametersOf({ witness: { destToken: "" } }, { destToken: "" }, null)),
      ),
    ).toBe("PERMIT2_TEXT_UNSAFE");
    const ok = "b".repeat(256);
    expect(
      verifyPermit2Approval(parametersOf({ witness: { destToken: ok } }, { destToken: ok }, null)).summary
        .destToken,
    ).toBe(ok);
  });

  it("never echoes the raw string in the error: details and message hold an escaped form", () => {
    const forged = "btc\u202eevil";
    try {
      verifyPermit2Approval(parametersOf({ witness: { destToken: forged } }, { destToken: forged }, null));
    } catch (error) {
      if (!isSwapIntentError(error, "PERMIT2_TEXT_UNSAFE")) throw error;
      expect(error.shortMessage).toBe(
        "witness.destToken holds a control, bidi or invisible character (U+202E).",
      );
      expect(JSON.stringify(error.details)).not.toContain("\u202e");
      expect(error.message).not.toContain("\u202e");
      expect(error.details.value).toBe("btc\\u{202E}evil");
      return;
    }
    throw new Error("expected a refusal");
  });

  it("escapes service strings in every error's details and message, whatever the code", () => {
    const forged = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512\nValid until 2099";
    try {
      const tamper: FixtureOptions["tamper"] = (p) => {
        p.escrowContractAddress = forged;
      };
      verifyPermit2Approval(parametersOf({ tamper }));
    } catch (error) {
      if (!isSwapIntentError(error, "PERMIT2_ADDRESS_INVALID")) throw error;
      expect(error.details.value).toBe("0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512\\u{A}Valid until 2099");
      // One line per detail after the first: no line came from the service.
      expect(error.message.split("\n")).toHaveLength(1 + Object.keys(error.details).length);
      return;
    }
    throw new Error("expected a refusal");
  });

  it("leaves no lone surrogate in a message whose long detail is cut (found by the generative test, seed 42)", () => {
    // A detail longer than SwapIntentError's 300-character cut, with astral characters around the cut.
    for (const offset of [0, 1, 2, 3]) {
      const extra = `${"x".repeat(offset)}${"\u{1F600}".repeat(200)}`;
      try {
        verifyPermit2Approval(
          parametersOf({
            tamper: (p) => {
              p.additionalData.types.SwapWitness![6] = {
                name: "maxDestAmount",
                type: "uint256",
                [extra]: 1,
              } as never;
            },
          }),
        );
      } catch (error) {
        if (!isSwapIntentError(error, "PERMIT2_TYPES_INVALID")) throw error;
        expect(error.message).not.toMatch(/[\uD800-\uDFFF]/);
        expect(error.message).toContain("\\u{1F600}");
        continue;
      }
      throw new Error("expected a refusal");
    }
  });

  it.each(["evm", "tron"] as const)("%s signers never call the key for a forged string", async (chain) => {
    const forged = "btc\nValid until 2099-01-01T00:00:00.000Z";
    const parameters = parametersOf({ chain, witness: { destToken: forged } }, { destToken: forged }, null);
    expect(await signWithSpies(parameters, chain)).toEqual({ code: "PERMIT2_TEXT_UNSAFE", calls: 0 });
  });
});

/** Keys that reach Object.prototype when an object is indexed by them. */
const PROTOTYPE_KEYS = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "isPrototypeOf"];

/** Replaces `from` by `to` as a JSON key or string value, through JSON text (so `__proto__` becomes an own key). */
function viaJson<T>(value: T, from: string, to: string): T {
  return JSON.parse(JSON.stringify(value).replaceAll(JSON.stringify(from), JSON.stringify(to)));
}

describe("service-controlled keys that name Object.prototype members", () => {
  it.each(PROTOTYPE_KEYS)("refuses a witness type named %s: PERMIT2_TYPES_INVALID", (name) => {
    // The same name with a prefix is an ordinary struct name, refused only because it is not the escrow's type.
    expect(codeOf(() => verifyPermit2Approval(parametersOf({ witnessTypeName: `X${name}` })))).toBe(
      "PERMIT2_TYPES_INVALID",
    );
    const parameters = parametersOf({
      tamper: (p) => {
        p.additionalData.types = viaJson(p.additionalData.types, "SwapWitness", name);
      },
    });
    expect(codeOf(() => verifyPermit2Approval(parameters))).toBe("PERMIT2_TYPES_INVALID");
  });

  it.each(PROTOTYPE_KEYS)("refuses %s as a witness field, a type, a witness key and a domain key", (name) => {
    const tampered = (tamper: FixtureOptions["tamper"]) =>
      codeOf(() => verifyPermit2Approval(parametersOf({ tamper })));
    expect(
      tampered((p) => {
        p.additionalData.types = viaJson(p.additionalData.types, "intentId", name);
      }),
    ).toBe("PERMIT2_TYPES_INVALID");
    expect(
      tampered((p) => {
        p.additionalData.types = viaJson(p.additionalData.types, "TokenPermissions", name);
      }),
    ).toBe("PERMIT2_TYPES_INVALID");
    expect(
      tampered((p) => {
        p.additionalData.witness = viaJson(p.additionalData.witness, "intentId", name);
      }),
    ).toBe("PERMIT2_WITNESS_INVALID");
    expect(
      tampered((p) => {
        p.additionalData.domain = viaJson(p.additionalData.domain, "name", name);
      }),
    ).toBe("PERMIT2_DOMAIN_INVALID");
  });

  it.each(["evm", "tron"] as const)(
    "%s signers never call the key for a __proto__ witness type",
    async (chain) => {
      const parameters = parametersOf({
        chain,
        tamper: (p) => {
          p.additionalData.types = viaJson(p.additionalData.types, "SwapWitness", "__proto__");
        },
      });
      expect(await signWithSpies(parameters, chain)).toEqual({
        code: "PERMIT2_TYPES_INVALID",
        calls: 0,
      });
    },
  );
});

it("the fixture's user key is anvil's first dev key (the spies above stand in for it)", () => {
  expect(USER_PRIVATE_KEY).toMatch(/^0x[0-9a-f]{64}$/);
});
