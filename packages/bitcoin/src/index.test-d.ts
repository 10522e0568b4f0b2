// Type tests (vitest typecheck, run by tsc under exactOptionalPropertyTypes): the public signatures, results,
// error codes, and optional inputs that accept `undefined`.
import * as bitcoinerlab from "@bitcoinerlab/secp256k1";
import type { Approval, Intent, Quote, SwapIntentError } from "@swapintent/client";
import type { Psbt } from "bitcoinjs-lib";
import * as tiny from "tiny-secp256k1";
import { assertType, describe, expectTypeOf, it } from "vitest";
import type * as api from "./index.js";
import {
  type BitcoinEcc,
  type BitcoinError,
  type BitcoinErrorCode,
  type BitcoinErrorDetails,
  createHtlcActions,
  DEFAULT_HTLC_POLICY,
  type HtlcPolicy,
  type HtlcPolicyParameters,
  isBitcoinError,
  type KeySigner,
  type PsbtWalletSigner,
  type SignatureProblem,
  type SignPsbtInput,
  type SignPsbtParameters,
  signHtlcPsbt,
  signHtlcRefund,
  type VerifyHtlcPsbtReturnType,
  verifyHtlcPsbt,
} from "./index.js";
import { createNodeHtlcActions } from "./node.js";

declare const intent: Intent;
declare const quote: Quote;
declare const keySigner: KeySigner;
declare const wallet: PsbtWalletSigner;

describe("public types", () => {
  it("accepts both secp256k1 backends as ecc", () => {
    assertType<BitcoinEcc>(tiny);
    assertType<BitcoinEcc>(bitcoinerlab);
  });

  it("verifyHtlcPsbt takes one object and returns the verified deposit", () => {
    const verified = verifyHtlcPsbt({ ecc: tiny, intent, quote, userPublicKey: "02" });
    expectTypeOf(verified).toEqualTypeOf<VerifyHtlcPsbtReturnType>();
    expectTypeOf(verified.feeLots).toEqualTypeOf<bigint>();
    expectTypeOf(verified.estimatedVsize).toEqualTypeOf<bigint>();
    expectTypeOf(verified.txid).toEqualTypeOf<string>();
    expectTypeOf(verified.htlc.valueLots).toEqualTypeOf<bigint>();
    expectTypeOf(verified.psbt).toEqualTypeOf<Psbt>();
    expectTypeOf(verified.inputs).toEqualTypeOf<{ index: number; kind: "p2tr" | "p2wpkh" }[]>();
    // @ts-expect-error the quote's amount is bigint lots, never a number
    verifyHtlcPsbt({ ecc: tiny, intent, quote: { sourceAmountLots: 100_000 }, userPublicKey: "02" });
  });

  it("signHtlcPsbt returns the approval body to submit", async () => {
    const signed = await signHtlcPsbt({ ecc: tiny, intent, quote, userPublicKey: "02", signer: keySigner });
    expectTypeOf(signed.approval).toEqualTypeOf<Extract<Approval, { type: "psbt" }>>();
    expectTypeOf(signed.psbt).toEqualTypeOf<string>();
    assertType<Promise<unknown>>(
      signHtlcPsbt({ ecc: tiny, intent, quote, userPublicKey: "02", signer: wallet }),
    );
  });

  it("signHtlcRefund returns the refund transaction", async () => {
    const refund = await signHtlcRefund({
      ecc: tiny,
      depositPsbt: "",
      userPublicKey: "02",
      signer: keySigner,
      feeLots: 500n,
    });
    expectTypeOf(refund).toEqualTypeOf<{
      txHex: string;
      txid: string;
      csvBlocks: number;
      valueLots: bigint;
    }>();
    // @ts-expect-error the fee is bigint lots
    signHtlcRefund({ ecc: tiny, depositPsbt: "", userPublicKey: "02", signer: keySigner, feeLots: 500 });
  });

  it("every optional input accepts undefined (exactOptionalPropertyTypes)", () => {
    const policy: HtlcPolicyParameters = {
      minCsvBlocks: undefined,
      maxCsvBlocks: undefined,
      maxFeeLots: undefined,
      maxFeeRateSatPerVbyte: undefined,
      minFeeRateSatPerVbyte: undefined,
      maxLockTimeHeight: undefined,
      resolverPublicKey: undefined,
    };
    verifyHtlcPsbt({ ecc: tiny, intent, quote, userPublicKey: "02", policy: undefined });
    verifyHtlcPsbt({ ecc: tiny, intent, quote, userPublicKey: "02", policy });
    signHtlcPsbt({
      ecc: tiny,
      intent,
      quote,
      userPublicKey: "02",
      signer: keySigner,
      policy: undefined,
      alwaysCheckSignatures: undefined,
    });
    signHtlcRefund({
      ecc: tiny,
      depositPsbt: "",
      userPublicKey: "02",
      signer: keySigner,
      feeLots: 1n,
      destinationScript: undefined,
    });
    createHtlcActions({ ecc: bitcoinerlab, policy: undefined });
    const external: KeySigner = {
      publicKey: new Uint8Array(33),
      sign: (h) => h,
      signSchnorr: undefined,
      tweak: undefined,
    };
    signHtlcPsbt({ ecc: tiny, intent, quote, userPublicKey: "02", signer: external });
    createNodeHtlcActions({ policy: undefined });
    createNodeHtlcActions();
  });

  it("createHtlcActions binds ecc and policy", () => {
    const bitcoin = createHtlcActions({ ecc: tiny, policy: { maxFeeLots: 20_000n } });
    expectTypeOf(
      bitcoin.verify({ intent, quote, userPublicKey: "02" }),
    ).toEqualTypeOf<VerifyHtlcPsbtReturnType>();
    // @ts-expect-error ecc is bound already
    bitcoin.verify({ ecc: tiny, intent, quote, userPublicKey: "02" });
    expectTypeOf(createNodeHtlcActions()).toEqualTypeOf(bitcoin);
  });

  it("error codes are a closed union the compiler checks", () => {
    expectTypeOf<BitcoinErrorCode>().toEqualTypeOf<keyof BitcoinErrorDetails>();
    expectTypeOf<BitcoinError>().toExtend<SwapIntentError<BitcoinErrorCode>>();
    expectTypeOf<BitcoinError<"BTC_FEE_TOO_HIGH">>().toEqualTypeOf<
      SwapIntentError<"BTC_FEE_TOO_HIGH", BitcoinErrorDetails["BTC_FEE_TOO_HIGH"]>
    >();
    assertType<BitcoinErrorCode>("BTC_INPUT_NOT_SEGWIT");
    assertType<BitcoinErrorCode>("BTC_MECHANISM_MISMATCH");
    // @ts-expect-error the old spelling of a wrong approval mechanism is gone
    assertType<BitcoinErrorCode>("BTC_INTENT_NOT_HTLC");
    // @ts-expect-error an unknown code does not compile
    assertType<BitcoinErrorCode>("BTC_NOT_A_CODE");
    // The internal error factory and the old names are not exported.
    expectTypeOf<Extract<keyof typeof api, "createBitcoinError" | "createBitcoinSigner">>().toBeNever();
  });

  it("isBitcoinError narrows to the code it is asked about", () => {
    const error: unknown = new Error("x");
    if (isBitcoinError(error, "BTC_FEE_TOO_HIGH")) {
      expectTypeOf(error).toEqualTypeOf<BitcoinError<"BTC_FEE_TOO_HIGH">>();
      expectTypeOf(error.code).toEqualTypeOf<"BTC_FEE_TOO_HIGH">();
    }
    if (isBitcoinError(error)) {
      expectTypeOf(error.code).toEqualTypeOf<BitcoinErrorCode>();
      expectTypeOf(error).toEqualTypeOf<BitcoinError>();
    }
    // @ts-expect-error a misspelt code does not compile
    isBitcoinError(error, "BTC_FEE_TOO_HIGHH");
    // @ts-expect-error another package's code is not a bitcoin code
    isBitcoinError(error, "PERMIT2_SPENDER_MISMATCH");
  });

  it("narrowing by the guard narrows details to that code's facts", () => {
    const error: unknown = new Error("x");
    if (isBitcoinError(error, "BTC_FEE_TOO_HIGH")) {
      expectTypeOf(error.details.feeLots).toEqualTypeOf<bigint>();
      expectTypeOf(error.details.maxFeeLots).toEqualTypeOf<bigint>();
      // @ts-expect-error a fee error has no input index
      error.details.input;
    }
    if (isBitcoinError(error, "BTC_HTLC_AMOUNT_MISMATCH")) {
      expectTypeOf(error.details).toEqualTypeOf<Readonly<{ expected: bigint; actual: bigint }>>();
    }
    if (isBitcoinError(error, "BTC_DEADLINE_PASSED")) {
      expectTypeOf(error.details.deadlineSecs).toEqualTypeOf<number | null>();
      expectTypeOf(error.details.nowMs).toEqualTypeOf<number>();
    }
    if (isBitcoinError(error, "BTC_DEADLINE_TOO_FAR")) {
      expectTypeOf(error.details).toEqualTypeOf<
        Readonly<{ deadlineSecs: number; nowMs: number; maxDeadlineSecs: number }>
      >();
    }
    if (isBitcoinError(error, "BTC_FEE_TOO_HIGH")) {
      expectTypeOf(error.details.maxFeeBps).toEqualTypeOf<number>();
    }
    if (isBitcoinError(error, "BTC_AMOUNT_OUT_OF_RANGE")) {
      expectTypeOf(error.details).toEqualTypeOf<
        Readonly<{ where: string; valueLots: bigint; maxLots: bigint }>
      >();
    }
    if (isBitcoinError(error, "BTC_SIGNATURE_INVALID")) {
      expectTypeOf(error.details.input).toEqualTypeOf<number>();
      expectTypeOf(error.details.reason).toEqualTypeOf<SignatureProblem>();
    }
    if (isBitcoinError(error, "BTC_HTLC_SCRIPT_MISMATCH") && error.details.part === "tree") {
      expectTypeOf(error.details.leaves).toEqualTypeOf<number>();
    }
  });

  it("narrowing code with a switch narrows details", () => {
    const error = {} as BitcoinError;
    switch (error.code) {
      case "BTC_OUTPUT_DUST":
        expectTypeOf(error.details.dustLimitLots).toEqualTypeOf<bigint>();
        break;
      case "BTC_PSBT_INVALID":
        expectTypeOf(error.details.source).toEqualTypeOf<"params_to_sign.psbt" | "wallet" | "depositPsbt">();
        break;
      case "BTC_TX_MODIFIED":
        expectTypeOf(error.details.fields).toEqualTypeOf<string[]>();
        break;
      default:
        expectTypeOf(error.code).not.toEqualTypeOf<"BTC_OUTPUT_DUST">();
    }
  });

  it("a guard without a code narrows to the union, whose details are a union too", () => {
    const error: unknown = new Error("x");
    if (isBitcoinError(error)) {
      expectTypeOf(error.details).toEqualTypeOf<Readonly<BitcoinErrorDetails[BitcoinErrorCode]>>();
    }
  });

  it("a wallet's signPsbt takes one object", () => {
    expectTypeOf<PsbtWalletSigner["signPsbt"]>().parameters.toEqualTypeOf<[SignPsbtParameters]>();
    expectTypeOf<SignPsbtParameters>().toEqualTypeOf<{
      psbt: string;
      inputs: number[];
      signInputs: SignPsbtInput[];
    }>();
    expectTypeOf<SignPsbtInput>().toEqualTypeOf<{
      index: number;
      kind: "p2tr" | "p2wpkh" | "htlcRefund";
      script: Uint8Array;
      sighashType: number;
    }>();
    const positional = async (psbt: string, inputs: number[]) => psbt + inputs.length;
    // @ts-expect-error the old positional (psbt, inputs) callback no longer fits
    assertType<PsbtWalletSigner>({ publicKey: new Uint8Array(33), signPsbt: positional });
  });

  it("the default policy is a complete HtlcPolicy of bigint fee caps", () => {
    assertType<HtlcPolicy>(DEFAULT_HTLC_POLICY);
    expectTypeOf(DEFAULT_HTLC_POLICY.maxFeeLots).toEqualTypeOf<20_000n>();
    expectTypeOf(DEFAULT_HTLC_POLICY.maxFeeBps).toEqualTypeOf<200>();
    expectTypeOf(DEFAULT_HTLC_POLICY.maxFeeRateSatPerVbyte).toEqualTypeOf<25n>();
    expectTypeOf(DEFAULT_HTLC_POLICY.maxDeadlineSecs).toEqualTypeOf<86_400>();
  });
});
