import { ContractFunctionRevertedError, BaseError as ViemBaseError } from "viem";
import { LegRejection, type LegRejectionCode } from "../types.js";

const CODES: Record<string, [code: LegRejectionCode, reason: string]> = {
  InvalidSigner: [
    "SIGNATURE_INVALID",
    "the signature does not recover to the user's source address for this permit",
  ],
  InvalidSignature: ["SIGNATURE_INVALID", "the signature is not a valid secp256k1 signature"],
  InvalidSignatureLength: ["SIGNATURE_INVALID", "the signature has the wrong length"],
  InvalidContractSignature: ["SIGNATURE_INVALID", "the contract wallet rejected the signature"],
  InvalidNonce: ["PERMIT2_NONCE_USED", "the Permit2 nonce has already been used"],
  SignatureExpired: ["DEADLINE_PASSED", "the permit's deadline has passed"],
  InvalidAmount: ["AMOUNT_MISMATCH", "the requested amount exceeds the permitted amount"],
  AlreadyLocked: ["ALREADY_DEPOSITED", "the escrow already holds a deposit for this intent"],
  NotLocked: ["NOT_DEPOSITED", "the escrow holds no open deposit for this intent"],
  WrongSecret: ["SECRET_MISMATCH", "sha256(secret) does not equal the intent's secret hash"],
  RefundTooEarly: ["REFUND_TOO_EARLY", "the deadline has not passed yet"],
  AlreadyDelivered: ["ALREADY_DELIVERED", "the resolver already delivered for this intent"],
  InsufficientBalance: ["INSUFFICIENT_BALANCE", "the balance is too low"],
  InsufficientAllowance: ["INSUFFICIENT_ALLOWANCE", "the Permit2 allowance is too low"],
  NotOperator: ["NOT_OPERATOR", "only the resolver may do this"],
  TokenTransferFailed: ["TRANSFER_FAILED", "the token transfer failed"],
};

/** The decoded revert of a viem error: a custom error name or an `Error(string)` reason, when there is one. */
export function getRevertName(error: unknown): string | undefined {
  if (!(error instanceof ViemBaseError)) return undefined;
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
  if (!(reverted instanceof ContractFunctionRevertedError)) return undefined;
  return reverted.data?.errorName === "Error"
    ? String(reverted.data.args?.[0] ?? reverted.reason)
    : (reverted.data?.errorName ?? reverted.reason);
}

/**
 * Turn a revert of Permit2, the escrow or a token into a `LegRejection` with a stable code, or return
 * undefined when the error is not a contract revert (an engine failure the caller rethrows).
 */
export function mapRevertToRejection(error: unknown): LegRejection | undefined {
  const name = getRevertName(error);
  if (name === undefined) return undefined;
  const known = CODES[name];
  if (known) return new LegRejection(known[0], known[1], { cause: error });
  return new LegRejection("CONTRACT_REVERTED", `the contract call reverted (${name})`, { cause: error });
}
