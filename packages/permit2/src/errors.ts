import { type BaseError, isSwapIntentError } from "@swapintent/client";

/**
 * Every code a `BaseError` thrown by `@swapintent/permit2` can carry. Each check has its own code so a
 * wallet can say exactly what differs from what the user was quoted.
 */
export type Permit2ErrorCode =
  /** The intent's approval mechanism is not `permit2`. */
  | "PERMIT2_MECHANISM_MISMATCH"
  /**
   * What the service sent is malformed: `params_to_sign` is structurally broken (missing fields, wrong JSON types),
   * the quote is not an object or has impossible decimals, or the input is not plain data.
   */
  | "PERMIT2_PARAMS_INVALID"
  /**
   * The wallet's own input is wrong or missing (a caller bug, not the service): `expected` (its `spender`,
   * `chainId`, `recipient`, `destination`, …) or an option (`nowMs`, `maxDeadlineSecs`, `allowedPermit2Addresses`).
   */
  | "PERMIT2_EXPECTED_INVALID"
  /** An address is not a valid EVM (checksummed when mixed case) or Tron (base58check, 0x41 prefix) address. */
  | "PERMIT2_ADDRESS_INVALID"
  /** The addresses are not all of the chain family the caller expects (EVM hex vs Tron base58). */
  | "PERMIT2_CHAIN_TYPE_MISMATCH"
  /** `types` has unexpected struct fields, or unknown or extra types. */
  | "PERMIT2_TYPES_INVALID"
  /** The domain has fields other than `name`, `chainId`, `verifyingContract`. */
  | "PERMIT2_DOMAIN_INVALID"
  /** The domain name is not `Permit2`. */
  | "PERMIT2_DOMAIN_NAME_MISMATCH"
  /** The domain chain id is not the wallet's chain. */
  | "PERMIT2_CHAIN_ID_MISMATCH"
  /** `domain.verifyingContract` differs from `permit2_contract_address`. */
  | "PERMIT2_VERIFYING_CONTRACT_MISMATCH"
  /** The Permit2 contract is neither the canonical deployment nor in the caller's allow list. */
  | "PERMIT2_CONTRACT_NOT_ALLOWED"
  /** A witness value cannot be encoded as its declared type. */
  | "PERMIT2_WITNESS_INVALID"
  /** `witness_hash` is not the hash of `witness` under `types`. */
  | "PERMIT2_WITNESS_HASH_MISMATCH"
  /** `witness_type_string` is not what Permit2 needs for `types`. */
  | "PERMIT2_WITNESS_TYPE_STRING_MISMATCH"
  /** The spender differs from the escrow, or is the zero address or the Permit2 contract. */
  | "PERMIT2_SPENDER_MISMATCH"
  /** The permitted token differs from the quote's source token or `expected.sourceToken` (or is the native-token placeholder). */
  | "PERMIT2_TOKEN_MISMATCH"
  /** The permitted amount differs from the quote's source amount, or from `expected.sourceAmountLots`. */
  | "PERMIT2_AMOUNT_MISMATCH"
  /** The quote's source decimals differ from the decimals the wallet knows for the token (`expected.sourceDecimals`). */
  | "PERMIT2_DECIMALS_MISMATCH"
  /** A nonce sent with the message differs from `params_to_sign.nonce`, or the nonce is out of range. */
  | "PERMIT2_NONCE_MISMATCH"
  /** The deadline differs from the intent's `deadline_secs`. */
  | "PERMIT2_DEADLINE_MISMATCH"
  /** The deadline has passed. */
  | "PERMIT2_DEADLINE_PASSED"
  /** The deadline lies further in the future than the caller allows. */
  | "PERMIT2_DEADLINE_TOO_FAR"
  /** The witness minimum destination amount differs from the quote. */
  | "PERMIT2_MIN_AMOUNT_MISMATCH"
  /** The witness maximum destination amount differs from the quote, or lies below the minimum. */
  | "PERMIT2_MAX_AMOUNT_MISMATCH"
  /** The witness recipient differs from the destination address the user entered. */
  | "PERMIT2_RECIPIENT_MISMATCH"
  /** The witness (or `additional_data.secretHash`) secret hash differs from the intent's. */
  | "PERMIT2_SECRET_HASH_MISMATCH"
  /** The witness intent id differs from the intent's id (UUID left-padded to bytes32). */
  | "PERMIT2_INTENT_ID_MISMATCH"
  /** The witness destination chain differs from the quote's, or the quote's from `expected.destination.network`. */
  | "PERMIT2_DEST_CHAIN_MISMATCH"
  /** The witness destination token differs from the quote's, or the quote's from `expected.destination.token`. */
  | "PERMIT2_DEST_TOKEN_MISMATCH"
  /** The quote's destination decimals differ from the decimals the wallet knows (`expected.destination.decimals`). */
  | "PERMIT2_DEST_DECIMALS_MISMATCH"
  /** The signed minimum destination amount is below the least the user accepts (`expected.destination.minAmountLots`). */
  | "PERMIT2_MIN_AMOUNT_TOO_LOW"
  /**
   * A service string that would reach the signed data or the confirmation screen holds a control, bidi,
   * zero-width or other invisible/format character, or is too long to show.
   */
  | "PERMIT2_TEXT_UNSAFE"
  /** The signing account is not the expected owner. */
  | "PERMIT2_OWNER_MISMATCH"
  /** The wallet returned a malformed signature, or one that does not recover to the owner. */
  | "PERMIT2_SIGNATURE_INVALID"
  /** The wallet or signer refused or failed to sign. */
  | "PERMIT2_SIGNING_FAILED"
  /** The ERC-20 allowance to Permit2 is below the amount to transfer. */
  | "PERMIT2_ALLOWANCE_INSUFFICIENT"
  /** The ERC-20 allowance could not be read from the chain. */
  | "PERMIT2_ALLOWANCE_READ_FAILED"
  /** A Tron address failed base58check decoding (alphabet, length, checksum or 0x41 prefix). */
  | "PERMIT2_TRON_ADDRESS_INVALID"
  /** tronweb could not be loaded (it is an optional peer dependency). */
  | "PERMIT2_TRONWEB_UNAVAILABLE";

/** The error every function of `@swapintent/permit2` throws: a swapintent `BaseError` with a permit2 code. */
export type Permit2Error<TCode extends Permit2ErrorCode = Permit2ErrorCode> = BaseError<TCode>;

/**
 * True when `error` is a `@swapintent/permit2` error, optionally with the given code; narrows `error.code` to it.
 * An error of another package (a client or bitcoin code) is not a permit2 error.
 *
 * @example
 * ```ts
 * import { isPermit2Error } from "@swapintent/permit2";
 *
 * try {
 *   await signPermit2Approval(parameters);
 * } catch (error) {
 *   if (isPermit2Error(error, "PERMIT2_SPENDER_MISMATCH")) warnUser(error.details.actual);
 *   else if (isPermit2Error(error)) showRefusal(error.code);
 *   else throw error;
 * }
 * ```
 */
export function isPermit2Error<TCode extends Permit2ErrorCode = Permit2ErrorCode>(
  error: unknown,
  code?: TCode,
): error is BaseError<TCode> {
  if (!isSwapIntentError(error)) return false;
  // Every code of the package, and no other package's, starts with `PERMIT2_` (a test holds the union to it).
  return code === undefined ? error.code.startsWith("PERMIT2_") : error.code === code;
}
