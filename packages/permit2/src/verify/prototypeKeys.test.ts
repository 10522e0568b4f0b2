import { describe, expect, it } from "vitest";
import { codeOf } from "../../test/codeOf.js";
import type { FixtureOptions } from "../../test/fixtures/buildPermit2Fixture.js";
import { parametersOf } from "../../test/fixtures/parametersOf.js";
import { signWithSpies } from "../../test/signWithSpies.js";
import { verifyPermit2Approval } from "./verifyPermit2Approval.js";

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
