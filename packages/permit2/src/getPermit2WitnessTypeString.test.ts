import { isSwapIntentError } from "@swapintent/client";
import { TypedDataEncoder } from "ethers";
import { describe, expect, it } from "vitest";
import {
  buildPermit2Fixture,
  DOC_WITNESS_TYPE_STRING,
  keccakUtf8,
} from "../test/fixtures/buildPermit2Fixture.js";
import { PERMIT2_WITNESS_TYPE_STUB } from "./constants.js";
import { getPermit2WitnessTypeString } from "./getPermit2WitnessTypeString.js";

describe("getPermit2WitnessTypeString", () => {
  it("gives the string apps/docs/pages/reference/approvals.md prints for SwapWitness", () => {
    const { types } = buildPermit2Fixture().evmTypedData;
    expect(getPermit2WitnessTypeString({ types })).toBe(DOC_WITNESS_TYPE_STRING);
  });

  it("makes Permit2's concatenated type hash equal ethers' type hash, whatever the witness name sorts like", () => {
    for (const name of ["SwapWitness", "ZWitness", "AWitness", "Tokenz"]) {
      const { types } = buildPermit2Fixture({ witnessTypeName: name }).evmTypedData;
      const onChain = keccakUtf8(PERMIT2_WITNESS_TYPE_STUB + getPermit2WitnessTypeString({ types }));
      const ethersTypeHash = keccakUtf8(TypedDataEncoder.from(types).encodeType("PermitWitnessTransferFrom"));
      expect(onChain).toBe(ethersTypeHash);
    }
  });

  it("ignores EIP712Domain and refuses types without Permit2's primary type", () => {
    const { types } = buildPermit2Fixture().evmTypedData;
    const withDomain = { ...types, EIP712Domain: [{ name: "name", type: "string" }] };
    expect(getPermit2WitnessTypeString({ types: withDomain })).toBe(DOC_WITNESS_TYPE_STRING);
    const error = (() => {
      try {
        getPermit2WitnessTypeString({ types: { TokenPermissions: types.TokenPermissions! } });
      } catch (e) {
        return e;
      }
    })();
    expect(isSwapIntentError(error, "PERMIT2_TYPES_INVALID")).toBe(true);
  });

  it.each([
    ["null", null],
    ["undefined", undefined],
    ["a string", "PermitWitnessTransferFrom(TokenPermissions permitted)"],
    ["a number", 1],
  ])(
    "refuses types that are %s with PERMIT2_TYPES_INVALID (null and undefined were an untyped TypeError)",
    (_name, types) => {
      const error = (() => {
        try {
          getPermit2WitnessTypeString({ types: types as never });
        } catch (e) {
          return e;
        }
      })();
      expect(isSwapIntentError(error, "PERMIT2_TYPES_INVALID")).toBe(true);
    },
  );

  it.each(["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"])(
    "refuses a type named or referenced as %s with PERMIT2_TYPES_INVALID (was an untyped TypeError)",
    (name) => {
      const { types } = buildPermit2Fixture().evmTypedData;
      // Through JSON text, as a service sends it: `__proto__` becomes an own key.
      const renamed = JSON.parse(JSON.stringify(types).replaceAll('"SwapWitness"', JSON.stringify(name)));
      const referencedOnly = JSON.parse(JSON.stringify(types).replace('"SwapWitness":', '"Other":'));
      referencedOnly.PermitWitnessTransferFrom[4].type = name;
      for (const candidate of [renamed, referencedOnly]) {
        const error = (() => {
          try {
            getPermit2WitnessTypeString({ types: candidate });
          } catch (e) {
            return e;
          }
        })();
        expect(isSwapIntentError(error, "PERMIT2_TYPES_INVALID")).toBe(true);
      }
    },
  );

  it.each([
    ["a struct that is not a list", { SwapWitness: "x" }],
    ["a field without a type", { SwapWitness: [{ name: "a" }] }],
    ["a null field", { SwapWitness: [null] }],
  ])("refuses %s with PERMIT2_TYPES_INVALID", (_, change) => {
    const { types } = buildPermit2Fixture().evmTypedData;
    const error = (() => {
      try {
        getPermit2WitnessTypeString({ types: { ...types, ...(change as object) } as typeof types });
      } catch (e) {
        return e;
      }
    })();
    expect(isSwapIntentError(error, "PERMIT2_TYPES_INVALID")).toBe(true);
  });
});
