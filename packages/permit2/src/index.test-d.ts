/**
 * Type tests (vitest typecheck, under this package's `exactOptionalPropertyTypes: true`): the public signatures,
 * return types and error codes, and calls that pass `undefined` for every optional input, as a consumer with
 * `process.env.X`-like values would.
 */
import type { BaseError, Hex, Intent, Quote } from "@swapintent/client";
import { describe, expectTypeOf, it } from "vitest";
import type { PERMIT2_ERROR_CODES } from "../test/permit2Codes.js";
import {
  type Permit2ErrorCode as EvmPermit2ErrorCode,
  type GetPermit2AllowanceReturnType,
  getPermit2Allowance,
  type SignPermit2ApprovalReturnType,
  signPermit2Approval,
} from "./evm.js";
import {
  formatTronAddress,
  getPermit2WitnessTypeString,
  normalizeSignature,
  type Permit2ApprovalSummary,
  type Permit2DestinationExpectation,
  type Permit2ErrorCode,
  type Permit2Expectation,
  type Permit2FactSource,
  parseTronAddress,
  type VerifyPermit2ApprovalParameters,
  type VerifyPermit2ApprovalReturnType,
  verifyPermit2Approval,
} from "./index.js";
import {
  type SignTronPermit2ApprovalReturnType,
  signTronPermit2Approval,
  type TronTypedDataSigner,
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
    expectTypeOf<VerifyPermit2ApprovalReturnType["digest"]>().toEqualTypeOf<Hex>();
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
    const signer = { address: "0x00" as Hex, signTypedData: async () => "0x" as Hex };
    expectTypeOf(
      signPermit2Approval({ intent, quote, expected, signer, account: undefined }),
    ).resolves.toEqualTypeOf<SignPermit2ApprovalReturnType>();
    expectTypeOf<SignPermit2ApprovalReturnType["approval"]>().toEqualTypeOf<{
      type: "permit2";
      signedData: Hex;
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
    expectTypeOf(parseTronAddress({ address: "T…" })).toEqualTypeOf<Hex>();
    expectTypeOf(formatTronAddress({ address: "0x00" })).toEqualTypeOf<string>();
    expectTypeOf(normalizeSignature({ signature: "0x00" })).toEqualTypeOf<Hex>();
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
    expectTypeOf<BaseError<Permit2ErrorCode>["code"]>().toEqualTypeOf<Permit2ErrorCode>();
  });
});
