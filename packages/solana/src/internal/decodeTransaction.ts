import { solanaError } from "../errors.js";
import { addressOf } from "./address.js";
import { hexToBytes } from "./hex.js";

/** One instruction as the message compiles it: indexes into the account list, and the data. */
export interface CompiledInstruction {
  programIdIndex: number;
  accountKeyIndexes: number[];
  data: Uint8Array;
}

/** One address-table lookup of a v0 message. */
export interface AddressTableLookup {
  /** The table's address, base58. */
  accountKey: string;
  writableIndexes: number[];
  readonlyIndexes: number[];
}

/**
 * A decoded cosign transaction, read from its bytes alone (no SDK): the one form every check and every signing path
 * (web3.js, Kit, wallet-standard) works on.
 */
export interface DecodedTransaction {
  version: "legacy" | 0;
  header: {
    numRequiredSignatures: number;
    numReadonlySignedAccounts: number;
    numReadonlyUnsignedAccounts: number;
  };
  /** The message's static account keys, base58, in order (the first `numRequiredSignatures` sign). */
  staticAccountKeys: string[];
  /** The recent blockhash (or nonce), base58. */
  recentBlockhash: string;
  instructions: CompiledInstruction[];
  addressTableLookups: AddressTableLookup[];
  /** The signature slots, 64 bytes each, one per required signer (all zero when unsigned). */
  signatures: Uint8Array[];
  /** The exact message bytes every signature covers. */
  messageBytes: Uint8Array;
  /** The serialized transaction, exactly as received. */
  bytes: Uint8Array;
  /** Offset of signature slot 0 in `bytes` (slot i starts at `signaturesOffset + 64 * i`). */
  signaturesOffset: number;
}

/** Thrown inside the reader when the bytes end early or a length is not minimal; turned into one coded error. */
class Malformed extends Error {}

/** A cursor over the bytes that refuses anything but the one canonical encoding. */
class Reader {
  offset = 0;
  constructor(readonly bytes: Uint8Array) {}

  u8(): number {
    const byte = this.bytes[this.offset];
    if (byte === undefined) throw new Malformed("end of bytes");
    this.offset++;
    return byte;
  }

  take(length: number): Uint8Array {
    if (this.offset + length > this.bytes.length) throw new Malformed("end of bytes");
    const out = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return out;
  }

  /** A compact-u16 ("shortvec") in its one minimal form (no trailing zero group, at most 16 bits). */
  shortVec(): number {
    let value = 0;
    for (let i = 0; i < 3; i++) {
      const byte = this.u8();
      value |= (byte & 0x7f) << (7 * i);
      if ((byte & 0x80) === 0) {
        if ((i > 0 && byte === 0) || value > 0xffff) throw new Malformed("non-minimal length");
        return value;
      }
    }
    throw new Malformed("length too long");
  }

  /** A shortvec-prefixed list of u8 values. */
  u8List(): number[] {
    return [...this.take(this.shortVec())];
  }
}

/**
 * Decode the hex of a serialized legacy or v0 transaction. The bytes must be the one canonical serialization:
 * every length in its minimal shortvec form, one signature slot per required signer, no trailing bytes, each
 * static key once. So the message that is checked is the message that gets signed, and no two encodings of one
 * transaction exist.
 */
export function decodeTransaction(hex: unknown): DecodedTransaction {
  if (typeof hex !== "string" || hex.length === 0) {
    throw solanaError("SOL_TX_DECODE_FAILED", "The transaction is missing or not a hex string.", {
      reason: "not a hex string",
    });
  }
  assertSize(hex.length / 2 - 1); // an optional 0x: the bytes are checked exactly below
  return decodeTransactionBytes(hexToBytes(hex));
}

/**
 * The largest transaction the network carries (PACKET_DATA_SIZE, 1280 - 40 - 8 bytes). Checked before any work:
 * decoding megabytes of keys (each encoded as base58) took seconds, for a transaction that can never run.
 */
const MAX_TRANSACTION_BYTES = 1232;

function assertSize(bytes: number): void {
  if (bytes > MAX_TRANSACTION_BYTES)
    throw solanaError("SOL_TX_DECODE_FAILED", "The transaction could not be decoded.", {
      reason: "larger than 1232 bytes",
    });
}

/** {@link decodeTransaction} of the bytes themselves (what a wallet returns). */
export function decodeTransactionBytes(received: Uint8Array): DecodedTransaction {
  assertSize(received.length);
  const bytes = Uint8Array.from(received); // a copy: what is checked cannot change afterwards
  const reader = new Reader(bytes);
  let decoded: DecodedTransaction;
  try {
    decoded = readTransaction(reader);
  } catch (error) {
    if (!(error instanceof Malformed)) throw error;
    throw solanaError("SOL_TX_DECODE_FAILED", "The transaction could not be decoded.", {
      reason: error.message,
      bytes: bytes.length,
    });
  }
  const required = decoded.header.numRequiredSignatures;
  if (
    reader.offset !== bytes.length ||
    decoded.signatures.length !== required ||
    required > decoded.staticAccountKeys.length
  ) {
    throw solanaError("SOL_TX_DECODE_FAILED", "The transaction bytes are not a canonical serialization.", {
      reason: "not canonical",
      bytes: bytes.length,
      signatures: decoded.signatures.length,
      requiredSignatures: required,
    });
  }
  const insane = sanitizeFailure(decoded);
  if (insane !== undefined) {
    throw solanaError("SOL_TX_DECODE_FAILED", "The runtime would refuse this message before running it.", {
      reason: insane,
      bytes: bytes.length,
    });
  }
  // The runtime refuses a transaction that loads an account twice; refusing it here keeps "the user's slot" unambiguous.
  if (new Set(decoded.staticAccountKeys).size !== decoded.staticAccountKeys.length) {
    throw solanaError("SOL_TX_DECODE_FAILED", "The transaction lists an account key twice.", {
      reason: "account listed twice",
      accounts: decoded.staticAccountKeys.length,
    });
  }
  return decoded;
}

/**
 * The runtime's sanitize rules for a legacy or v0 message (what it refuses before running anything), so that the
 * decoder accepts exactly the messages the runtime does: a writable fee payer, header counts within the key list,
 * every lookup table loading at least one account, at most 256 accounts in a v0 message, every program id a static
 * key other than the fee payer, every account index within the keys. The reason, or undefined when sane.
 */
function sanitizeFailure(decoded: DecodedTransaction): string | undefined {
  const { header, staticAccountKeys, addressTableLookups, instructions } = decoded;
  const statics = staticAccountKeys.length;
  if (header.numRequiredSignatures === 0) return "no fee payer";
  if (header.numReadonlySignedAccounts >= header.numRequiredSignatures) return "fee payer read-only";
  if (header.numRequiredSignatures + header.numReadonlyUnsignedAccounts > statics) {
    return "header counts exceed the account keys";
  }
  let total = statics;
  for (const lookup of addressTableLookups) {
    const loaded = lookup.writableIndexes.length + lookup.readonlyIndexes.length;
    if (loaded === 0) return "lookup table loads no account";
    total += loaded;
  }
  if (decoded.version === 0 && total > 256) return "more than 256 accounts";
  for (const ix of instructions) {
    if (ix.programIdIndex === 0) return "program id is the fee payer";
    if (ix.programIdIndex >= statics) return "program id not a static account key";
    if (ix.accountKeyIndexes.some((i) => i >= total)) return "account index out of range";
  }
  return undefined;
}

function readTransaction(reader: Reader): DecodedTransaction {
  const count = reader.shortVec();
  const signaturesOffset = reader.offset;
  const signatures = Array.from({ length: count }, () => reader.take(64).slice());
  const messageOffset = reader.offset;
  const first = reader.u8();
  let version: "legacy" | 0 = "legacy";
  let numRequiredSignatures = first;
  if (first & 0x80) {
    const stated = first & 0x7f;
    if (stated !== 0) {
      throw solanaError("SOL_TX_VERSION_UNSUPPORTED", "Only legacy and v0 transactions are supported.", {
        version: stated,
      });
    }
    version = 0;
    numRequiredSignatures = reader.u8();
  }
  const header = {
    numRequiredSignatures,
    numReadonlySignedAccounts: reader.u8(),
    numReadonlyUnsignedAccounts: reader.u8(),
  };
  const staticAccountKeys = Array.from({ length: reader.shortVec() }, () => addressOf(reader.take(32)));
  const recentBlockhash = addressOf(reader.take(32));
  const instructions = Array.from({ length: reader.shortVec() }, () => ({
    programIdIndex: reader.u8(),
    accountKeyIndexes: reader.u8List(),
    data: reader.take(reader.shortVec()).slice(),
  }));
  const addressTableLookups =
    version === 0
      ? Array.from({ length: reader.shortVec() }, () => ({
          accountKey: addressOf(reader.take(32)),
          writableIndexes: reader.u8List(),
          readonlyIndexes: reader.u8List(),
        }))
      : [];
  return {
    version,
    header,
    staticAccountKeys,
    recentBlockhash,
    instructions,
    addressTableLookups,
    signatures,
    messageBytes: reader.bytes.slice(messageOffset, reader.offset),
    bytes: reader.bytes,
    signaturesOffset,
  };
}
