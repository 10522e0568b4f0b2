import type { Intent, Quote } from "@swapintent/client";
import type { SolanaCosignError, SolanaCosignErrorCode, SolanaCosignSigningErrorCode } from "./errors.js";
import type { AddressLike } from "./internal/address.js";
import {
  checkMemos,
  checkNativeOutflow,
  checkOtherAuthority,
  checkTokenOutflow,
} from "./internal/checkTally.js";
import { type DecodedTransaction, decodeTransaction } from "./internal/decodeTransaction.js";
import { readVerifyParameters } from "./internal/readVerifyParameters.js";
import { accountKeysOf, tallyInstructions, userSignerIndexOf } from "./internal/resolveInstructions.js";

/**
 * Where the user's tokens must go. Give the escrow's owner (the sandbox lists it as `escrow_owner` in
 * `GET /sandbox/chains`; the destination must then be its associated token account for the source mint), or the
 * exact escrow token account. `{ unchecked: true }` is an explicit opt-out: any destination is accepted, and every
 * token transfer the user authorizes counts toward the amount.
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
  /** The token account receiving them, base58 (the first one when the escrow is unchecked). */
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

/**
 * Verify a `cosign` transaction before anyone signs it, and describe it. Refuses, each with its own `SwapIntentError`
 * code: an intent of another approval mechanism; bytes that are not the one canonical serialization; the user not a
 * required signer or the fee payer; an
 * unresolved lookup table; a program outside the allowed set, called directly or through an instruction's accounts;
 * a durable nonce (`AdvanceNonceAccount`); an instruction touching the user that cannot be decoded; the user in a
 * role it did not agree to (a seed base, a nonce authority, a token account, its key inside instruction data); any
 * delegate approval or revoke, authority change, close or reassignment of the user's accounts; another authority
 * (a delegate, a permanent delegate, a close or freeze authority) acting on the user's token account; tokens of
 * another mint, to another destination, or more than one outflow; decimals other than the quote's (when given); an
 * amount received by the escrow other than `sourceAmountLots` (lamports wrapped into the escrow's wSOL account
 * count); a Token-2022 transfer whose mint's extensions the wallet did not state, or whose hook program is not
 * allowed; lamports leaving the user beyond the cap (wrapping into the user's own wSOL account, up to the amount
 * paid, is the payment itself); a missing or foreign memo (compared byte for byte), any memo besides the intent's
 * one, a memo that is not UTF-8 or holds a control, bidi or zero-width character; an `escrow` naming more than one
 * of `owner`, `tokenAccount`, `unchecked: true`; a parameter of the wrong shape, or whose reading throws
 * (`SOL_INVALID_PARAMETERS`: no other throw escapes).
 *
 * @example
 * ```ts
 * import { verifyCosignTransaction } from "@swapintent/solana";
 *
 * const shown = verifyCosignTransaction({
 *   intent, // from client.createIntent, approvalMechanism "cosign"
 *   quote, // the quote the user accepted
 *   userAddress, // the user's address: base58 text or a PublicKey (a wallet adapter's, once connected: not null)
 *   escrow: { owner: escrowOwner }, // from the wallet's own chain facts
 * });
 * console.log(`${shown.amountLots} lots of ${shown.mint} to ${shown.destination}`);
 * ```
 */
export function verifyCosignTransaction(
  parameters: VerifyCosignTransactionParameters,
): VerifyCosignTransactionReturnType {
  const { decoded: _decoded, ...verification } = verifyAndDecode(parameters);
  return verification;
}

/** Internal: {@link verifyCosignTransaction} also returning the decoded transaction. */
export function verifyAndDecode(parameters: VerifyCosignTransactionParameters): VerifiedTransaction {
  const checked = readVerifyParameters(parameters);
  const decoded = decodeTransaction(checked.transaction);
  const staticKeys = decoded.staticAccountKeys;
  const userSignerIndex = userSignerIndexOf(staticKeys, checked.user, decoded.header.numRequiredSignatures);
  const keys = accountKeysOf(staticKeys, decoded.addressTableLookups, checked.tables);
  const tally = tallyInstructions(keys, decoded.instructions, checked);
  checkOtherAuthority(tally, checked.user, checked.expectedMint);
  checkTokenOutflow(tally, checked.expectedAmount, checked.escrow);
  const native = checkNativeOutflow(tally, checked);
  checkMemos(checked, tally.memos);
  return {
    userAddress: checked.user,
    userSignerIndex,
    feePayer: staticKeys[0]!,
    mint: checked.expectedMint,
    amountLots: tally.toEscrow,
    transferFeeLots: tally.transferFee,
    destination: tally.destination!,
    nativeOutflowLamports: native.outflow,
    wrappedLamports: native.wrapped,
    programs: tally.programs,
    memos: tally.memos,
    messageBytes: decoded.messageBytes,
    decoded,
  };
}
