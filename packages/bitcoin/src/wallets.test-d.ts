// Type tests of `@swapintent/bitcoin/wallets`: each adapter takes the wallet's documented shape, typed structurally,
// and gives a `PsbtWalletSigner` that `signHtlcPsbt` takes as its signer.
import type { Intent, Quote } from "@swapintent/client";
import * as tiny from "tiny-secp256k1";
import { assertType, describe, expectTypeOf, it } from "vitest";
import { type BitcoinError, isBitcoinError, type PsbtWalletSigner, signHtlcPsbt } from "./index.js";
import {
  createLeatherWalletSigner,
  createSatsConnectWalletSigner,
  createUnisatWalletSigner,
  type LeatherProvider,
  type SatsConnectRequest,
  type UnisatProvider,
} from "./wallets.js";

declare const intent: Intent;
declare const quote: Quote;

describe("wallet adapters", () => {
  it("take the injected objects structurally and return a signer for signHtlcPsbt", () => {
    // Unisat's provider carries more methods than the adapter needs; it still fits.
    const unisat = {
      signPsbt: async (psbtHex: string, _options?: { autoFinalized?: boolean }) => psbtHex,
      getPublicKey: async () => "02…",
      requestAccounts: async () => ["bc1p…"],
    };
    assertType<UnisatProvider>(unisat);
    const signer = createUnisatWalletSigner({ unisat, publicKey: "02…" });
    expectTypeOf(signer).toEqualTypeOf<PsbtWalletSigner>();
    assertType<Promise<unknown>>(signHtlcPsbt({ ecc: tiny, intent, quote, userPublicKey: "02…", signer }));
  });

  it("sats-connect's request: a method name, params, and the status envelope", () => {
    const request: SatsConnectRequest = async (_method, params) => ({
      status: "success",
      result: { psbt: params.psbt },
    });
    expectTypeOf(
      createSatsConnectWalletSigner({ request, publicKey: "02…" }),
    ).toEqualTypeOf<PsbtWalletSigner>();
    // @ts-expect-error the envelope's status is "success" or "error"
    const wrong: SatsConnectRequest = async () => ({ status: "ok", result: { psbt: "" } });
    void wrong;
  });

  it("Leather's request answers with the JSON-RPC result holding hex", () => {
    const leather: LeatherProvider = {
      request: async (_method, params) => ({ result: { hex: params.hex } }),
    };
    expectTypeOf(createLeatherWalletSigner({ leather, publicKey: "02…" })).toEqualTypeOf<PsbtWalletSigner>();
    // @ts-expect-error a base64 `psbt` is not Leather's answer
    const base64: LeatherProvider = { request: async () => ({ result: { psbt: "" } }) };
    void base64;
  });

  it("a wallet's refusal narrows to the wallet's own code and message", () => {
    const error: unknown = new Error("x");
    if (isBitcoinError(error, "BTC_WALLET_REJECTED")) {
      expectTypeOf(error.details.wallet).toEqualTypeOf<"unisat" | "sats-connect" | "leather">();
      expectTypeOf(error.details.code).toEqualTypeOf<string | number | null>();
    }
    if (isBitcoinError(error, "BTC_SIGNING_ABORTED")) {
      expectTypeOf(error.details).toEqualTypeOf<Readonly<{ stage: "beforeSigning" | "whileSigning" }>>();
    }
    if (isBitcoinError(error, "BTC_SIGNATURE_UNEXPECTED")) {
      expectTypeOf(error).toEqualTypeOf<BitcoinError<"BTC_SIGNATURE_UNEXPECTED">>();
      expectTypeOf(error.details).toEqualTypeOf<Readonly<{ input: number; field: string }>>();
    }
  });
});
