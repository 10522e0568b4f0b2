import { BaseError } from "@swapintent/client";
/**
 * Every failure code of `@swapintent/solana`. Each is raised as a `BaseError` from `@swapintent/client`
 * whose `code` is one of these strings.
 */
export type SolanaErrorCode =
  /** A parameter of the caller is missing or malformed (amount not positive, bad option, an ambiguous escrow). */
  | "SOL_INVALID_PARAMETERS"
  /** The intent's approval mechanism is not `cosign` (a Permit2 or HTLC intent given to the Solana signer). */
  | "SOL_MECHANISM_MISMATCH"
  /** An address (user, escrow, mint, program) is not a base58 32-byte public key. */
  | "SOL_INVALID_ADDRESS"
  /** No expected escrow was given and the caller did not opt out explicitly. */
  | "SOL_ESCROW_NOT_SPECIFIED"
  /** The hex is not a well-formed serialized transaction. */
  | "SOL_TX_DECODE_FAILED"
  /** The transaction is neither legacy nor v0. */
  | "SOL_TX_VERSION_UNSUPPORTED"
  /** The user's key is not among the transaction's required signers. */
  | "SOL_USER_NOT_SIGNER"
  /** The user would pay the transaction fee (signer 0). */
  | "SOL_USER_IS_FEE_PAYER"
  /** An address lookup table is used and its contents were not supplied (or an index is out of range). */
  | "SOL_LOOKUP_TABLE_UNRESOLVED"
  /** The transaction advances a durable nonce (`AdvanceNonceAccount`): it would never expire. */
  | "SOL_DURABLE_NONCE"
  /** An instruction calls a program outside the allowed set. */
  | "SOL_PROGRAM_NOT_ALLOWED"
  /** An instruction of an allowed program touches the user and the verifier cannot decode it. */
  | "SOL_INSTRUCTION_UNKNOWN"
  /** An instruction approves a delegate, sets an authority, closes an account or reassigns an account of the user, or uses the user's mint or freeze authority (MintTo, Freeze, Thaw). */
  | "SOL_AUTHORITY_GRANT"
  /**
   * An instruction names the user in a role the user did not agree to: the seed base of a resolver-funded
   * `CreateAccountWithSeed`, a nonce account or authority, an account to allocate or initialize, a delegate, a
   * token account or mint, any slot of an associated-account create except payer and owner, or the user's key
   * inside instruction data (a base, a new owner or authority).
   */
  | "SOL_USER_ROLE_NOT_ALLOWED"
  /**
   * An instruction the user does not authorize (its key in no authority slot) acts on a token account of the user: a
   * transfer or burn by a delegate or permanent delegate, a close, freeze, thaw, approve, revoke or authority change
   * by another authority.
   */
  | "SOL_OTHER_AUTHORITY"
  /** A token transfer the user authorizes moves a mint other than the quote's source mint. */
  | "SOL_MINT_MISMATCH"
  /** A user transfer's decimals (checked on chain against the mint) differ from the quote's `sourceAmountDecimals`, or a plain `Transfer` states none. */
  | "SOL_DECIMALS_MISMATCH"
  /** The user's tokens go to an account that is not the expected escrow account. */
  | "SOL_DESTINATION_NOT_ALLOWED"
  /** Besides the escrow transfer, tokens leave the user (a second transfer or a burn). */
  | "SOL_EXTRA_OUTFLOW"
  /** The amount sent to the escrow differs from `source_amount_lots`. */
  | "SOL_AMOUNT_MISMATCH"
  /** More lamports leave the user than the configured cap allows. */
  | "SOL_NATIVE_OUTFLOW_TOO_HIGH"
  /** The memo `swapintent:<intent_id>:<secret_hash>` is missing or names another intent. */
  | "SOL_MEMO_MISMATCH"
  /** A memo is not valid UTF-8 (the memo program would reject it; what it says cannot be shown). */
  | "SOL_MEMO_NOT_UTF8"
  /** A memo contains a control, bidi, zero-width or byte-order-mark character: what is shown could differ from what is recorded. */
  | "SOL_MEMO_UNSAFE_TEXT"
  /** The signer is unusable (no public key, or a key other than the expected user). */
  | "SOL_SIGNER_INVALID"
  /** A wallet returned a transaction whose message bytes differ from what was verified. */
  | "SOL_WALLET_MESSAGE_CHANGED"
  /** A signature returned by a wallet or an external signer does not verify over the message. */
  | "SOL_SIGNATURE_INVALID";

/** A failure of `@swapintent/solana`: a `BaseError` whose `code` is one of {@link SolanaErrorCode}. */
export type SolanaError<TCode extends SolanaErrorCode = SolanaErrorCode> = BaseError<TCode>;

/**
 * Internal: the `BaseError` constructor with its code parameter narrowed to {@link SolanaErrorCode}, so the compiler
 * refuses a code that is not in the union. At run time it is `BaseError` itself.
 */
export const SolanaError: new (
  code: SolanaErrorCode,
  shortMessage: string,
  options?: { details?: Record<string, unknown>; cause?: unknown },
) => BaseError<SolanaErrorCode> = BaseError;
