import { VersionedTransaction } from "@solana/web3.js";
import { BaseError } from "@swapintent/client";
import { bytesEqual, hexToBytes } from "./hex.js";

/** A decoded cosign transaction and the exact message bytes every signature covers. */
export interface DecodedTransaction {
  transaction: VersionedTransaction;
  messageBytes: Uint8Array;
  /** The serialized transaction, exactly as received. */
  bytes: Uint8Array;
  /** Offset of signature slot 0 in `bytes` (slot i starts at `signaturesOffset + 64 * i`). */
  signaturesOffset: number;
}

/** Length of the compact-u16 ("shortvec") at the start of `bytes` and its value; undefined when malformed. */
function readShortVec(bytes: Uint8Array): { value: number; length: number } | undefined {
  let value = 0;
  for (let i = 0; i < 3; i++) {
    const byte = bytes[i];
    if (byte === undefined) return undefined;
    value |= (byte & 0x7f) << (7 * i);
    if ((byte & 0x80) === 0) return { value, length: i + 1 };
  }
  return undefined;
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
  let messageBytes: Uint8Array;
  try {
    transaction = VersionedTransaction.deserialize(bytes);
    messageBytes = transaction.message.serialize();
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
  const count = readShortVec(bytes);
  const signaturesOffset = count?.length ?? 0;
  const messageOffset = signaturesOffset + 64 * required;
  if (
    count === undefined ||
    count.value !== required ||
    transaction.signatures.length !== required ||
    bytes.length !== messageOffset + messageBytes.length ||
    !bytesEqual(bytes.subarray(messageOffset), messageBytes)
  ) {
    throw new BaseError("SOL_TX_DECODE_FAILED", "The transaction bytes are not a canonical serialization.", {
      details: {
        bytes: bytes.length,
        signatures: transaction.signatures.length,
        requiredSignatures: required,
      },
    });
  }
  return { transaction, messageBytes, bytes, signaturesOffset };
}
