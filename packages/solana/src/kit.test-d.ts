/**
 * Type tests of `@swapintent/solana/kit`: the real Kit and wallet-standard types are accepted where the functions
 * take our structural ones, results and error types follow the convention, and every optional input accepts
 * `undefined`.
 */
import type { KeyPairSigner, TransactionPartialSigner, TransactionSigner } from "@solana/kit";
import type { SolanaSignTransactionFeature } from "@solana/wallet-standard-features";
import type { Wallet, WalletAccount } from "@wallet-standard/base";
import { describe, expectTypeOf, it } from "vitest";
import {
  isSolanaCosignError,
  type KitCosignSigner,
  type SignCosignTransactionWithKitErrorType,
  type SignCosignTransactionWithKitParameters,
  type SignCosignTransactionWithKitReturnType,
  type SignCosignTransactionWithWalletStandardErrorType,
  type SignCosignTransactionWithWalletStandardParameters,
  type SignCosignTransactionWithWalletStandardReturnType,
  type SolanaCosignError,
  signCosignTransactionWithKit,
  signCosignTransactionWithWalletStandard,
  type WalletStandardAccount,
  type WalletStandardSignTransactionFeature,
  type WalletStandardWallet,
} from "./kit.js";

describe("Kit signers", () => {
  it("a KeyPairSigner and any TransactionPartialSigner are accepted", () => {
    expectTypeOf<KeyPairSigner>().toExtend<KitCosignSigner>();
    expectTypeOf<TransactionPartialSigner>().toExtend<KitCosignSigner>();
    expectTypeOf<SignCosignTransactionWithKitParameters["signer"]>().toEqualTypeOf<KitCosignSigner>();
  });

  it("a signer that only modifies or sends transactions (no signTransactions) is not", () => {
    expectTypeOf<TransactionSigner>().not.toExtend<KitCosignSigner>();
    expectTypeOf<{ address: string }>().not.toExtend<KitCosignSigner>();
  });

  it("the function follows the convention", () => {
    expectTypeOf(signCosignTransactionWithKit).parameters.toEqualTypeOf<
      [SignCosignTransactionWithKitParameters]
    >();
    expectTypeOf(
      signCosignTransactionWithKit,
    ).returns.resolves.toEqualTypeOf<SignCosignTransactionWithKitReturnType>();
    expectTypeOf<SignCosignTransactionWithKitErrorType>().toExtend<SolanaCosignError>();
    // A Kit signer answers with signatures, not a transaction: its message cannot have changed.
    expectTypeOf<"SOL_WALLET_MESSAGE_CHANGED">().not.toExtend<
      SignCosignTransactionWithKitErrorType["code"]
    >();
    expectTypeOf<"SOL_WALLET_SIGNATURES_CHANGED">().toExtend<SignCosignTransactionWithKitErrorType["code"]>();
    expectTypeOf<SignCosignTransactionWithKitParameters>().not.toHaveProperty("userAddress");
  });
});

describe("wallet-standard", () => {
  it("a Wallet and WalletAccount of @wallet-standard/base and the feature of @solana/wallet-standard-features are accepted", () => {
    expectTypeOf<Wallet>().toExtend<WalletStandardWallet>();
    expectTypeOf<WalletAccount>().toExtend<WalletStandardAccount>();
    expectTypeOf<
      SolanaSignTransactionFeature["solana:signTransaction"]
    >().toExtend<WalletStandardSignTransactionFeature>();
  });

  it("the function follows the convention, and its chain is a solana: identifier", () => {
    expectTypeOf(signCosignTransactionWithWalletStandard).parameters.toEqualTypeOf<
      [SignCosignTransactionWithWalletStandardParameters]
    >();
    expectTypeOf(
      signCosignTransactionWithWalletStandard,
    ).returns.resolves.toEqualTypeOf<SignCosignTransactionWithWalletStandardReturnType>();
    expectTypeOf<SignCosignTransactionWithWalletStandardErrorType>().toEqualTypeOf<SolanaCosignError>();
    expectTypeOf<"solana:mainnet">().toExtend<SignCosignTransactionWithWalletStandardParameters["chain"]>();
    expectTypeOf<"eip155:1">().not.toExtend<SignCosignTransactionWithWalletStandardParameters["chain"]>();
    expectTypeOf<undefined>().toExtend<SignCosignTransactionWithWalletStandardParameters["chain"]>();
  });

  it("the new codes narrow their details", () => {
    const error: unknown = undefined;
    if (isSolanaCosignError(error, "SOL_WALLET_SIGNATURES_CHANGED")) {
      expectTypeOf(error.details.slots).toEqualTypeOf<number[]>();
    }
    if (isSolanaCosignError(error, "SOL_WALLET_RESPONSE_INVALID")) {
      expectTypeOf(error.details).toEqualTypeOf<Readonly<{ source: string; reason: string }>>();
    }
    if (isSolanaCosignError(error, "SOL_SIGNING_ABORTED")) {
      expectTypeOf(error.details.stage).toEqualTypeOf<"beforeSigning" | "whileSigning">();
      // @ts-expect-error a fact of another code is not in this code's details
      expectTypeOf(error.details.slots);
    }
  });

  it("every signer takes an optional AbortSignal, and nothing else as signal", () => {
    expectTypeOf<SignCosignTransactionWithKitParameters["signal"]>().toEqualTypeOf<AbortSignal | undefined>();
    expectTypeOf<SignCosignTransactionWithWalletStandardParameters["signal"]>().toEqualTypeOf<
      AbortSignal | undefined
    >();
    expectTypeOf<{ signal: boolean }>().not.toExtend<
      Pick<SignCosignTransactionWithKitParameters, "signal">
    >();
  });
});
