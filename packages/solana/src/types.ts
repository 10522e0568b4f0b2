import type { Intent, Quote } from "@swapintent/client";
import type { SolanaCosignError, SolanaCosignErrorCode, SolanaCosignSigningErrorCode } from "./errors.js";
import type { AddressLike } from "./internal/address.js";
import type { DecodedTransaction } from "./internal/decodeTransaction.js";

/**
 * Where the user's tokens must go. Give the escrow's owner (the sandbox lists it as `escrow_owner` in
 * `GET /sandbox/chains`; the destination must then be its associated token account for the source mint), or the
 * exact escrow token account. `{ unchecked: true }` is an explicit opt-out: any one destination is accepted (the
 * first transfer's), and a transfer the user authorizes to any other account is refused (`SOL_EXTRA_OUTFLOW`).
 */
export type ExpectedEscrow = { owner: string } | { tokenAccount: string } | { unchecked: true };

/** The contents of an address lookup table (for a web3.js `AddressLookupTableAccount` `a`: `{ key: a.key, addresses: a.state.addresses }`). */
export interface LookupTableContents {
  key: AddressLike;
  addresses: ReadonlyArray<AddressLike>;
}

/** Parameters of {@link verifyCosignTransaction}. */
export interface VerifyCosignTransactionParameters {
  /** The intent as `@swapintent/client` returned it; its `paramsToSign.transaction` is checked. */
  intent: Intent;
  /**
   * The quote the user accepted: the source mint and the exact amount in lots, and (when present) the decimals the
   * amount was shown with, which every `TransferChecked` must state (the token program checks them against the mint).
   */
  quote: Pick<Quote, "sourceToken" | "sourceAmountLots"> & {
    sourceAmountDecimals?: Quote["sourceAmountDecimals"] | undefined;
  };
  /** The user's address (base58, e.g. a Kit `Address`, or a web3.js `PublicKey`). */
  userAddress: AddressLike;
  /** Where the user's tokens must go (required; see {@link ExpectedEscrow}). */
  escrow: ExpectedEscrow;
  /** Programs allowed beyond the defaults (System, SPL Token, Token-2022, Associated Token, Compute Budget, Memo). */
  allowedPrograms?: readonly string[] | undefined;
  /** Lamports that may leave the user (transfers, accounts the user funds). Default `0n`. */
  maxNativeOutflowLamports?: bigint | undefined;
  /** Contents of the lookup tables the transaction uses; without them a transaction with lookups is refused. */
  lookupTables?: readonly LookupTableContents[] | undefined;
  /**
   * Require the memo `swapintent:<intent_id>:<secret_hash>` (default true). With `false` the memo may be absent;
   * any other memo, or a second one, is refused either way.
   */
  checkMemo?: boolean | undefined;
  /**
   * What the wallet knows of the source mint's Token-2022 extensions (from its own token registry, or the mint
   * account it read). Required when the user's tokens move through Token-2022: a transfer fee changes what the
   * escrow receives and a transfer hook runs another program, and neither shows in the transaction.
   */
  token2022Mint?: Token2022MintFacts | undefined;
}

/**
 * A Token-2022 mint's extensions that change what a transfer does, as the wallet knows them. Each is stated: `null`
 * when the mint has no such extension.
 */
export interface Token2022MintFacts {
  /**
   * The transfer fee in force (the mint's `TransferFeeConfig` for the current epoch), or null. The escrow receives
   * `amount - min(ceil(amount * basisPoints / 10000), maximumFeeLots)` of each transfer, and that is what must equal
   * the quote.
   */
  transferFee: { basisPoints: number; maximumFeeLots: bigint } | null;
  /**
   * The transfer hook (the mint's `TransferHook` program), or null; `extraPrograms` lists the programs its extra
   * account metas name (each one the hook may invoke). Each must be allowed (`allowedPrograms`), and each is listed
   * in the summary's `programs`.
   */
  transferHook: { programAddress: string; extraPrograms?: readonly string[] | undefined } | null;
}

/** What {@link verifyCosignTransaction} found: the facts a wallet can show the user. */
export interface VerifyCosignTransactionReturnType {
  /** The user's address, base58. */
  userAddress: string;
  /** Position of the user's signature slot. */
  userSignerIndex: number;
  /** The fee payer (signer 0), base58. */
  feePayer: string;
  /** The source mint, base58. */
  mint: string;
  /** Tokens the escrow receives, in lots (equal to the quote's `sourceAmountLots`; a transfer fee already taken off). */
  amountLots: bigint;
  /** Tokens a Token-2022 transfer fee withholds on top of `amountLots` (0n without a fee). */
  transferFeeLots: bigint;
  /** The token account receiving them, base58 (with the escrow unchecked, the one destination the transfers name). */
  destination: string;
  /** Lamports that leave the user for anyone but the user's own wrapped SOL account (at most `maxNativeOutflowLamports`). */
  nativeOutflowLamports: bigint;
  /**
   * Lamports the user moves into the user's own wrapped SOL token account to pay the quote in wSOL (at most the
   * amount sent to the escrow; they are that payment, not an extra one).
   */
  wrappedLamports: bigint;
  /** Programs the transaction can invoke, base58, in order of first use (a Token-2022 transfer hook's included). */
  programs: string[];
  /** Memo texts, in order. */
  memos: string[];
  /** The message bytes that signatures cover. */
  messageBytes: Uint8Array;
}

/**
 * The error {@link verifyCosignTransaction} throws: a `SolanaCosignError` of any code except those only a signing
 * path throws (the signer, its answer, the abort of a wait).
 */
export type VerifyCosignTransactionErrorType = SolanaCosignError<
  Exclude<SolanaCosignErrorCode, SolanaCosignSigningErrorCode>
>;

/** Internal: the verification plus the decoded transaction, for the signer. */
export interface VerifiedTransaction extends VerifyCosignTransactionReturnType {
  decoded: DecodedTransaction;
}
