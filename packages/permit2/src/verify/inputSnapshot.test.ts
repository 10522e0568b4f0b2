/**
 * Inputs that answer each read differently (accessors, proxies) are verified on one copy: a check and the signing
 * never see different values; each is refused with a code before any key signs, or verified on the copy.
 */
import { TypedDataEncoder } from "ethers";
import { describe, expect, it, vi } from "vitest";
import { additionalOf } from "../../test/additionalOf.js";
import { answerInTurn } from "../../test/answerInTurn.js";
import { codeOf } from "../../test/codeOf.js";
import { buildPermit2Fixture, USER_ADDRESS } from "../../test/fixtures/buildPermit2Fixture.js";
import { parametersOf } from "../../test/fixtures/parametersOf.js";
import { signWithSpies } from "../../test/signWithSpies.js";
import { isPermit2Error } from "../errors.js";
import { type SignPermit2ApprovalParameters, signPermit2Approval } from "../evm/signPermit2Approval.js";
import { signTronPermit2Approval } from "../tron/signTronPermit2Approval.js";
import { verifyPermit2Approval } from "./verifyPermit2Approval.js";

describe("inputs that answer each read differently are verified on one copy", () => {
  it("a quote whose minimum is low when compared with the witness and high when compared with the wallet's least: PERMIT2_MIN_AMOUNT_TOO_LOW", async () => {
    // The witness signs a minimum of 39 lots; the wallet accepts no less than 3900.
    const parameters = parametersOf({ witness: { minDestAmount: "39" } });
    answerInTurn(parameters.quote, "minDestAmountLots", [39n, 39n, 3_900n]);
    expect(codeOf(() => verifyPermit2Approval(parameters))).toBe("PERMIT2_MIN_AMOUNT_TOO_LOW");
    for (const chain of ["evm", "tron"] as const) {
      const p = parametersOf({ chain, witness: { minDestAmount: "39" } });
      answerInTurn(p.quote, "minDestAmountLots", [39n, 39n, 3_900n]);
      expect(await signWithSpies(p, chain)).toEqual({ code: "PERMIT2_MIN_AMOUNT_TOO_LOW", calls: 0 });
    }
  });

  it("destination decimals that read 8 for the wallet's check and 6 for the summary: one value throughout", () => {
    const parameters = parametersOf();
    answerInTurn(parameters.quote, "destAmountDecimals", [8, 8, 6]);
    const { summary } = verifyPermit2Approval(parameters);
    expect(summary.destDecimals).toBe(8);
    expect(summary.minDestAmountFormatted).toBe("0.000039");
  });

  it("types that are Permit2's when checked and carry `bytes intentId` when hashed: refused (the `bytes` hash never matches the types checked)", () => {
    const bytesTypes = structuredClone(buildPermit2Fixture().evmTypedData.types);
    bytesTypes.SwapWitness![0] = { name: "intentId", type: "bytes" };
    const f = buildPermit2Fixture();
    const checked = additionalOf(f).types;
    const witness = additionalOf(f).witness as Record<string, unknown>;
    const parameters = parametersOf({
      tamper: (p) => {
        // The service's hash and type string for the `bytes` variant, consistent with what is hashed.
        p.additionalData.witnessHash = TypedDataEncoder.hashStruct("SwapWitness", bytesTypes, witness);
        const full = TypedDataEncoder.from(bytesTypes).encodeType("PermitWitnessTransferFrom");
        p.additionalData.witnessTypeString = full.slice(full.indexOf(",address spender") + 44);
      },
    });
    const additional = additionalOf(parameters);
    answerInTurn(additional, "types", [checked, checked, bytesTypes, bytesTypes]);
    const code = codeOf(() => verifyPermit2Approval(parameters));
    expect(["PERMIT2_WITNESS_HASH_MISMATCH", "PERMIT2_WITNESS_TYPE_STRING_MISMATCH"]).toContain(code);
  });

  it("a witness_hash that is a string when checked and a number when compared: read once, so checked as read", () => {
    const parameters = parametersOf();
    const additional = additionalOf(parameters);
    const sent = additional.witnessHash as string;
    const { reads } = answerInTurn(additional, "witnessHash", [sent, 7]);
    expect(verifyPermit2Approval(parameters).witnessHash).toBe(sent.toLowerCase());
    expect(reads()).toBe(1);
    // Before the fix, [sent, 7] threw a TypeError from `toLowerCase`; read first as a number, it is refused.
    const flipped = parametersOf();
    answerInTurn(additionalOf(flipped), "witnessHash", [7, sent]);
    expect(codeOf(() => verifyPermit2Approval(flipped))).toBe("PERMIT2_PARAMS_INVALID");
  });

  it("a proxy or accessor that throws when read: PERMIT2_PARAMS_INVALID, no key used", async () => {
    for (const chain of ["evm", "tron"] as const) {
      const parameters = parametersOf({ chain });
      parameters.intent = new Proxy(parameters.intent, {
        get: (target, key, receiver) => {
          if (key === "paramsToSign") throw new TypeError("trap");
          return Reflect.get(target, key, receiver);
        },
      });
      expect(codeOf(() => verifyPermit2Approval(parameters))).toBe("PERMIT2_PARAMS_INVALID");
      expect(await signWithSpies(parameters, chain)).toEqual({ code: "PERMIT2_PARAMS_INVALID", calls: 0 });
    }
  });

  it("a cycle in params_to_sign: PERMIT2_PARAMS_INVALID, not a stack overflow", () => {
    const parameters = parametersOf();
    const additional = additionalOf(parameters);
    additional.message = { permitted: {} };
    (additional.message as Record<string, unknown>).self = additional.message;
    expect(codeOf(() => verifyPermit2Approval(parameters))).toBe("PERMIT2_PARAMS_INVALID");
  });

  it("a transparent proxy (a reactive store's quote) is still accepted and verified", () => {
    const parameters = parametersOf();
    parameters.quote = new Proxy(parameters.quote, {});
    parameters.intent = new Proxy(parameters.intent, {});
    expect(verifyPermit2Approval(parameters).summary.minDestAmountLots).toBe(3_900n);
  });

  it("an own `__proto__` key (as JSON.parse makes it) stays a key of the copy and is refused where it is unknown", () => {
    const parameters = parametersOf();
    const witness = additionalOf(parameters).witness as Record<string, unknown>;
    Object.defineProperty(witness, "__proto__", {
      value: { x: 1 },
      enumerable: true,
      configurable: true,
      writable: true,
    });
    expect(codeOf(() => verifyPermit2Approval(parameters))).toBe("PERMIT2_WITNESS_INVALID");
  });
  it("an accessor or proxy that throws on a signer's own parameters or on `expected`: PERMIT2_PARAMS_INVALID, no wallet asked", async () => {
    for (const chain of ["evm", "tron"] as const) {
      const onExpected = () => {
        const parameters = parametersOf({ chain });
        Object.defineProperty(parameters.expected, "chainId", {
          enumerable: true,
          get: () => {
            throw new TypeError("trap");
          },
        });
        return parameters;
      };
      expect(await signWithSpies(onExpected, chain)).toEqual({ code: "PERMIT2_PARAMS_INVALID", calls: 0 });
    }
    const signTypedData = vi.fn(async () => `0x${"11".repeat(65)}`);
    const throwingOption = (key: string) => {
      const parameters: Record<string, unknown> = {
        ...parametersOf(),
        signer: { address: USER_ADDRESS, signTypedData },
      };
      Object.defineProperty(parameters, key, {
        enumerable: true,
        get: () => {
          throw new TypeError("trap");
        },
      });
      return parameters as unknown as SignPermit2ApprovalParameters;
    };
    for (const key of ["nowMs", "signal", "publicClient"]) {
      const error = await signPermit2Approval(throwingOption(key)).catch((e: unknown) => e);
      expect(isPermit2Error(error, "PERMIT2_PARAMS_INVALID")).toBe(true);
    }
    const proxied = new Proxy(
      { ...parametersOf({ chain: "tron" }), signer: { address: USER_ADDRESS, signTypedData } },
      {
        ownKeys: () => {
          throw new TypeError("trap");
        },
      },
    );
    const refused = await signTronPermit2Approval(proxied).catch((e: unknown) => e);
    expect(isPermit2Error(refused, "PERMIT2_PARAMS_INVALID")).toBe(true);
    expect(signTypedData).not.toHaveBeenCalled();
  });

  it("signer parameters that are not an object: a coded refusal, not a TypeError", async () => {
    for (const parameters of [undefined, null, 7]) {
      const evm = await signPermit2Approval(parameters as never).catch((e: unknown) => e);
      const tron = await signTronPermit2Approval(parameters as never).catch((e: unknown) => e);
      expect([isPermit2Error(evm), isPermit2Error(tron)]).toEqual([true, true]);
    }
  });
});
