import { VersionedTransaction } from "@solana/web3.js";
import { solanaError } from "../errors.js";
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

/**
 * The compact-u16 ("shortvec") at the start of `bytes`: its value and length. Undefined when malformed or not in
 * its one minimal form (a last byte of 0 after a continuation, e.g. `0x82 0x00` for 2, or more than 16 bits).
 */
function readShortVec(bytes: Uint8Array): { value: number; length: number } | undefined {
  let value = 0;
  for (let i = 0; i < 3; i++) {
    const byte = bytes[i];
    if (byte === undefined) return undefined;
    value |= (byte & 0x7f) << (7 * i);
    if ((byte & 0x80) === 0) {
      if (i > 0 && byte === 0) return undefined;
      return value > 0xffff ? undefined : { value, length: i + 1 };
    }
  }
  return undefined;
}

/**
 * Decode the hex of a serialized legacy or v0 transaction. The bytes must be the one canonical serialization:
 * re-serializing the decoded transaction reproduces them exactly (every length in its minimal shortvec form, one
 * signature slot per required signer, no trailing bytes), so the message that is checked is the message that gets
 * signed and no two encodings of one transaction exist.
 */
export function decodeTransaction(hex: unknown): DecodedTransaction {
  if (typeof hex !== "string" || hex.length === 0) {
    throw solanaError("SOL_TX_DECODE_FAILED", "The transaction is missing or not a hex string.", {
      reason: "not a hex string",
    });
  }
  const bytes = hexToBytes(hex);
  let transaction: VersionedTransaction;
  let messageBytes: Uint8Array;
  try {
    transaction = VersionedTransaction.deserialize(bytes);
    messageBytes = transaction.message.serialize();
  } catch (cause) {
    throw solanaError(
      "SOL_TX_DECODE_FAILED",
      "The transaction could not be decoded.",
      { reason: "not a transaction", bytes: bytes.length },
      cause,
    );
  }
  const version = transaction.version;
  if (version !== "legacy" && version !== 0) {
    throw solanaError("SOL_TX_VERSION_UNSUPPORTED", "Only legacy and v0 transactions are supported.", {
      version,
    });
  }
  const required = transaction.message.header.numRequiredSignatures;
  const count = readShortVec(bytes);
  const signaturesOffset = count?.length ?? 0;
  const messageOffset = signaturesOffset + 64 * required;
  let reserialized: Uint8Array | undefined;
  try {
    reserialized = transaction.serialize();
  } catch {
    reserialized = undefined;
  }
  if (
    count === undefined ||
    count.value !== required ||
    transaction.signatures.length !== required ||
    bytes.length !== messageOffset + messageBytes.length ||
    !bytesEqual(bytes.subarray(messageOffset), messageBytes) ||
    reserialized === undefined ||
    !bytesEqual(reserialized, bytes)
  ) {
    throw solanaError("SOL_TX_DECODE_FAILED", "The transaction bytes are not a canonical serialization.", {
      reason: "not canonical",
      bytes: bytes.length,
      signatures: transaction.signatures.length,
      requiredSignatures: required,
    });
  }
  assertUniqueKeys(transaction);
  return { transaction, messageBytes, bytes, signaturesOffset };
}

/**
 * Every static account key appears once (the runtime refuses a transaction that loads an account twice; refusing
 * it here keeps "the user's slot" unambiguous).
 */
function assertUniqueKeys(transaction: VersionedTransaction): void {
  const keys = transaction.message.staticAccountKeys.map((key) => key.toBase58());
  if (new Set(keys).size !== keys.length) {
    throw solanaError("SOL_TX_DECODE_FAILED", "The transaction lists an account key twice.", {
      reason: "account listed twice",
      accounts: keys.length,
    });
  }
}
