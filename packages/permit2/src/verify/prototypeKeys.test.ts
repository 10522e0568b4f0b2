/**
 * Service-controlled keys that name `Object.prototype` members (`__proto__`, `constructor`, ...) as a witness type,
 * a field, a type, a witness key or a domain key are refused with a code, never read from the prototype.
 */
import type { Quote } from "@swapintent/client";
import { describe, expect, it } from "vitest";
import { codeOf } from "../../test/codeOf.js";
import {
  buildPermit2Fixture,
  DEST_TOKEN,
  type FixtureOptions,
} from "../../test/fixtures/buildPermit2Fixture.js";
import { signWithSpies } from "../../test/signWithSpies.js";
import type { Permit2DestinationExpectation, VerifyPermit2ApprovalParameters } from "../types.js";
import { verifyPermit2Approval } from "./verifyPermit2Approval.js";

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
const _lowered = {
  witness: { minDestAmount: "39", maxDestAmount: "41" },
  quote: { destAmountDecimals: 6, minDestAmountLots: 39n, maxDestAmountLots: 41n },
};

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
