/**
 * Each public function's `XErrorType` is the union of the codes it can throw, so a `switch` over `code` is
 * exhaustive for that call and a code it cannot throw does not type-check.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { FormatTronAddressErrorType } from "./address/formatTronAddress.js";
import type { ParseTronAddressErrorType } from "./address/parseTronAddress.js";
import type { Permit2ErrorCode } from "./errors.js";
import type { AssertPermit2AllowanceErrorType } from "./evm/assertPermit2Allowance.js";
import type { GetPermit2AllowanceErrorType } from "./evm/getPermit2Allowance.js";
import type { SignPermit2ApprovalErrorType } from "./evm/signPermit2Approval.js";
import type { GetPermit2WitnessTypeStringErrorType } from "./getPermit2WitnessTypeString.js";
import type { NormalizeSignatureErrorType } from "./normalizeSignature.js";
import type { SignTronPermit2ApprovalErrorType } from "./tron/signTronPermit2Approval.js";
import type { VerifyPermit2ApprovalErrorType } from "./types.js";

type Signing =
  | "PERMIT2_OWNER_MISMATCH"
  | "PERMIT2_SIGNATURE_INVALID"
  | "PERMIT2_SIGNER_MISMATCH"
  | "PERMIT2_SIGNING_ABORTED"
  | "PERMIT2_SIGNING_FAILED";
type Contract =
  | "PERMIT2_CONTRACT_SIGNATURE_INVALID"
  | "PERMIT2_CONTRACT_DEPLOYMENT_MISMATCH"
  | "PERMIT2_CONTRACT_CHECK_FAILED";
type NotVerifying =
  | Signing
  | Contract
  | "PERMIT2_WALLET_RESPONSE_INVALID"
  | "PERMIT2_TRONWEB_UNAVAILABLE"
  | "PERMIT2_TRON_ADDRESS_INVALID"
  | "PERMIT2_ALLOWANCE_INSUFFICIENT"
  | "PERMIT2_ALLOWANCE_READ_FAILED";

describe("each function's error type holds only the codes it can throw", () => {
  it("address, signature and type-string helpers: one code each", () => {
    expectTypeOf<ParseTronAddressErrorType["code"]>().toEqualTypeOf<"PERMIT2_TRON_ADDRESS_INVALID">();
    expectTypeOf<FormatTronAddressErrorType["code"]>().toEqualTypeOf<"PERMIT2_TRON_ADDRESS_INVALID">();
    expectTypeOf<NormalizeSignatureErrorType["code"]>().toEqualTypeOf<"PERMIT2_SIGNATURE_INVALID">();
    expectTypeOf<GetPermit2WitnessTypeStringErrorType["code"]>().toEqualTypeOf<"PERMIT2_TYPES_INVALID">();
  });

  it("allowance reads", () => {
    expectTypeOf<GetPermit2AllowanceErrorType["code"]>().toEqualTypeOf<"PERMIT2_ALLOWANCE_READ_FAILED">();
    expectTypeOf<AssertPermit2AllowanceErrorType["code"]>().toEqualTypeOf<
      "PERMIT2_ALLOWANCE_INSUFFICIENT" | "PERMIT2_ALLOWANCE_READ_FAILED"
    >();
  });

  it("verification: every verification code, none of signing or allowance", () => {
    expectTypeOf<VerifyPermit2ApprovalErrorType["code"]>().toEqualTypeOf<
      Exclude<Permit2ErrorCode, NotVerifying>
    >();
  });

  it("the EVM signer: verification, signing and the provider's answers; never Tron or allowance codes", () => {
    expectTypeOf<SignPermit2ApprovalErrorType["code"]>().toEqualTypeOf<
      VerifyPermit2ApprovalErrorType["code"] | Signing | Contract | "PERMIT2_WALLET_RESPONSE_INVALID"
    >();
    expectTypeOf<"PERMIT2_TRONWEB_UNAVAILABLE">().not.toExtend<SignPermit2ApprovalErrorType["code"]>();
  });

  it("the Tron signer: verification, signing and loading tronweb; never the EVM provider's codes", () => {
    expectTypeOf<SignTronPermit2ApprovalErrorType["code"]>().toEqualTypeOf<
      VerifyPermit2ApprovalErrorType["code"] | Signing | "PERMIT2_TRONWEB_UNAVAILABLE"
    >();
    expectTypeOf<"PERMIT2_WALLET_RESPONSE_INVALID">().not.toExtend<
      SignTronPermit2ApprovalErrorType["code"]
    >();
  });

  it("narrowing a signer's error by code narrows its details", () => {
    const error = {} as SignPermit2ApprovalErrorType;
    if (error.code === "PERMIT2_SIGNING_FAILED")
      expectTypeOf(error.details.step).toEqualTypeOf<"accounts" | "chainId" | "sign" | "privateKey">();
  });
});
