import { VersionedTransaction } from "@solana/web3.js";
import { BaseError } from "@swapintent/client";
import { bytesEqual, hexToBytes } from "./hex.js";

/** A decoded cosign transaction and the exact message bytes every signature covers. */
export interface DecodedTransaction {
  transaction: VersionedTransaction;
  messageBytes: Uint8Array;
}

/**
 * Decode the hex of a serialized legacy or v0 transaction. The bytes must round-trip exactly (no trailing bytes,
 * one signature slot per required signer), so the message that is checked is the message that gets signed.
 */
export function decodeTransaction(hex: unknown): DecodedTransaction {
  if (typeof hex !== "string" || hex.length === 0) {
    throw new BaseError("SOL_TX_DECODE_FAILED", "The transaction is missing or not a hex string.");
  }
  const bytes = hexToBytes(hex);
  let transaction: VersionedTransaction;
  let serialized: Uint8Array;
  try {
    transaction = VersionedTransaction.deserialize(bytes);
    serialized = transaction.serialize();
  } catch (cause) {
    throw new BaseError("SOL_TX_DECODE_FAILED", "The transaction could not be decoded.", {
      details: { bytes: bytes.length },
      cause,
    });
  }
  const version = transaction.version;
  if (version !== "legacy" && version !== 0) {
    throw new BaseError("SOL_TX_VERSION_UNSUPPORTED", "Only legacy and v0 transactions are supported.", {
      details: { version },
    });
  }
  const required = transaction.message.header.numRequiredSignatures;
  if (transaction.signatures.length !== required || !bytesEqual(serialized, bytes)) {
    throw new BaseError("SOL_TX_DECODE_FAILED", "The transaction bytes are not a canonical serialization.", {
      details: {
        bytes: bytes.length,
        signatures: transaction.signatures.length,
        requiredSignatures: required,
      },
    });
  }
  return { transaction, messageBytes: transaction.message.serialize() };
}
