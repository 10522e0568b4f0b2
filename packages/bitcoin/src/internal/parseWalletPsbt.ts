// Internal: a wallet's PSBT answer as text, parsed strictly (canonical base64 or hex, one PSBT to its last byte).
import { Psbt } from "bitcoinjs-lib";
import { createBitcoinError } from "../errors.js";
import { hexToBytes } from "./bytes.js";

/**
 * What a wallet returned, as a PSBT (base64, or hex for the wallets that answer in hex), else `BTC_PSBT_INVALID`.
 * Strict: canonical base64 (standard alphabet, padded, nothing else) or hex (either case), and the text is one
 * PSBT to its last byte; a decoder that skips whitespace or unknown characters, or stops at the end of the PSBT,
 * would accept text that is not what the wallet's API returns.
 */
export function parseWalletPsbt(returned: unknown, encoding: "base64" | "hex" = "base64"): Psbt {
  let reason = "not a string";
  try {
    if (typeof returned !== "string") throw new TypeError(reason);
    const bytes = encoding === "hex" ? strictHex(returned) : strictBase64(returned);
    reason = `not canonical ${encoding}`;
    if (!bytes) throw new TypeError(reason);
    const psbt = Psbt.fromBuffer(bytes);
    reason = "bytes after the PSBT";
    if (psbtLength(bytes, 1 + psbt.data.inputs.length + psbt.data.outputs.length) !== bytes.length) {
      throw new TypeError(reason);
    }
    return psbt;
  } catch (cause) {
    throw createBitcoinError(
      "BTC_PSBT_INVALID",
      "The wallet returned something that is not a PSBT.",
      { source: "wallet" },
      cause,
    );
  }
}

const HEX = /^(?:[0-9a-fA-F]{2})+$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function strictHex(text: string): Uint8Array | null {
  return HEX.test(text) ? hexToBytes(text) : null;
}

/** Canonical base64 only: the alphabet and padding checked, and the bytes re-encode to the same text. */
function strictBase64(text: string): Uint8Array | null {
  if (text.length === 0 || !BASE64.test(text)) return null;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return btoa(binary) === text ? bytes : null;
}

/** Where a serialized PSBT of `maps` key-value maps (global, inputs, outputs) ends: after its last map's 0x00. */
function psbtLength(bytes: Uint8Array, maps: number): number {
  let pos = 5; // "psbt" 0xff
  const skip = () => {
    const first = bytes[pos] ?? 0;
    const size = first < 0xfd ? 0 : first === 0xfd ? 2 : first === 0xfe ? 4 : 8;
    let n = first < 0xfd ? first : 0;
    for (let i = size; i >= 1; i--) n = n * 256 + (bytes[pos + i] ?? 0);
    pos += 1 + size;
    return n;
  };
  for (let map = 0; map < maps; map++) {
    for (let keyLength = skip(); keyLength !== 0; keyLength = skip()) {
      pos += keyLength;
      const valueLength = skip();
      pos += valueLength;
    }
  }
  return pos;
}
