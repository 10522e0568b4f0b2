import type { Approval } from "@swapintent/client";
import { ownErrors, solanaError } from "../errors.js";
import type { VerifiedTransaction } from "../types.js";
import { parseAddress } from "./address.js";
import { type DecodedTransaction, decodeTransactionBytes } from "./decodeTransaction.js";
import { bytesEqual, bytesToHex, ownBytes } from "./hex.js";
import { verifyStrict } from "./verifyStrict.js";

/** The signed transaction and the approval body to submit (what every signing path returns). */
export interface CosignResult {
  /** Hex of the transaction with the user's signature added and every other signature kept. */
  transaction: string;
  /** The user's address, base58. */
  userAddress: string;
  /** The user's 64-byte signature, hex. */
  signature: string;
  /** Body of `POST /intents/{id}/approvals`. */
  approval: Extract<Approval, { type: "cosign" }>;
}

/**
 * The user's signature as `source` returned it, checked: 64 bytes that verify over the verified message under the
 * user's key (ed25519 as the runtime checks it: strict, cofactorless; checked here, whoever signed). Throws
 * `SOL_SIGNATURE_INVALID` for a missing, malformed or wrong signature, or one that is not a genuine `Uint8Array`.
 * The bytes are copied first; the copy is verified and returned.
 */
export function checkUserSignature(
  signature: unknown,
  verified: VerifiedTransaction,
  source: string,
): Uint8Array {
  // Copied first (a genuine Uint8Array only): the bytes verified are the bytes returned.
  const copy = ownBytes(signature);
  const valid =
    copy !== undefined &&
    verifyStrict(copy, verified.messageBytes, parseAddress(verified.userAddress, "userAddress").bytes);
  if (!valid) {
    throw solanaError(
      "SOL_SIGNATURE_INVALID",
      signature === undefined || signature === null
        ? `The ${source} returned no signature for the user.`
        : `The ${source} returned a signature that does not verify.`,
      { source, userAddress: verified.userAddress },
    );
  }
  return copy;
}

/**
 * Re-parse a transaction a wallet returned and take the user's signature from it, refusing anything else that
 * changed: bytes that are not a transaction (`SOL_WALLET_RESPONSE_INVALID`), other message bytes
 * (`SOL_WALLET_MESSAGE_CHANGED`), another signer's slot (`SOL_WALLET_SIGNATURES_CHANGED`), a missing or invalid
 * user signature (`SOL_SIGNATURE_INVALID`).
 */
export function checkReturnedTransaction(
  returned: unknown,
  verified: VerifiedTransaction,
  source: string,
): Uint8Array {
  const bytes = ownBytes(returned);
  if (bytes === undefined) {
    throw solanaError("SOL_WALLET_RESPONSE_INVALID", `The ${source} did not return transaction bytes.`, {
      source,
      reason: "signed transaction is not a Uint8Array",
    });
  }
  let decoded: DecodedTransaction;
  try {
    decoded = decodeTransactionBytes(bytes);
  } catch (cause) {
    throw solanaError(
      "SOL_WALLET_RESPONSE_INVALID",
      `The ${source} returned bytes that are not a transaction.`,
      { source, reason: "signed transaction does not decode" },
      cause,
    );
  }
  if (!bytesEqual(decoded.messageBytes, verified.messageBytes)) {
    throw solanaError(
      "SOL_WALLET_MESSAGE_CHANGED",
      `The ${source} returned a transaction with a different message.`,
      {
        source,
      },
    );
  }
  const index = verified.userSignerIndex;
  const slots = verified.decoded.signatures.flatMap((original, i) =>
    i !== index && !bytesEqual(original, decoded.signatures[i]!) ? [i] : [],
  );
  if (slots.length > 0) {
    throw solanaError(
      "SOL_WALLET_SIGNATURES_CHANGED",
      `The ${source} changed a signature other than the user's.`,
      { source, slots },
    );
  }
  return checkUserSignature(decoded.signatures[index], verified, source);
}

/** The received bytes with only the user's slot replaced (every other signature and the message as they were), and the approval. */
export function assembleCosign(verified: VerifiedTransaction, signature: Uint8Array): CosignResult {
  const { bytes, signaturesOffset } = verified.decoded;
  const out = bytes.slice();
  out.set(signature, signaturesOffset + 64 * verified.userSignerIndex);
  const hex = bytesToHex(out);
  const userAddress = verified.userAddress;
  return {
    transaction: hex,
    userAddress,
    signature: bytesToHex(signature),
    approval: { type: "cosign", signedData: { transaction: hex, userAddress } },
  };
}

/**
 * Read part of an untrusted answer (a wallet's, a signer's): whatever the read throws (a getter, a Proxy trap) is
 * `SOL_WALLET_RESPONSE_INVALID` naming what was read, with the thrown value as its cause, never a stray error.
 */
export function readAnswer<T>(source: string, what: string, read: () => T): T {
  try {
    return read();
  } catch (cause) {
    throw solanaError(
      "SOL_WALLET_RESPONSE_INVALID",
      `The ${source}'s answer could not be read.`,
      { source, reason: `reading ${what} threw` },
      cause,
    );
  }
}

/**
 * Read the signer or wallet object a caller passed (it may come from a wallet extension): whatever the read throws
 * other than this package's own refusal (a getter, a Proxy trap, an error shaped like this package's) is
 * `SOL_SIGNER_INVALID`, before anything is signed.
 */
export function readSigner<T>(what: string, read: () => T): T {
  try {
    return read();
  } catch (cause) {
    // Only this package's own refusal passes; an error the object threw is its fault, whatever it looks like.
    if (ownErrors.has(cause as object)) throw cause;
    throw solanaError(
      "SOL_SIGNER_INVALID",
      `The ${what} could not be read.`,
      { reason: `reading the ${what} threw` },
      cause,
    );
  }
}
