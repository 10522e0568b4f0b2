/**
 * Payloads a malicious service or a compromised layer between it and the wallet
 * could hand over, beyond plain JSON: accessors and proxies that answer each read differently, so a check and the
 * signing see different values. Each must be refused with a code before any key signs, or be verified on a copy.
 */
import { isSwapIntentError } from "@swapintent/client";
import { TypedDataEncoder, verifyTypedData } from "ethers";
import { describe, expect, it, vi } from "vitest";
import { codeOf } from "../test/codeOf.js";
import {
  buildPermit2Fixture,
  DEST_TOKEN,
  EVM,
  TRON,
  USER_ADDRESS,
  USER_PRIVATE_KEY,
} from "../test/fixtures/buildPermit2Fixture.js";
import { signWithSpies } from "../test/signWithSpies.js";
import { isPermit2Error } from "./errors.js";
import { signPermit2Approval } from "./evm/signPermit2Approval.js";
import type { Permit2DestinationExpectation, VerifyPermit2ApprovalParameters } from "./types.js";
import { verifyPermit2Approval } from "./verify/verifyPermit2Approval.js";

const DESTINATION: Permit2DestinationExpectation = {
  network: 4,
  token: DEST_TOKEN,
  decimals: 8,
  minAmountLots: 3_900n,
};

function parametersOf(
  options: Parameters<typeof buildPermit2Fixture>[0] = {},
): VerifyPermit2ApprovalParameters {
  const f = buildPermit2Fixture(options);
  return {
    intent: f.intent,
    quote: f.quote,
    expected: { ...f.expected, destination: DESTINATION },
    allowedPermit2Addresses: f.allowedPermit2Addresses,
    nowMs: f.nowMs,
  };
}

/** The intent's `params_to_sign.additional_data`, as mutable JSON. */
function additionalOf(parameters: {
  intent: VerifyPermit2ApprovalParameters["intent"];
}): Record<string, unknown> {
  return (parameters.intent.paramsToSign as unknown as { additionalData: Record<string, unknown> })
    .additionalData;
}

/** Defines `key` on `target` as an accessor returning `values[i]` on the i-th read (the last one after that). */
function answerInTurn(target: object, key: string, values: unknown[]): { reads: () => number } {
  let reads = 0;
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get: () => values[Math.min(reads++, values.length - 1)],
  });
  return { reads: () => reads };
}

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
});

describe("the owner the summary shows is the owner checked", () => {
  it("an expected.owner that reads as another address for the summary and as the signer later: PERMIT2_OWNER_MISMATCH, no key used", async () => {
    for (const chain of ["evm", "tron"] as const) {
      const signer = chain === "evm" ? USER_ADDRESS : "TPL66VK2gCXNCD7EJg9pgJRfqcRazjhUZY";
      const other = chain === "evm" ? EVM.resolver : TRON.resolver;
      const parameters = () => {
        const fresh = parametersOf({ chain });
        answerInTurn(fresh.expected, "owner", [other, signer]);
        return fresh;
      };
      expect(await signWithSpies(parameters, chain)).toEqual({ code: "PERMIT2_OWNER_MISMATCH", calls: 0 });
    }
  });
});

describe("a source token that is a contract of the swap", () => {
  it("the escrow (spender) or the Permit2 contract as the token: PERMIT2_TOKEN_MISMATCH, no key used", async () => {
    for (const chain of ["evm", "tron"] as const) {
      const f = buildPermit2Fixture({ chain });
      const params = f.intent.paramsToSign as unknown as Record<string, string>;
      for (const token of [params.escrowContractAddress!, params.permit2ContractAddress!]) {
        const parameters = { ...parametersOf({ chain }), quote: { ...f.quote, sourceToken: token } };
        expect(codeOf(() => verifyPermit2Approval(parameters))).toBe("PERMIT2_TOKEN_MISMATCH");
        expect(await signWithSpies(parameters, chain)).toEqual({ code: "PERMIT2_TOKEN_MISMATCH", calls: 0 });
      }
    }
  });
});

describe("what a signer returns", () => {
  it("a wallet's high-s signature over the right digest is refused: PERMIT2_SIGNATURE_INVALID, reason high-s", async () => {
    const { privateKeyToAccount } = await import("viem/accounts");
    const account = privateKeyToAccount(USER_PRIVATE_KEY);
    const parameters = parametersOf();
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    let highS = "";
    const signTypedData = vi.fn(async (typedData: Parameters<typeof account.signTypedData>[0]) => {
      const sig = (await account.signTypedData(typedData)).slice(2);
      const s = BigInt(`0x${sig.slice(64, 128)}`);
      const v = Number.parseInt(sig.slice(128), 16);
      highS = `0x${sig.slice(0, 64)}${(n - s).toString(16).padStart(64, "0")}${(v === 27 ? 28 : 27).toString(16)}`;
      return highS;
    });
    const error = await signPermit2Approval({
      ...parameters,
      signer: { address: USER_ADDRESS, signTypedData: signTypedData as never },
    }).catch((e: unknown) => e);
    expect(isPermit2Error(error, "PERMIT2_SIGNATURE_INVALID") && error.details.reason).toBe("high-s");
    // An independent verifier refuses that form too: ethers will not recover a non-canonical (high) s.
    const f = buildPermit2Fixture();
    const { domain, types, message } = f.evmTypedData;
    expect(() => verifyTypedData(domain, types, message, highS)).toThrow(/non-canonical s/);
  });

  it("an EIP-2098 64-byte signature, or one with r = 0: PERMIT2_SIGNATURE_INVALID", async () => {
    for (const raw of [`0x${"11".repeat(64)}`, `0x${"00".repeat(32)}${"11".repeat(32)}1b`]) {
      const parameters = parametersOf();
      const result = await signPermit2Approval({
        ...parameters,
        signer: { address: USER_ADDRESS, signTypedData: async () => raw },
      }).catch((e: unknown) => e);
      expect(isSwapIntentError(result) ? result.code : "signed").toBe("PERMIT2_SIGNATURE_INVALID");
    }
  });
});
