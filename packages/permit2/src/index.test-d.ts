/**
 * Type tests (vitest typecheck, under this package's `exactOptionalPropertyTypes: true`): the public signatures,
 * return types and error codes, and calls that pass `undefined` for every optional input, as a consumer with
 * `process.env.X`-like values would.
 */
import type { HexString, Intent, Quote, SwapIntentError } from "@swapintent/client";
import type { EIP1193Provider } from "viem";
import { describe, expectTypeOf, it } from "vitest";
import type { PERMIT2_ERROR_CODES } from "../test/permit2Codes.js";
import {
  type AssertPermit2AllowanceReturnType,
  assertPermit2Allowance,
  type Permit2ErrorCode as EvmPermit2ErrorCode,
  isPermit2Error as evmIsPermit2Error,
  type GetPermit2AllowanceErrorType,
  type GetPermit2AllowanceReturnType,
  getPermit2Allowance,
  type Permit2Eip1193Provider,
  type Permit2EvmSigner,
  type SignPermit2ApprovalErrorType,
  type SignPermit2ApprovalParameters,
  type SignPermit2ApprovalReturnType,
  signPermit2Approval,
} from "./evm.js";
import {
  type FormatTronAddressErrorType,
  type FormatTronAddressReturnType,
  formatTronAddress,
  type GetPermit2WitnessTypeStringReturnType,
  getPermit2WitnessTypeString,
  isPermit2Error,
  type NormalizeSignatureReturnType,
  normalizeSignature,
  type ParseTronAddressReturnType,
  type Permit2ApprovalSummary,
  type Permit2DestinationExpectation,
  type Permit2Error,
  type Permit2ErrorCode,
  type Permit2ErrorDetails,
  type Permit2Expectation,
  type Permit2FactSource,
  type Permit2SignatureProblem,
  type Permit2TypedData,
  parseTronAddress,
  type VerifyPermit2ApprovalErrorType,
  type VerifyPermit2ApprovalParameters,
  type VerifyPermit2ApprovalReturnType,
  verifyPermit2Approval,
} from "./index.js";
import {
  type SignTronPermit2ApprovalErrorType,
  type SignTronPermit2ApprovalParameters,
  type SignTronPermit2ApprovalReturnType,
  signTronPermit2Approval,
  type TronLinkTronWeb,
  type TronTypedDataSigner,
  isPermit2Error as tronIsPermit2Error,
} from "./tron.js";

declare const intent: Intent;
declare const quote: Quote;
declare const env: Record<string, string | undefined>;
declare const maybeBigint: bigint | undefined;
declare const maybeNumber: number | undefined;

const expected: Permit2Expectation = {
  chainId: 1,
  recipient: "bc1q…",
  spender: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
  // Every optional property takes `undefined` (exactOptionalPropertyTypes is on for this file).
  owner: env.OWNER,
  sourceToken: env.SOURCE_TOKEN,
  sourceAmountLots: maybeBigint,
  sourceDecimals: maybeNumber,
  destination: undefined,
  chainType: undefined,
};

describe("verifyPermit2Approval", () => {
  it("takes one parameters object and returns the verified approval", () => {
    expectTypeOf(verifyPermit2Approval).parameters.toEqualTypeOf<[VerifyPermit2ApprovalParameters]>();
    expectTypeOf(verifyPermit2Approval).returns.toEqualTypeOf<VerifyPermit2ApprovalReturnType>();
    expectTypeOf<VerifyPermit2ApprovalReturnType["digest"]>().toEqualTypeOf<HexString>();
    expectTypeOf<VerifyPermit2ApprovalReturnType["summary"]>().toEqualTypeOf<Permit2ApprovalSummary>();
  });

  it("accepts undefined for every optional input", () => {
    expectTypeOf(
      verifyPermit2Approval({
        intent,
        quote,
        expected,
        allowedPermit2Addresses: undefined,
        maxDeadlineSecs: maybeNumber,
        nowMs: undefined,
      }),
    ).toEqualTypeOf<VerifyPermit2ApprovalReturnType>();
  });

  it("requires chainId, recipient and spender; destination facts are all required when given", () => {
    // @ts-expect-error spender is required
    const noSpender: Permit2Expectation = { chainId: 1, recipient: "r" };
    // @ts-expect-error a destination needs decimals and minAmountLots
    const partial: Permit2DestinationExpectation = { network: 4, token: "btc" };
    expectTypeOf<Permit2DestinationExpectation["minAmountLots"]>().toEqualTypeOf<bigint>();
    expectTypeOf(noSpender).toEqualTypeOf<Permit2Expectation>();
    expectTypeOf(partial).toEqualTypeOf<Permit2DestinationExpectation>();
  });

  it("marks every summary fact as wallet or service", () => {
    expectTypeOf<Permit2ApprovalSummary["sources"]["destination"]>().toEqualTypeOf<Permit2FactSource>();
    expectTypeOf<Permit2FactSource>().toEqualTypeOf<"wallet" | "service">();
    expectTypeOf<Permit2ApprovalSummary["amountLots"]>().toEqualTypeOf<bigint>();
  });
});

describe("signers", () => {
  it("signPermit2Approval returns the approval to submit; account accepts undefined", () => {
    const signer = { address: "0x00" as HexString, signTypedData: async () => "0x" as HexString };
    expectTypeOf(
      signPermit2Approval({ intent, quote, expected, signer, account: undefined }),
    ).resolves.toEqualTypeOf<SignPermit2ApprovalReturnType>();
    expectTypeOf<SignPermit2ApprovalReturnType["approval"]>().toEqualTypeOf<{
      type: "permit2";
      signedData: HexString;
    }>();
  });

  it("signTronPermit2Approval takes a private key or a signer, never both", () => {
    const signer: TronTypedDataSigner = { address: "T…", signTypedData: () => "0x" };
    expectTypeOf(
      signTronPermit2Approval({
        intent,
        quote,
        expected,
        privateKey: "00",
        tronWeb: undefined,
        signer: undefined,
      }),
    ).resolves.toEqualTypeOf<SignTronPermit2ApprovalReturnType>();
    expectTypeOf(
      signTronPermit2Approval({ intent, quote, expected, signer, privateKey: undefined }),
    ).resolves.toEqualTypeOf<SignTronPermit2ApprovalReturnType>();
    // @ts-expect-error a private key and a signer at once
    signTronPermit2Approval({ intent, quote, expected, signer, privateKey: "00" });
  });

  it("getPermit2Allowance: optional permit2Address and approveAmount accept undefined", () => {
    const publicClient = { readContract: async () => 0n } as unknown as Parameters<
      typeof getPermit2Allowance
    >[0]["publicClient"];
    expectTypeOf(
      getPermit2Allowance({
        publicClient,
        token: "0x00",
        owner: "0x00",
        amount: 1n,
        permit2Address: undefined,
        approveAmount: undefined,
      }),
    ).resolves.toEqualTypeOf<GetPermit2AllowanceReturnType>();
  });
});

describe("helpers", () => {
  it("address, signature and type-string helpers", () => {
    expectTypeOf(parseTronAddress({ address: "T…" })).toEqualTypeOf<HexString>();
    expectTypeOf(formatTronAddress({ address: "0x00" })).toEqualTypeOf<string>();
    expectTypeOf(normalizeSignature({ signature: "0x00" })).toEqualTypeOf<HexString>();
    expectTypeOf(getPermit2WitnessTypeString({ types: {} })).toEqualTypeOf<string>();
  });
});

describe("error codes", () => {
  it("the runtime list is exactly the Permit2ErrorCode union, the same in every entry", () => {
    expectTypeOf<(typeof PERMIT2_ERROR_CODES)[number]>().toEqualTypeOf<Permit2ErrorCode>();
    expectTypeOf<EvmPermit2ErrorCode>().toEqualTypeOf<Permit2ErrorCode>();
    expectTypeOf<"PERMIT2_TEXT_UNSAFE">().toExtend<Permit2ErrorCode>();
    expectTypeOf<
      "PERMIT2_DEST_DECIMALS_MISMATCH" | "PERMIT2_MIN_AMOUNT_TOO_LOW"
    >().toExtend<Permit2ErrorCode>();
    // @ts-expect-error an unknown code is not a Permit2ErrorCode
    const unknown: Permit2ErrorCode = "PERMIT2_NOT_A_CODE";
    expectTypeOf(unknown).toEqualTypeOf<Permit2ErrorCode>();
    expectTypeOf<SwapIntentError<Permit2ErrorCode>["code"]>().toEqualTypeOf<Permit2ErrorCode>();
    expectTypeOf<keyof Permit2ErrorDetails>().toEqualTypeOf<Permit2ErrorCode>();
  });
});

describe("isPermit2Error and the error types", () => {
  it("narrows to a permit2 error, and to the one code asked for", () => {
    const error: unknown = new Error("x");
    if (isPermit2Error(error)) {
      expectTypeOf(error).toEqualTypeOf<Permit2Error>();
      expectTypeOf(error.code).toEqualTypeOf<Permit2ErrorCode>();
    }
    if (isPermit2Error(error, "PERMIT2_SPENDER_MISMATCH")) {
      expectTypeOf(error.code).toEqualTypeOf<"PERMIT2_SPENDER_MISMATCH">();
      expectTypeOf(error).toEqualTypeOf<Permit2Error<"PERMIT2_SPENDER_MISMATCH">>();
      expectTypeOf(error).toEqualTypeOf<
        SwapIntentError<"PERMIT2_SPENDER_MISMATCH", Permit2ErrorDetails["PERMIT2_SPENDER_MISMATCH"]>
      >();
    }
    // @ts-expect-error a misspelt code does not compile
    isPermit2Error(error, "PERMIT2_SPENDER_MISMATCHED");
    // @ts-expect-error another package's code is not a permit2 code
    isPermit2Error(error, "BTC_MECHANISM_MISMATCH");
    // @ts-expect-error the old unprefixed Tron code is gone
    isPermit2Error(error, "TRON_ADDRESS_INVALID");
    expectTypeOf(evmIsPermit2Error).toEqualTypeOf(isPermit2Error);
    expectTypeOf(tronIsPermit2Error).toEqualTypeOf(isPermit2Error);
  });

  it("every XErrorType is a Permit2Error, and the renamed codes are in the union", () => {
    expectTypeOf<Permit2Error>().toExtend<SwapIntentError<Permit2ErrorCode>>();
    expectTypeOf<VerifyPermit2ApprovalErrorType>().toExtend<Permit2Error>();
    expectTypeOf<SignPermit2ApprovalErrorType>().toExtend<Permit2Error>();
    expectTypeOf<SignTronPermit2ApprovalErrorType>().toExtend<Permit2Error>();
    expectTypeOf<GetPermit2AllowanceErrorType>().toExtend<Permit2Error>();
    expectTypeOf<FormatTronAddressErrorType>().toExtend<Permit2Error>();
    expectTypeOf<
      "PERMIT2_TRON_ADDRESS_INVALID" | "PERMIT2_TRONWEB_UNAVAILABLE" | "PERMIT2_EXPECTED_INVALID"
    >().toExtend<Permit2ErrorCode>();
    expectTypeOf<"TRON_ADDRESS_INVALID">().not.toExtend<Permit2ErrorCode>();
    expectTypeOf<"TRONWEB_UNAVAILABLE">().not.toExtend<Permit2ErrorCode>();
  });

  it("every function returns its XReturnType", () => {
    expectTypeOf(formatTronAddress).returns.toEqualTypeOf<FormatTronAddressReturnType>();
    expectTypeOf(parseTronAddress).returns.toEqualTypeOf<ParseTronAddressReturnType>();
    expectTypeOf(normalizeSignature).returns.toEqualTypeOf<NormalizeSignatureReturnType>();
    expectTypeOf(getPermit2WitnessTypeString).returns.toEqualTypeOf<GetPermit2WitnessTypeStringReturnType>();
    expectTypeOf(assertPermit2Allowance).returns.resolves.toEqualTypeOf<AssertPermit2AllowanceReturnType>();
  });

  it("narrowing by the guard narrows details to that code's facts", () => {
    const error: unknown = new Error("x");
    if (isPermit2Error(error, "PERMIT2_ALLOWANCE_INSUFFICIENT")) {
      expectTypeOf(error.details.allowance).toEqualTypeOf<bigint>();
      expectTypeOf(error.details.required).toEqualTypeOf<bigint>();
      expectTypeOf(error.details.approveTransaction.to).toEqualTypeOf<HexString>();
    }
    if (isPermit2Error(error, "PERMIT2_SIGNATURE_INVALID")) {
      expectTypeOf(error.details.reason).toEqualTypeOf<Permit2SignatureProblem>();
      // @ts-expect-error a fact of another code is not in this code's details
      expectTypeOf(error.details.allowance);
    }
    if (isPermit2Error(error, "PERMIT2_SIGNER_MISMATCH")) {
      expectTypeOf(error.details).toEqualTypeOf<Readonly<{ expected: string; recovered: string }>>();
    }
    if (isPermit2Error(error, "PERMIT2_DEADLINE_TOO_FAR")) {
      expectTypeOf(error.details.maxDeadlineSecs).toEqualTypeOf<number>();
    }
    if (isPermit2Error(error, "PERMIT2_EXPECTED_INVALID")) {
      expectTypeOf(error.details.field).toEqualTypeOf<string>();
    }
    if (isPermit2Error(error, "PERMIT2_SIGNING_ABORTED")) {
      expectTypeOf(error.details.stage).toEqualTypeOf<"beforeSigning" | "whileSigning">();
      expectTypeOf(error.details.step).toEqualTypeOf<"accounts" | "chainId" | "sign" | undefined>();
      // @ts-expect-error a fact of another code is not in this code's details
      expectTypeOf(error.details.recovered);
    }
  });

  it("every signer takes an optional AbortSignal", () => {
    expectTypeOf<SignPermit2ApprovalParameters["signal"]>().toEqualTypeOf<AbortSignal | undefined>();
    expectTypeOf<SignTronPermit2ApprovalParameters["signal"]>().toEqualTypeOf<AbortSignal | undefined>();
    void signPermit2Approval({
      intent,
      quote,
      expected,
      provider: {} as EIP1193Provider,
      signal: AbortSignal.timeout(1),
    });
    // @ts-expect-error a signal is an AbortSignal, not a flag
    void signTronPermit2Approval({ intent, quote, expected, tronLink: {} as TronLinkTronWeb, signal: true });
  });

  it("narrowing a Permit2Error by its code in a switch narrows details too", () => {
    const describe = (error: Permit2Error): string => {
      switch (error.code) {
        case "PERMIT2_DEADLINE_PASSED":
          expectTypeOf(error.details).toEqualTypeOf<Readonly<{ deadlineSecs: number; nowMs: number }>>();
          return `${error.details.deadlineSecs}`;
        case "PERMIT2_CHAIN_TYPE_MISMATCH":
          expectTypeOf(error.details.actual).toEqualTypeOf<"evm" | "tron">();
          return error.details.expected;
        default:
          return error.code;
      }
    };
    expectTypeOf(describe).returns.toEqualTypeOf<string>();
  });

  it("signPermit2Approval takes a bare EIP-1193 provider (viem's EIP1193Provider type fits), or a signer, not both", () => {
    expectTypeOf<{
      request: (args: { method: string; params?: unknown[] | object }) => Promise<unknown>;
    }>().toExtend<Permit2Eip1193Provider>();
    const provider = {} as EIP1193Provider;
    expectTypeOf(
      signPermit2Approval({ intent, quote, expected, provider }),
    ).resolves.toEqualTypeOf<SignPermit2ApprovalReturnType>();
    const both = { intent, quote, expected, provider, signer: {} as Permit2EvmSigner };
    // @ts-expect-error a signer and a provider at once
    void signPermit2Approval(both);
  });

  it("signTronPermit2Approval takes TronLink's injected tronWeb", () => {
    const tronLink: TronLinkTronWeb = { defaultAddress: { base58: false }, trx: {} };
    expectTypeOf(
      signTronPermit2Approval({ intent, quote, expected, tronLink }),
    ).resolves.toEqualTypeOf<SignTronPermit2ApprovalReturnType>();
  });

  it("a Tron signer's signTypedData takes one typed-data object", () => {
    expectTypeOf<TronTypedDataSigner["signTypedData"]>().parameters.toEqualTypeOf<[Permit2TypedData]>();
    const old: TronTypedDataSigner = {
      address: "T…",
      // @ts-expect-error the old (domain, types, message) callback no longer fits
      signTypedData: (_d: object, _t: object, _m: object) => "0x",
    };
    expectTypeOf(old).toEqualTypeOf<TronTypedDataSigner>();
  });
});
