import { type CodedError, SwapIntentError } from "@swapintent/client";

/**
 * Every failure code of `@swapintent/solana`, each with the facts its `details` carry. Details hold facts (field
 * names, expected and actual values, instruction and account indexes), never a key, seed or signature secret; text
 * that came from the service is escaped (no control, bidi or zero-width character) and bounded.
 */
export interface SolanaCosignErrorDetails {
  /** A parameter of the caller is missing or malformed (amount not positive, bad option, an ambiguous escrow). */
  SOL_INVALID_PARAMETERS: {
    /** The parameter at fault, e.g. `maxNativeOutflowLamports` or `quote.sourceAmountLots`. */
    parameter: string;
  };
  /** The intent's approval mechanism is not `cosign` (a Permit2 or HTLC intent given to the Solana signer). */
  SOL_MECHANISM_MISMATCH: {
    /** The intent's mechanism, escaped. */
    approvalMechanism: string;
  };
  /** An address (user, escrow, mint, program) is not a base58 32-byte public key. */
  SOL_INVALID_ADDRESS: {
    /** Which address, e.g. `userAddress`, `sourceToken`, `escrow.owner`. */
    parameter: string;
    /**
     * Only the `typeof` of the value given (`"string"`, `"object"`…), never the value: what was put where an address
     * belongs may be a seed or secret key.
     */
    value: string;
  };
  /** No expected escrow was given and the caller did not opt out explicitly. */
  SOL_ESCROW_NOT_SPECIFIED: Record<string, never>;
  /** The hex is not a well-formed serialized transaction. */
  SOL_TX_DECODE_FAILED: {
    /** What is wrong, in a few words (e.g. `not hex`, `not canonical`, `account listed twice`). */
    reason: string;
    /** Length of the decoded bytes, when they decoded. */
    bytes?: number;
    /** Signature slots the bytes carry, when read. */
    signatures?: number;
    /** Signatures the message header requires, when read. */
    requiredSignatures?: number;
    /** Accounts the transaction loads, when counted. */
    accounts?: number;
    /** The instruction at fault, when one is. */
    instruction?: number;
    /** The account index at fault, when one is. */
    accountIndex?: number;
  };
  /** The transaction is neither legacy nor v0. */
  SOL_TX_VERSION_UNSUPPORTED: {
    /** The message version the bytes state. */
    version: number;
  };
  /** The user's key is not among the transaction's required signers. */
  SOL_USER_NOT_SIGNER: { userAddress: string; requiredSignatures: number };
  /** The user would pay the transaction fee (signer 0). */
  SOL_USER_IS_FEE_PAYER: { userAddress: string };
  /** An address lookup table is used and its contents were not supplied (or an index is out of range). */
  SOL_LOOKUP_TABLE_UNRESOLVED: {
    /** The table's address. */
    table: string;
    /** The index the transaction reads from it. */
    index: number;
  };
  /** The transaction advances a durable nonce (`AdvanceNonceAccount`): it would never expire. */
  SOL_DURABLE_NONCE: { instruction: number };
  /** An instruction calls a program outside the allowed set. */
  SOL_PROGRAM_NOT_ALLOWED: {
    /** The program, base58. */
    program: string;
    instruction: number;
    /** The program that would invoke it, when it is reached through another instruction's accounts. */
    via?: string;
  };
  /** An instruction of an allowed program touches the user and the verifier cannot decode it. */
  SOL_INSTRUCTION_UNKNOWN: { instruction: number; reason: string };
  /** An instruction approves a delegate, sets an authority, closes an account or reassigns an account of the user, or uses the user's mint or freeze authority (MintTo, Freeze, Thaw). */
  SOL_AUTHORITY_GRANT: {
    instruction: number;
    /** The instruction's name, e.g. `Approve`, `SetAuthority`, `Assign`. */
    kind: string;
  };
  /**
   * An instruction names the user in a role the user did not agree to: the seed base of a resolver-funded
   * `CreateAccountWithSeed`, a nonce account or authority, an account to allocate or initialize, a delegate, a
   * token account or mint, any slot of an associated-account create except payer and owner, or the user's key
   * inside instruction data (a base, a new owner or authority).
   */
  SOL_USER_ROLE_NOT_ALLOWED: { instruction: number; kind: string; role: string };
  /**
   * An instruction the user does not authorize (its key in no authority slot) acts on a token account of the user: a
   * transfer or burn by a delegate or permanent delegate, a close, freeze, thaw, approve, revoke or authority change
   * by another authority.
   */
  SOL_OTHER_AUTHORITY: {
    instruction: number;
    /** The user's token account acted on. */
    account: string;
    /** The token instruction's tag. */
    tokenInstruction: number;
  };
  /** A token transfer the user authorizes moves a mint other than the quote's source mint. */
  SOL_MINT_MISMATCH: {
    instruction: number;
    expected: string;
    /** The transfer's mint; null for a plain `Transfer`, which names none. */
    actual: string | null;
  };
  /** A user transfer's decimals (checked on chain against the mint) differ from the quote's `sourceAmountDecimals`, or a plain `Transfer` states none. */
  SOL_DECIMALS_MISMATCH: {
    instruction: number;
    expected: number;
    /** The transfer's decimals; null for a plain `Transfer`. */
    actual: number | null;
  };
  /** The user's tokens go to an account that is not the expected escrow account. */
  SOL_DESTINATION_NOT_ALLOWED: {
    instruction: number;
    destination: string;
    amount: bigint;
    /** The escrow owner the destination was checked against, when one was given. */
    escrowOwner?: string;
  };
  /** Besides the escrow transfer, tokens leave the user (a second transfer or a burn). */
  SOL_EXTRA_OUTFLOW: {
    instruction: number;
    amount: bigint;
    /** Where a second transfer goes. */
    destination?: string;
    /** The mint a burn destroys. */
    mint?: string;
    escrowOwner?: string;
  };
  /**
   * The user's tokens move through Token-2022 and the wallet did not state the mint's extensions
   * (`token2022Mint`): a transfer fee would change what the escrow receives, a transfer hook would run another
   * program, and neither shows in the transaction.
   */
  SOL_MINT_EXTENSIONS_UNKNOWN: {
    instruction: number;
    /** The token program of the transfer. */
    program: string;
  };
  /** The amount the escrow receives (a transfer fee taken off; SOL wrapped into its account added) differs from `source_amount_lots`. */
  SOL_AMOUNT_MISMATCH: { expected: bigint; actual: bigint };
  /** More lamports leave the user than the configured cap allows. */
  SOL_NATIVE_OUTFLOW_TOO_HIGH: { lamports: bigint; cap: bigint };
  /**
   * The memo `swapintent:<intent_id>:<secret_hash>` is missing or names another intent, or the transaction carries
   * any other memo or a second one, or hands a memo program to another program (which could write one unseen).
   */
  SOL_MEMO_MISMATCH: {
    /** The memo expected, escaped. */
    expected: string;
    /** The memos the transaction carries (each already refused if unsafe to show). */
    memos: readonly string[];
    /** The instruction handed a memo program (it could write a memo the verifier never reads). */
    instruction?: number;
    /** The memo program it is handed. */
    program?: string;
    /** The program of that instruction. */
    via?: string;
  };
  /** A memo is not valid UTF-8 (the memo program would reject it; what it says cannot be shown). */
  SOL_MEMO_NOT_UTF8: { bytes: number };
  /** A memo contains a control, bidi, zero-width or byte-order-mark character: what is shown could differ from what is recorded. */
  SOL_MEMO_UNSAFE_TEXT: {
    /** The first such character, as `U+XXXX`. */
    character: string;
  };
  /** The signer is unusable: no usable public key or address, not a signer of any kind this package takes, a wallet without `solana:signTransaction`, an account whose public key is not its address or that lacks the chain asked for, a wallet that does not sign the transaction's version, a `Keypair` whose secret key does not derive its public key. */
  SOL_SIGNER_INVALID: {
    /** What is wrong with it, in a few words. */
    reason: string;
    /** The address a wallet account or Kit signer names, when it has one. */
    address?: string;
  };
  /** A wallet returned a transaction whose message bytes differ from what was verified. */
  SOL_WALLET_MESSAGE_CHANGED: {
    /** Who returned it: `wallet`, `wallet-standard`. */
    source: string;
  };
  /** A wallet returned a transaction in which a signature slot other than the user's changed (another signer's signature replaced, added or erased). */
  SOL_WALLET_SIGNATURES_CHANGED: {
    source: string;
    /** The signature slots that differ from what was sent. */
    slots: number[];
  };
  /** A wallet's or signer's answer is not what its API documents: not exactly one result per request, not bytes, or bytes that are not a transaction. */
  SOL_WALLET_RESPONSE_INVALID: {
    source: string;
    /** What is wrong with the answer, in a few words. */
    reason: string;
  };
  /**
   * The caller's `signal` aborted (its `reason` is the `cause`; a signal whose `aborted` getter throws counts as
   * aborted, the thrown value the `cause`). No approval is returned after an abort; a late wallet answer is ignored.
   */
  SOL_SIGNING_ABORTED: {
    /** `beforeSigning`: before any wallet or key was touched (also a signal that cannot be listened to, or aborts while it is); `whileSigning`: while the wallet or signer was asked, or its answer checked. */
    stage: "beforeSigning" | "whileSigning";
  };
  /**
   * The wallet or signer refused or failed to sign (the user's "reject", a locked or crashed wallet): whatever it
   * threw or rejected with is the `cause`, kept as it is, even an error of this package's own shape.
   */
  SOL_SIGNING_FAILED: {
    /** Who was asked: `wallet`, `external signer`, `kit signer`, `wallet-standard wallet`. */
    source: string;
  };
  /** A signature returned by a wallet or an external signer is missing or does not verify over the message. */
  SOL_SIGNATURE_INVALID: {
    /** Who returned it: `wallet`, `external signer`, `kit signer`, `wallet-standard`. */
    source: string;
    userAddress: string;
  };
}

/** Every failure code of `@swapintent/solana` (the keys of {@link SolanaCosignErrorDetails}). */
export type SolanaCosignErrorCode = keyof SolanaCosignErrorDetails;

/**
 * A failure of `@swapintent/solana`: a `SwapIntentError` from `@swapintent/client` whose `code` is one of
 * {@link SolanaCosignErrorCode}, a union with one member per code, so narrowing `code` narrows `details`.
 */
export type SolanaCosignError<C extends SolanaCosignErrorCode = SolanaCosignErrorCode> = CodedError<
  SolanaCosignErrorDetails,
  C
>;

/** The codes only a signing path throws (about the signer, its answer, the wait); verification throws none. */
export type SolanaCosignSigningErrorCode =
  | "SOL_SIGNER_INVALID"
  | "SOL_WALLET_MESSAGE_CHANGED"
  | "SOL_WALLET_SIGNATURES_CHANGED"
  | "SOL_WALLET_RESPONSE_INVALID"
  | "SOL_SIGNATURE_INVALID"
  | "SOL_SIGNING_ABORTED"
  | "SOL_SIGNING_FAILED";

/** @deprecated Use {@link SolanaCosignError} (`SolanaError` is also `@solana/kit`'s error class). Kept for one minor release. */
export type SolanaError<C extends SolanaCosignErrorCode = SolanaCosignErrorCode> = SolanaCosignError<C>;
/** @deprecated Use {@link SolanaCosignErrorCode} (`SolanaErrorCode` is also `@solana/kit`'s). Kept for one minor release. */
export type SolanaErrorCode = SolanaCosignErrorCode;
/** @deprecated Use {@link SolanaCosignErrorDetails}. Kept for one minor release. */
export type SolanaErrorDetails = SolanaCosignErrorDetails;

/** Every code, once, at run time: the exact list {@link isSolanaCosignError} checks (the compiler keeps it equal to the union). */
export const SOLANA_COSIGN_ERROR_CODES: Readonly<Record<SolanaCosignErrorCode, true>> = {
  SOL_INVALID_PARAMETERS: true,
  SOL_MECHANISM_MISMATCH: true,
  SOL_INVALID_ADDRESS: true,
  SOL_ESCROW_NOT_SPECIFIED: true,
  SOL_TX_DECODE_FAILED: true,
  SOL_TX_VERSION_UNSUPPORTED: true,
  SOL_USER_NOT_SIGNER: true,
  SOL_USER_IS_FEE_PAYER: true,
  SOL_LOOKUP_TABLE_UNRESOLVED: true,
  SOL_DURABLE_NONCE: true,
  SOL_PROGRAM_NOT_ALLOWED: true,
  SOL_INSTRUCTION_UNKNOWN: true,
  SOL_AUTHORITY_GRANT: true,
  SOL_USER_ROLE_NOT_ALLOWED: true,
  SOL_OTHER_AUTHORITY: true,
  SOL_MINT_MISMATCH: true,
  SOL_DECIMALS_MISMATCH: true,
  SOL_DESTINATION_NOT_ALLOWED: true,
  SOL_EXTRA_OUTFLOW: true,
  SOL_MINT_EXTENSIONS_UNKNOWN: true,
  SOL_AMOUNT_MISMATCH: true,
  SOL_NATIVE_OUTFLOW_TOO_HIGH: true,
  SOL_MEMO_MISMATCH: true,
  SOL_MEMO_NOT_UTF8: true,
  SOL_MEMO_UNSAFE_TEXT: true,
  SOL_SIGNER_INVALID: true,
  SOL_WALLET_MESSAGE_CHANGED: true,
  SOL_WALLET_SIGNATURES_CHANGED: true,
  SOL_WALLET_RESPONSE_INVALID: true,
  SOL_SIGNATURE_INVALID: true,
  SOL_SIGNING_ABORTED: true,
  SOL_SIGNING_FAILED: true,
};

/**
 * Internal: every error this copy of the package made by {@link solanaError}. `isSolanaCosignError` accepts another
 * copy's errors by their shape, so a wallet could throw any `SOL_*` code; it cannot throw one of these.
 */
export const ownErrors = new WeakSet<object>();

/**
 * Internal: the one way this package makes an error. The compiler checks `details` against the code's entry in
 * {@link SolanaCosignErrorDetails}.
 */
export function solanaError<C extends SolanaCosignErrorCode>(
  code: C,
  shortMessage: string,
  details: SolanaCosignErrorDetails[C],
  cause?: unknown,
): SolanaCosignError<C> {
  const error = new SwapIntentError(code, shortMessage, {
    details,
    ...(cause === undefined ? {} : { cause }),
  });
  ownErrors.add(error);
  return error as SolanaCosignError<C>;
}
