/**
 * Type tests of the public API, checked by tsc under this package's tsconfig (`strict`,
 * `exactOptionalPropertyTypes: true`): main signatures, results, error codes, and every optional input property
 * accepting `undefined`.
 */
import type { Keypair, PublicKey, VersionedTransaction } from "@solana/web3.js";
import type { Intent, SwapIntentError } from "@swapintent/client";
import { describe, expectTypeOf, it } from "vitest";
import {
  type CosignSigner,
  type Ed25519MessageSigner,
  type ExpectedEscrow,
  type GetAssociatedTokenAccountAddressErrorType,
  type GetAssociatedTokenAccountAddressParameters,
  type GetAssociatedTokenAccountAddressReturnType,
  getAssociatedTokenAccountAddress,
  isSolanaCosignError,
  type LookupTableContents,
  type SignCosignTransactionErrorType,
  type SignCosignTransactionParameters,
  type SignCosignTransactionReturnType,
  type SolanaCosignError,
  type SolanaCosignErrorCode,
  type SolanaCosignErrorDetails,
  signCosignTransaction,
  type VerifyCosignTransactionErrorType,
  type VerifyCosignTransactionParameters,
  type VerifyCosignTransactionReturnType,
  verifyCosignTransaction,
  type WalletTransactionSigner,
} from "./index.js";

/** The optional keys of `T`. */
type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];
/**
 * The optional keys of `T` whose declared type does not accept `undefined` (under exactOptionalPropertyTypes,
 * `Required` drops only the implicit `undefined` of an optional property and keeps an explicit `| undefined`).
 */
type RejectsUndefined<T> = {
  [K in OptionalKeys<T>]-?: undefined extends Required<T>[K] ? never : K;
}[OptionalKeys<T>];

declare const intent: Intent;
declare const keypair: Keypair;
declare const maybe: {
  decimals: number | undefined;
  programs: string[] | undefined;
  cap: bigint | undefined;
  tables: LookupTableContents[] | undefined;
  memo: boolean | undefined;
  tokenProgram: string | undefined;
};

describe("the helper itself", () => {
  it("finds an optional key that refuses undefined, and none when every one accepts it", () => {
    expectTypeOf<RejectsUndefined<{ a?: string; b?: string | undefined; c: number }>>().toEqualTypeOf<"a">();
    expectTypeOf<RejectsUndefined<{ b?: string | undefined }>>().toEqualTypeOf<never>();
  });
});

describe("every optional input property accepts undefined", () => {
  it("verify, sign, the quote subset and getAssociatedTokenAccountAddress", () => {
    expectTypeOf<RejectsUndefined<VerifyCosignTransactionParameters>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<SignCosignTransactionParameters>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<VerifyCosignTransactionParameters["quote"]>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<GetAssociatedTokenAccountAddressParameters>>().toEqualTypeOf<never>();
  });

  it("values that may be unset pass straight through", () => {
    const verification = verifyCosignTransaction({
      intent,
      quote: { sourceToken: "mint", sourceAmountLots: 1n, sourceAmountDecimals: maybe.decimals },
      userAddress: "user",
      escrow: { owner: "escrow" },
      allowedPrograms: maybe.programs,
      maxNativeOutflowLamports: maybe.cap,
      lookupTables: maybe.tables,
      checkMemo: maybe.memo,
    });
    expectTypeOf(verification).toEqualTypeOf<VerifyCosignTransactionReturnType>();
    expectTypeOf(
      getAssociatedTokenAccountAddress({ owner: "o", mint: "m", tokenProgram: maybe.tokenProgram }),
    ).toEqualTypeOf<string>();
  });
});

describe("signatures and results", () => {
  it("verifyCosignTransaction takes one parameters object and returns what a wallet shows", () => {
    expectTypeOf(verifyCosignTransaction).parameters.toEqualTypeOf<[VerifyCosignTransactionParameters]>();
    expectTypeOf<VerifyCosignTransactionReturnType>().toMatchTypeOf<{
      userAddress: string;
      userSignerIndex: number;
      feePayer: string;
      mint: string;
      amountLots: bigint;
      destination: string;
      nativeOutflowLamports: bigint;
      programs: string[];
      memos: string[];
      messageBytes: Uint8Array;
    }>();
    // The internal decoded transaction does not leak into the public result.
    expectTypeOf<VerifyCosignTransactionReturnType>().not.toHaveProperty("decoded");
  });

  it("signCosignTransaction takes a Keypair, a wallet or an ed25519 signer and resolves to the cosign approval", () => {
    expectTypeOf(signCosignTransaction).parameters.toEqualTypeOf<[SignCosignTransactionParameters]>();
    expectTypeOf(signCosignTransaction).returns.toEqualTypeOf<Promise<SignCosignTransactionReturnType>>();
    expectTypeOf<SignCosignTransactionParameters>().not.toHaveProperty("userAddress");
    expectTypeOf<SignCosignTransactionParameters["signal"]>().toEqualTypeOf<AbortSignal | undefined>();
    expectTypeOf(keypair).toExtend<CosignSigner>();
    expectTypeOf<WalletTransactionSigner>().toExtend<CosignSigner>();
    expectTypeOf<Ed25519MessageSigner>().toExtend<CosignSigner>();
    expectTypeOf<WalletTransactionSigner["signTransaction"]>().returns.toEqualTypeOf<
      Promise<VersionedTransaction>
    >();
    expectTypeOf<Ed25519MessageSigner["publicKey"]>().toEqualTypeOf<PublicKey | string>();
    expectTypeOf<SignCosignTransactionReturnType["approval"]>().toEqualTypeOf<{
      type: "cosign";
      signedData: { transaction: string; userAddress: string };
    }>();
    expectTypeOf<SignCosignTransactionReturnType["signature"]>().toEqualTypeOf<string>();
  });

  it("the escrow must be named, or the opt-out spelled out", () => {
    expectTypeOf<{ owner: string }>().toExtend<ExpectedEscrow>();
    expectTypeOf<{ tokenAccount: string }>().toExtend<ExpectedEscrow>();
    expectTypeOf<{ unchecked: true }>().toExtend<ExpectedEscrow>();
    expectTypeOf<{ unchecked: false }>().not.toExtend<ExpectedEscrow>();
    expectTypeOf<VerifyCosignTransactionParameters["escrow"]>().not.toEqualTypeOf<
      ExpectedEscrow | undefined
    >();
  });
});

describe("error codes", () => {
  it("are a closed union of SOL_ strings, including the issue-12 refusals", () => {
    expectTypeOf<SolanaCosignErrorCode>().toExtend<`SOL_${string}`>();
    expectTypeOf<"SOL_USER_ROLE_NOT_ALLOWED">().toExtend<SolanaCosignErrorCode>();
    expectTypeOf<"SOL_MEMO_NOT_UTF8">().toExtend<SolanaCosignErrorCode>();
    expectTypeOf<"SOL_MEMO_UNSAFE_TEXT">().toExtend<SolanaCosignErrorCode>();
    expectTypeOf<"SOL_TX_DECODE_FAILED">().toExtend<SolanaCosignErrorCode>();
    expectTypeOf<"SOL_NOT_A_CODE">().not.toExtend<SolanaCosignErrorCode>();
    expectTypeOf<"PERMIT2_SPENDER_MISMATCH">().not.toExtend<SolanaCosignErrorCode>();
    expectTypeOf<SwapIntentError<SolanaCosignErrorCode>["code"]>().toEqualTypeOf<SolanaCosignErrorCode>();
  });
});

describe("the viem convention: Parameters, ReturnType and ErrorType per function", () => {
  it("each function returns its ReturnType and names its ErrorType", () => {
    expectTypeOf(verifyCosignTransaction).returns.toEqualTypeOf<VerifyCosignTransactionReturnType>();
    expectTypeOf(getAssociatedTokenAccountAddress).parameters.toEqualTypeOf<
      [GetAssociatedTokenAccountAddressParameters]
    >();
    expectTypeOf(
      getAssociatedTokenAccountAddress,
    ).returns.toEqualTypeOf<GetAssociatedTokenAccountAddressReturnType>();
    expectTypeOf<SignCosignTransactionErrorType>().toEqualTypeOf<SolanaCosignError>();
    expectTypeOf<SolanaCosignError>().toExtend<SwapIntentError<SolanaCosignErrorCode>>();
    expectTypeOf<SolanaCosignError>().toExtend<SwapIntentError<SolanaCosignErrorCode>>();
    expectTypeOf<SolanaCosignError<"SOL_AMOUNT_MISMATCH">>().toEqualTypeOf<
      SwapIntentError<"SOL_AMOUNT_MISMATCH", SolanaCosignErrorDetails["SOL_AMOUNT_MISMATCH"]>
    >();
  });
});

describe("each ErrorType lists the codes its function can throw", () => {
  it("verification throws no signing code; the address helper only SOL_INVALID_ADDRESS", () => {
    type Codes<E> = E extends { code: infer C } ? C : never;
    expectTypeOf<Codes<GetAssociatedTokenAccountAddressErrorType>>().toEqualTypeOf<"SOL_INVALID_ADDRESS">();
    expectTypeOf<GetAssociatedTokenAccountAddressErrorType>().toEqualTypeOf<
      SolanaCosignError<"SOL_INVALID_ADDRESS">
    >();
    expectTypeOf<"SOL_SIGNING_ABORTED">().not.toExtend<Codes<VerifyCosignTransactionErrorType>>();
    expectTypeOf<"SOL_SIGNER_INVALID">().not.toExtend<Codes<VerifyCosignTransactionErrorType>>();
    expectTypeOf<"SOL_WALLET_RESPONSE_INVALID">().not.toExtend<Codes<VerifyCosignTransactionErrorType>>();
    expectTypeOf<"SOL_AMOUNT_MISMATCH">().toExtend<Codes<VerifyCosignTransactionErrorType>>();
    expectTypeOf<"SOL_MEMO_MISMATCH">().toExtend<Codes<VerifyCosignTransactionErrorType>>();
    expectTypeOf<VerifyCosignTransactionErrorType>().toExtend<SignCosignTransactionErrorType>();
  });

  it("a switch over a narrowed code is exhaustive without the signing codes", () => {
    const explain = (error: VerifyCosignTransactionErrorType): string => {
      switch (error.code) {
        case "SOL_AMOUNT_MISMATCH":
          return `${error.details.expected}`;
        default:
          return error.code;
      }
    };
    expectTypeOf(explain).returns.toEqualTypeOf<string>();
    // @ts-expect-error a signing code is not one verification can throw
    const impossible: VerifyCosignTransactionErrorType["code"] = "SOL_SIGNING_FAILED";
    void impossible;
  });
});

describe("isSolanaCosignError narrows", () => {
  it("to the given code, or to the whole union without one", () => {
    const error: unknown = new Error("x");
    if (isSolanaCosignError(error, "SOL_AMOUNT_MISMATCH")) {
      expectTypeOf(error).toEqualTypeOf<SolanaCosignError<"SOL_AMOUNT_MISMATCH">>();
      expectTypeOf(error.code).toEqualTypeOf<"SOL_AMOUNT_MISMATCH">();
    }
    if (isSolanaCosignError(error)) {
      expectTypeOf(error.code).toEqualTypeOf<SolanaCosignErrorCode>();
      expectTypeOf(error).toExtend<SwapIntentError<SolanaCosignErrorCode>>();
    }
    if (isSolanaCosignError(error, "SOL_MECHANISM_MISMATCH")) {
      expectTypeOf(error.code).toEqualTypeOf<"SOL_MECHANISM_MISMATCH">();
    }
  });

  it("narrowing the code narrows details to that code's facts", () => {
    const error: unknown = new Error("x");
    if (isSolanaCosignError(error, "SOL_AMOUNT_MISMATCH")) {
      expectTypeOf(error.details.expected).toEqualTypeOf<bigint>();
      expectTypeOf(error.details.actual).toEqualTypeOf<bigint>();
      // @ts-expect-error: the amount failure carries no memo
      error.details.memos;
    }
    if (isSolanaCosignError(error, "SOL_MINT_MISMATCH")) {
      expectTypeOf(error.details.actual).toEqualTypeOf<string | null>();
      expectTypeOf(error.details.instruction).toEqualTypeOf<number>();
    }
    if (isSolanaCosignError(error, "SOL_INVALID_ADDRESS")) {
      expectTypeOf(error.details).toEqualTypeOf<Readonly<{ parameter: string; value: string }>>();
    }
    if (isSolanaCosignError(error, "SOL_ESCROW_NOT_SPECIFIED")) {
      expectTypeOf(error.details).toEqualTypeOf<Readonly<Record<string, never>>>();
    }
  });

  it("a switch over the code of the whole union narrows details per case", () => {
    const error: unknown = new Error("x");
    if (!isSolanaCosignError(error)) return;
    switch (error.code) {
      case "SOL_NATIVE_OUTFLOW_TOO_HIGH":
        expectTypeOf(error.details).toEqualTypeOf<Readonly<{ lamports: bigint; cap: bigint }>>();
        break;
      case "SOL_MEMO_MISMATCH":
        expectTypeOf(error.details.memos).toEqualTypeOf<readonly string[]>();
        break;
      case "SOL_SIGNATURE_INVALID":
        expectTypeOf(error.details.source).toEqualTypeOf<string>();
        break;
      default:
        expectTypeOf(error.details).toExtend<Readonly<Record<string, unknown>>>();
    }
  });

  it("the details map has one entry per code and each entry is an object", () => {
    expectTypeOf<keyof SolanaCosignErrorDetails>().toEqualTypeOf<SolanaCosignErrorCode>();
    expectTypeOf<SolanaCosignErrorDetails[SolanaCosignErrorCode]>().toExtend<
      Readonly<Record<string, unknown>>
    >();
  });

  it("refuses a code outside the union at compile time", () => {
    const error: unknown = undefined;
    // @ts-expect-error: a misspelt code does not compile
    isSolanaCosignError(error, "SOL_AMOUNT_MISMATCHED");
    // @ts-expect-error: another package's code is not a Solana code
    isSolanaCosignError(error, "PERMIT2_MECHANISM_MISMATCH");
    // @ts-expect-error: the code is a string, not any value
    isSolanaCosignError(error, 1);
    expectTypeOf(isSolanaCosignError).parameter(0).toEqualTypeOf<unknown>();
  });

  it("the mechanism failure has its own code, the caller's bad input another", () => {
    expectTypeOf<"SOL_MECHANISM_MISMATCH">().toExtend<SolanaCosignErrorCode>();
    expectTypeOf<"SOL_INVALID_PARAMETERS">().toExtend<SolanaCosignErrorCode>();
  });
});
