import type { CodedError, HexString } from "@swapintent/client";
import { hasErrorCode } from "@swapintent/client/internal";

/**
 * An unsigned transaction request for `token.approve(permit2, approveAmount)`, ready for `sendTransaction`.
 * (`HexString` is `` `0x${string}` ``, the same type as viem's `Address`; declared here so no viem type is needed.)
 */
export interface Permit2ApproveTransaction {
  to: HexString;
  data: HexString;
  value: 0n;
}

/**
 * Why a signature a wallet returned is refused (`details.reason` of `PERMIT2_SIGNATURE_INVALID`): not a string,
 * not 65 bytes of hex, a `v` other than 0/1/27/28, `r` or `s` out of range, a high `s` from a wallet (EIP-2), or
 * no address recovers from it.
 */
export type Permit2SignatureProblem = "not-a-string" | "length" | "v" | "range" | "high-s" | "unrecoverable";

/**
 * Why a contract owner's signature is refused (`details.reason` of `PERMIT2_CONTRACT_SIGNATURE_INVALID`): its
 * ERC-1271 `isValidSignature` does not return the magic value for the permit's digest (`rejected`), it also
 * returns it for an unrelated hash, so the signature does not commit to this permit (`accepts-any-hash`), the
 * owner was said to be a contract but has no code and no ERC-6492 deployment (`no-code`), or the signature is not
 * bounded, even-length hex (`malformed`).
 */
export type Permit2ContractSignatureProblem = "rejected" | "accepts-any-hash" | "no-code" | "malformed";

/**
 * Every code a `@swapintent/permit2` error can carry, with the facts its `details` hold. Each check has its own code
 * so a wallet can say exactly what differs from what the user was quoted. Values the service sent are kept as sent
 * (typed `unknown`, with control, bidi and invisible characters escaped); nothing here ever holds a key.
 */
export interface Permit2ErrorDetails {
  /** The intent's approval mechanism is not `permit2`. */
  PERMIT2_MECHANISM_MISMATCH: { approvalMechanism: unknown };
  /**
   * What the service sent is malformed: `params_to_sign` is structurally broken (missing fields, wrong JSON types),
   * the quote is not an object or has impossible decimals, or the input is not plain data. `field` names the part.
   */
  PERMIT2_PARAMS_INVALID: { field: string; value?: unknown };
  /**
   * The wallet's own input is wrong or missing (a caller bug, not the service): `expected` (its `spender`,
   * `chainId`, `recipient`, `destination`, …) or an option (`nowMs`, `maxDeadlineSecs`, `allowedPermit2Addresses`).
   * `field` names the parameter; the value given is never repeated (it may be a key pasted into the wrong field).
   */
  PERMIT2_EXPECTED_INVALID: { field: string };
  /** An address is not a valid EVM (checksummed when mixed case) or Tron (base58check, 0x41 prefix) address. */
  PERMIT2_ADDRESS_INVALID: { field: string; value: unknown };
  /** The addresses are not all of the chain family the caller expects (EVM hex vs Tron base58). */
  PERMIT2_CHAIN_TYPE_MISMATCH: { expected: "evm" | "tron"; actual: "evm" | "tron" };
  /** `types` has unexpected struct fields, or unknown or extra types (`name`: the type at fault). */
  PERMIT2_TYPES_INVALID: { name?: string; fields?: unknown; extraTypes?: string[]; encodeType?: string };
  /** The domain has fields other than `name`, `chainId`, `verifyingContract`, or an invalid chain id. */
  PERMIT2_DOMAIN_INVALID: { keys?: string[]; chainId?: unknown };
  /** The domain name is not `Permit2`. */
  PERMIT2_DOMAIN_NAME_MISMATCH: { expected: "Permit2"; actual: unknown };
  /**
   * The domain chain id is not the wallet's chain (`expected`: the wallet's, from `expected.chainId` or the wallet
   * client's or provider's chain; `actual`: the chain id signed for).
   */
  PERMIT2_CHAIN_ID_MISMATCH: { expected: unknown; actual: unknown };
  /** `domain.verifyingContract` differs from `permit2_contract_address`. */
  PERMIT2_VERIFYING_CONTRACT_MISMATCH: { verifyingContract: unknown; permit2ContractAddress: unknown };
  /**
   * The permit verified now is not the one the user confirmed: its digest differs from `expected.digest` (`expected`
   * as the wallet passed it, `actual` the digest of the permit it was about to sign).
   */
  PERMIT2_DIGEST_MISMATCH: { expected: string; actual: string };
  /** The Permit2 contract is neither the canonical deployment (EVM only) nor in the caller's allow list. */
  PERMIT2_CONTRACT_NOT_ALLOWED: { permit2ContractAddress: unknown };
  /** A witness value cannot be encoded as its declared type (`field`: `witness.<name>`), or holds undeclared keys. */
  PERMIT2_WITNESS_INVALID: { field?: string; value?: unknown; extraKeys?: string[] };
  /** `witness_hash` is not the hash of `witness` under `types` (`expected`: the recomputed hash). */
  PERMIT2_WITNESS_HASH_MISMATCH: { expected: string; actual: unknown };
  /** `witness_type_string` is not what Permit2 needs for `types` (`expected`: the string built from `types`). */
  PERMIT2_WITNESS_TYPE_STRING_MISMATCH: { expected: string; actual: unknown };
  /** The spender differs from the escrow the wallet expects (`expected`), or is the zero address or the Permit2 contract. */
  PERMIT2_SPENDER_MISMATCH: { expected?: string; actual: unknown };
  /** The permitted token differs from the quote's source token or `expected.sourceToken` (or is the native-token placeholder). */
  PERMIT2_TOKEN_MISMATCH: { expected?: string; actual: unknown };
  /** The permitted amount differs from the quote's source amount, or from `expected.sourceAmountLots`, or is no uint256. */
  PERMIT2_AMOUNT_MISMATCH: { expected?: bigint; actual: unknown };
  /** The quote's source decimals differ from the decimals the wallet knows for the token (`expected.sourceDecimals`). */
  PERMIT2_DECIMALS_MISMATCH: { expected: number; actual: unknown };
  /** A nonce sent with the message differs from `params_to_sign.nonce`, or the nonce is out of range. */
  PERMIT2_NONCE_MISMATCH: { expected?: bigint; actual: unknown };
  /** The deadline differs from the intent's `deadline_secs`, or is no positive integer. */
  PERMIT2_DEADLINE_MISMATCH: { expected?: bigint; actual: unknown };
  /** The deadline has passed. */
  PERMIT2_DEADLINE_PASSED: { deadlineSecs: number; nowMs: number };
  /** The deadline lies further in the future than the caller allows, or past the last instant a `Date` holds. */
  PERMIT2_DEADLINE_TOO_FAR: { deadlineSecs: number; nowMs: number; maxDeadlineSecs: number };
  /** The witness minimum destination amount differs from the quote. */
  PERMIT2_MIN_AMOUNT_MISMATCH: { expected: unknown; actual: unknown };
  /**
   * The witness maximum destination amount differs from the quote (`expected`), or lies below the minimum (`min`).
   */
  PERMIT2_MAX_AMOUNT_MISMATCH: { expected?: unknown; min?: unknown; actual: unknown };
  /** The witness recipient differs from the destination address the user entered. */
  PERMIT2_RECIPIENT_MISMATCH: { expected: string; actual: unknown };
  /** The witness (or `additional_data.secretHash`, then `field` says so) secret hash differs from the intent's. */
  PERMIT2_SECRET_HASH_MISMATCH: { expected: unknown; actual: unknown; field?: string };
  /** The witness intent id differs from the intent's id (UUID left-padded to bytes32). */
  PERMIT2_INTENT_ID_MISMATCH: { expected: unknown; actual: unknown };
  /** The witness destination chain differs from the quote's, or the quote's from `expected.destination.network`. */
  PERMIT2_DEST_CHAIN_MISMATCH: { expected: unknown; actual: unknown };
  /** The witness destination token differs from the quote's, or the quote's from `expected.destination.token`. */
  PERMIT2_DEST_TOKEN_MISMATCH: { expected: unknown; actual: unknown };
  /**
   * `additional_data.message` (sent beside the typed data, never signed) is not the message that is signed: a
   * member the permit does not declare, or a witness field that differs from the verified witness (`field` names
   * it; `actual`: what was sent, or the undeclared member names).
   */
  PERMIT2_MESSAGE_MISMATCH: { field: string; expected?: unknown; actual: unknown };
  /** The quote's destination decimals differ from the decimals the wallet knows (`expected.destination.decimals`). */
  PERMIT2_DEST_DECIMALS_MISMATCH: { expected: number; actual: unknown };
  /** The signed minimum destination amount is below the least the user accepts (`expected.destination.minAmountLots`). */
  PERMIT2_MIN_AMOUNT_TOO_LOW: { expected: bigint; actual: unknown };
  /**
   * A service string that would reach the signed data or the confirmation screen holds a control, bidi,
   * zero-width or other invisible/format character, or is too long to show (`value`: escaped, cut to the limit).
   */
  PERMIT2_TEXT_UNSAFE: { field: string; value: string };
  /**
   * The signing account (`actual`) is not the expected owner (`expected`), or has no valid address (`actualType`:
   * only the `typeof` of what was given, never the value, which may be a key put where an address belongs).
   */
  PERMIT2_OWNER_MISMATCH: { expected: string; actual: unknown } | { actualType: string };
  /** The wallet returned a malformed signature: `reason` says how (see {@link Permit2SignatureProblem}). */
  PERMIT2_SIGNATURE_INVALID: { reason: Permit2SignatureProblem; length?: number | null; v?: number };
  /**
   * The signature is well formed but recovers to another address than the owner (`expected`, 20-byte hex; for Tron
   * the owner's hex form): the wallet signed with another account, or signed other data.
   */
  PERMIT2_SIGNER_MISMATCH: { expected: string; recovered: string };
  /**
   * The owner is a contract (a smart account) and the signature is not one Permit2 will accept from it, checked
   * against the chain before submission: `reason` says why (see {@link Permit2ContractSignatureProblem}).
   */
  PERMIT2_CONTRACT_SIGNATURE_INVALID: {
    owner: string;
    reason: Permit2ContractSignatureProblem;
    length?: number;
  };
  /**
   * An ERC-6492 signature's factory call does not deploy the owner's address (it fails, or deploys something
   * else): Permit2 would ask a contract that does not exist.
   */
  PERMIT2_CONTRACT_DEPLOYMENT_MISMATCH: { owner: string; factory: string; factorySucceeded: boolean };
  /** The chain could not be asked about the contract owner's signature (the read's error is the `cause`). */
  PERMIT2_CONTRACT_CHECK_FAILED: { owner: string; method: "eth_chainId" | "eth_getCode" | "eth_call" };
  /** The wallet or signer refused or failed to sign (its error is the `cause`); `step` says which request failed. */
  PERMIT2_SIGNING_FAILED: { step: "accounts" | "chainId" | "sign" | "privateKey" };
  /**
   * The caller's `signal` aborted (its `reason` is the `cause`; a signal whose `aborted` getter throws counts as
   * aborted, the thrown value the `cause`). `stage` `beforeSigning` (no `step`): before any wallet or key was asked
   * anything, also when the signal cannot be listened to or aborts while it is listened to; `whileSigning`: while the wallet was asked `step` (a wallet that never answers; on Tron with a private key,
   * `accounts` also covers importing tronweb), or after it answered and before the approval was returned. No approval is returned after an abort; a late wallet answer is ignored.
   */
  PERMIT2_SIGNING_ABORTED: {
    stage: "beforeSigning" | "whileSigning";
    step?: "accounts" | "chainId" | "sign";
  };
  /**
   * An EIP-1193 provider answered `eth_chainId` with something other than a hex quantity, or `eth_accounts` with no
   * account (`method`; `value`: what it returned).
   */
  PERMIT2_WALLET_RESPONSE_INVALID: { method: "eth_accounts" | "eth_chainId"; value: unknown };
  /** The ERC-20 allowance to Permit2 is below the amount to transfer (`approveTransaction`: the fix to send first). */
  PERMIT2_ALLOWANCE_INSUFFICIENT: {
    allowance: bigint;
    required: bigint;
    approveTransaction: Permit2ApproveTransaction;
  };
  /** The ERC-20 allowance could not be read from the chain (the read's error is the `cause`). */
  PERMIT2_ALLOWANCE_READ_FAILED: { token: string; owner: string; permit2Address: string };
  /** A Tron address failed base58check decoding (alphabet, length, checksum or 0x41 prefix). */
  PERMIT2_TRON_ADDRESS_INVALID: { address: unknown; length?: number; prefix?: number };
  /** tronweb could not be loaded (it is an optional peer dependency; the import's error is the `cause`). */
  PERMIT2_TRONWEB_UNAVAILABLE: { module: "tronweb" };
}

/** Every code a `@swapintent/permit2` error can carry (see {@link Permit2ErrorDetails} for what each means). */
export type Permit2ErrorCode = keyof Permit2ErrorDetails;

/**
 * The error every function of `@swapintent/permit2` throws: a swapintent `SwapIntentError` with a permit2 code, one per
 * code, so narrowing `code` (a `switch`, or {@link isPermit2Error} with a code) narrows `details` to that code's facts.
 */
export type Permit2Error<TCode extends Permit2ErrorCode = Permit2ErrorCode> = CodedError<
  Permit2ErrorDetails,
  TCode
>;

/** The codes verification can throw (`verifyPermit2Approval`, and every signer before it asks a wallet). */
export type Permit2VerifyErrorCode =
  | "PERMIT2_ADDRESS_INVALID"
  | "PERMIT2_AMOUNT_MISMATCH"
  | "PERMIT2_CHAIN_ID_MISMATCH"
  | "PERMIT2_CHAIN_TYPE_MISMATCH"
  | "PERMIT2_CONTRACT_NOT_ALLOWED"
  | "PERMIT2_DEADLINE_MISMATCH"
  | "PERMIT2_DEADLINE_PASSED"
  | "PERMIT2_DEADLINE_TOO_FAR"
  | "PERMIT2_DECIMALS_MISMATCH"
  | "PERMIT2_DEST_CHAIN_MISMATCH"
  | "PERMIT2_DEST_DECIMALS_MISMATCH"
  | "PERMIT2_DEST_TOKEN_MISMATCH"
  | "PERMIT2_DIGEST_MISMATCH"
  | "PERMIT2_DOMAIN_INVALID"
  | "PERMIT2_DOMAIN_NAME_MISMATCH"
  | "PERMIT2_EXPECTED_INVALID"
  | "PERMIT2_INTENT_ID_MISMATCH"
  | "PERMIT2_MAX_AMOUNT_MISMATCH"
  | "PERMIT2_MECHANISM_MISMATCH"
  | "PERMIT2_MESSAGE_MISMATCH"
  | "PERMIT2_MIN_AMOUNT_MISMATCH"
  | "PERMIT2_MIN_AMOUNT_TOO_LOW"
  | "PERMIT2_NONCE_MISMATCH"
  | "PERMIT2_PARAMS_INVALID"
  | "PERMIT2_RECIPIENT_MISMATCH"
  | "PERMIT2_SECRET_HASH_MISMATCH"
  | "PERMIT2_SPENDER_MISMATCH"
  | "PERMIT2_TEXT_UNSAFE"
  | "PERMIT2_TOKEN_MISMATCH"
  | "PERMIT2_TYPES_INVALID"
  | "PERMIT2_VERIFYING_CONTRACT_MISMATCH"
  | "PERMIT2_WITNESS_HASH_MISMATCH"
  | "PERMIT2_WITNESS_INVALID"
  | "PERMIT2_WITNESS_TYPE_STRING_MISMATCH";

/** The codes of asking a wallet and checking its answer, on every signing path. */
export type Permit2SigningErrorCode =
  | "PERMIT2_OWNER_MISMATCH"
  | "PERMIT2_SIGNATURE_INVALID"
  | "PERMIT2_SIGNER_MISMATCH"
  | "PERMIT2_SIGNING_ABORTED"
  | "PERMIT2_SIGNING_FAILED";

/** The codes only a contract owner's (smart account's) signature check throws, on the EVM signer with `publicClient`. */
export type Permit2ContractSignatureErrorCode =
  | "PERMIT2_CONTRACT_SIGNATURE_INVALID"
  | "PERMIT2_CONTRACT_DEPLOYMENT_MISMATCH"
  | "PERMIT2_CONTRACT_CHECK_FAILED";

/** The package's exact code list at runtime; the compiler keeps it equal to {@link Permit2ErrorCode}. */
export const permit2ErrorCodes: Readonly<Record<Permit2ErrorCode, true>> = {
  PERMIT2_MECHANISM_MISMATCH: true,
  PERMIT2_PARAMS_INVALID: true,
  PERMIT2_EXPECTED_INVALID: true,
  PERMIT2_ADDRESS_INVALID: true,
  PERMIT2_CHAIN_TYPE_MISMATCH: true,
  PERMIT2_TYPES_INVALID: true,
  PERMIT2_DOMAIN_INVALID: true,
  PERMIT2_DOMAIN_NAME_MISMATCH: true,
  PERMIT2_CHAIN_ID_MISMATCH: true,
  PERMIT2_VERIFYING_CONTRACT_MISMATCH: true,
  PERMIT2_DIGEST_MISMATCH: true,
  PERMIT2_CONTRACT_NOT_ALLOWED: true,
  PERMIT2_WITNESS_INVALID: true,
  PERMIT2_WITNESS_HASH_MISMATCH: true,
  PERMIT2_WITNESS_TYPE_STRING_MISMATCH: true,
  PERMIT2_SPENDER_MISMATCH: true,
  PERMIT2_TOKEN_MISMATCH: true,
  PERMIT2_AMOUNT_MISMATCH: true,
  PERMIT2_DECIMALS_MISMATCH: true,
  PERMIT2_NONCE_MISMATCH: true,
  PERMIT2_DEADLINE_MISMATCH: true,
  PERMIT2_DEADLINE_PASSED: true,
  PERMIT2_DEADLINE_TOO_FAR: true,
  PERMIT2_MIN_AMOUNT_MISMATCH: true,
  PERMIT2_MAX_AMOUNT_MISMATCH: true,
  PERMIT2_RECIPIENT_MISMATCH: true,
  PERMIT2_SECRET_HASH_MISMATCH: true,
  PERMIT2_INTENT_ID_MISMATCH: true,
  PERMIT2_DEST_CHAIN_MISMATCH: true,
  PERMIT2_DEST_TOKEN_MISMATCH: true,
  PERMIT2_MESSAGE_MISMATCH: true,
  PERMIT2_DEST_DECIMALS_MISMATCH: true,
  PERMIT2_MIN_AMOUNT_TOO_LOW: true,
  PERMIT2_TEXT_UNSAFE: true,
  PERMIT2_OWNER_MISMATCH: true,
  PERMIT2_SIGNATURE_INVALID: true,
  PERMIT2_SIGNER_MISMATCH: true,
  PERMIT2_CONTRACT_SIGNATURE_INVALID: true,
  PERMIT2_CONTRACT_DEPLOYMENT_MISMATCH: true,
  PERMIT2_CONTRACT_CHECK_FAILED: true,
  PERMIT2_SIGNING_FAILED: true,
  PERMIT2_SIGNING_ABORTED: true,
  PERMIT2_WALLET_RESPONSE_INVALID: true,
  PERMIT2_ALLOWANCE_INSUFFICIENT: true,
  PERMIT2_ALLOWANCE_READ_FAILED: true,
  PERMIT2_TRON_ADDRESS_INVALID: true,
  PERMIT2_TRONWEB_UNAVAILABLE: true,
};

/**
 * True when `error` is a `@swapintent/permit2` error (its code is one of this package's exact list, see
 * `hasErrorCode` in `@swapintent/client/internal`), optionally with the given code; narrows `error` to that code's error, so
 * `details` has that code's facts. An error of another package (a client or bitcoin code), or a code this copy of
 * the package does not know, is not a permit2 error.
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
): error is Permit2Error<TCode> {
  return hasErrorCode(error, permit2ErrorCodes, code);
}
