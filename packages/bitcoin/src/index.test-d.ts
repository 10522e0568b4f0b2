// Type tests (vitest typecheck, run by tsc under exactOptionalPropertyTypes): the public signatures, results,
// error codes, and optional inputs that accept `undefined`.
import * as bitcoinerlab from "@bitcoinerlab/secp256k1";
import type { Approval, BaseError, Intent, Quote } from "@swapintent/client";
import type { Psbt } from "bitcoinjs-lib";
import * as tiny from "tiny-secp256k1";
import { assertType, describe, expectTypeOf, it } from "vitest";
import {
  type BitcoinEcc,
  type BitcoinErrorCode,
  createBitcoinError,
  createBitcoinSigner,
  DEFAULT_HTLC_POLICY,
  type HtlcPolicy,
  type HtlcPolicyParameters,
  type KeySigner,
  type PsbtWalletSigner,
  signHtlcPsbt,
  signHtlcRefund,
  type VerifiedHtlcPsbt,
  verifyHtlcPsbt,
} from "./index.js";
import { createNodeBitcoinSigner } from "./node.js";

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
    expectTypeOf(verified).toEqualTypeOf<VerifiedHtlcPsbt>();
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
    createBitcoinSigner({ ecc: bitcoinerlab, policy: undefined });
    const external: KeySigner = {
      publicKey: new Uint8Array(33),
      sign: (h) => h,
      signSchnorr: undefined,
      tweak: undefined,
    };
    signHtlcPsbt({ ecc: tiny, intent, quote, userPublicKey: "02", signer: external });
    createNodeBitcoinSigner({ policy: undefined });
    createNodeBitcoinSigner();
  });

  it("createBitcoinSigner binds ecc and policy", () => {
    const bitcoin = createBitcoinSigner({ ecc: tiny, policy: { maxFeeLots: 20_000n } });
    expectTypeOf(bitcoin.verify({ intent, quote, userPublicKey: "02" })).toEqualTypeOf<VerifiedHtlcPsbt>();
    // @ts-expect-error ecc is bound already
    bitcoin.verify({ ecc: tiny, intent, quote, userPublicKey: "02" });
    expectTypeOf(createNodeBitcoinSigner()).toEqualTypeOf(bitcoin);
  });

  it("error codes are a closed union", () => {
    expectTypeOf(createBitcoinError("BTC_FEE_TOO_HIGH", "x")).toEqualTypeOf<BaseError<BitcoinErrorCode>>();
    assertType<BitcoinErrorCode>("BTC_INPUT_NOT_SEGWIT");
    assertType<BitcoinErrorCode>("BTC_OUTPUT_DUST");
    assertType<BitcoinErrorCode>("BTC_FEE_TOO_LOW");
    // @ts-expect-error an unknown code does not compile
    createBitcoinError("BTC_NOT_A_CODE", "x");
  });

  it("the default policy is a complete HtlcPolicy of bigint fee caps", () => {
    assertType<HtlcPolicy>(DEFAULT_HTLC_POLICY);
    expectTypeOf(DEFAULT_HTLC_POLICY.maxFeeLots).toEqualTypeOf<50_000n>();
  });
});
