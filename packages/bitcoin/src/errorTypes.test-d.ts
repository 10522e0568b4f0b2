// Each public function's `XErrorType` names only the codes that function can throw, so a `switch` over `code` is
// exhaustive for that call.
import { describe, expectTypeOf, it } from "vitest";
import type {
  BitcoinErrorCode,
  CreateHtlcActionsErrorType,
  GetUserScriptsErrorType,
  SignHtlcPsbtErrorType,
  SignHtlcRefundErrorType,
  VerifyHtlcPsbtErrorType,
} from "./index.js";
import type { CreateNodeHtlcActionsErrorType } from "./node.js";
import type {
  CreateLeatherWalletSignerErrorType,
  CreateSatsConnectWalletSignerErrorType,
  CreateUnisatWalletSignerErrorType,
} from "./wallets.js";

type SigningCodes =
  | "BTC_SIGNER_KEY_MISMATCH"
  | "BTC_SIGNING_FAILED"
  | "BTC_SIGNING_ABORTED"
  | "BTC_SIGNATURE_INVALID"
  | "BTC_TX_MODIFIED"
  | "BTC_PSBT_FIELD_MODIFIED"
  | "BTC_SIGNATURE_UNEXPECTED"
  | "BTC_WALLET_REJECTED"
  | "BTC_WALLET_BROADCAST";

describe("error types per function", () => {
  it("verifyHtlcPsbt throws no signing, wallet or refund code", () => {
    type Code = VerifyHtlcPsbtErrorType["code"];
    expectTypeOf<Extract<Code, SigningCodes | "BTC_REFUND_INVALID" | "BTC_SIGNER_UNSUPPORTED">>().toBeNever();
    expectTypeOf<"BTC_FEE_TOO_HIGH">().toExtend<Code>();
    expectTypeOf<"BTC_HTLC_AMOUNT_MISMATCH">().toExtend<Code>();
  });

  it("signHtlcPsbt throws every verify code and the signing codes, never a refund code", () => {
    type Code = SignHtlcPsbtErrorType["code"];
    expectTypeOf<VerifyHtlcPsbtErrorType["code"]>().toExtend<Code>();
    expectTypeOf<SigningCodes | "BTC_SIGNER_UNSUPPORTED">().toExtend<Code>();
    expectTypeOf<Exclude<BitcoinErrorCode, Code>>().toEqualTypeOf<"BTC_REFUND_INVALID">();
  });

  it("signHtlcRefund throws the refund's checks and the signing codes, not the deposit's", () => {
    type Code = SignHtlcRefundErrorType["code"];
    expectTypeOf<"BTC_REFUND_INVALID" | SigningCodes>().toExtend<Code>();
    expectTypeOf<
      Extract<Code, "BTC_FEE_TOO_HIGH" | "BTC_DEADLINE_PASSED" | "BTC_OUTPUT_DUST" | "BTC_SIGNER_UNSUPPORTED">
    >().toBeNever();
  });

  it("getUserScripts throws a key or parameter code only", () => {
    expectTypeOf<GetUserScriptsErrorType["code"]>().toEqualTypeOf<
      "BTC_PUBLIC_KEY_INVALID" | "BTC_PARAMETER_INVALID"
    >();
  });

  it("the bound actions throw what their three functions throw", () => {
    expectTypeOf<CreateHtlcActionsErrorType["code"]>().toEqualTypeOf<BitcoinErrorCode>();
    expectTypeOf<CreateNodeHtlcActionsErrorType>().toEqualTypeOf<CreateHtlcActionsErrorType>();
  });

  it("each adapter names its own refusals; Unisat cannot report a broadcast, sats-connect answers no hex", () => {
    expectTypeOf<CreateUnisatWalletSignerErrorType["code"]>().toEqualTypeOf<
      "BTC_POLICY_INVALID" | "BTC_PUBLIC_KEY_INVALID" | "BTC_WALLET_REJECTED" | "BTC_PSBT_INVALID"
    >();
    expectTypeOf<CreateSatsConnectWalletSignerErrorType["code"]>().toEqualTypeOf<
      "BTC_POLICY_INVALID" | "BTC_PUBLIC_KEY_INVALID" | "BTC_WALLET_REJECTED" | "BTC_WALLET_BROADCAST"
    >();
    expectTypeOf<CreateLeatherWalletSignerErrorType["code"]>().toEqualTypeOf<
      | "BTC_POLICY_INVALID"
      | "BTC_PUBLIC_KEY_INVALID"
      | "BTC_WALLET_REJECTED"
      | "BTC_WALLET_BROADCAST"
      | "BTC_PSBT_INVALID"
    >();
  });

  it("narrowing the code narrows the details", () => {
    const handle = (error: VerifyHtlcPsbtErrorType) => {
      switch (error.code) {
        case "BTC_FEE_TOO_HIGH":
          return error.details.feeLots;
        default:
          return undefined;
      }
    };
    expectTypeOf(handle).returns.toEqualTypeOf<bigint | undefined>();
  });
});
