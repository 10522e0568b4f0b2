import { crypto } from "bitcoinjs-lib";
import { type BitcoinError, createBitcoinError } from "./errors.js";
import { bytesToHex, hexToBytes } from "./internal/bytes.js";
import { readBytes, readEcc, readRecord } from "./internal/readParameters.js";
import { useEcc } from "./internal/useEcc.js";
import type { BitcoinEcc } from "./types.js";

/** Parameters of `getUserScripts`. */
export interface GetUserScriptsParameters {
  /** The secp256k1 backend: `tiny-secp256k1` or `@bitcoinerlab/secp256k1`. */
  ecc: BitcoinEcc;
  /** The user's 33-byte compressed key, hex or bytes. */
  publicKey: string | Uint8Array;
}

/** What `getUserScripts` returns: the key, its x-only form, and its two output scripts. */
export interface GetUserScriptsReturnType {
  publicKey: Uint8Array;
  xOnly: Uint8Array;
  /** BIP-86 P2TR key-path output script. */
  p2tr: Uint8Array;
  /** P2WPKH output script. */
  p2wpkh: Uint8Array;
}

/** What `getUserScripts` may throw: `BTC_PUBLIC_KEY_INVALID`, or `BTC_PARAMETER_INVALID` for an unreadable parameter. */
export type GetUserScriptsErrorType = BitcoinError<"BTC_PUBLIC_KEY_INVALID" | "BTC_PARAMETER_INVALID">;

/**
 * The output scripts that belong to a user's 33-byte compressed key: its BIP-86 P2TR key-path script
 * (internal key = the x-only key, empty script tree) and its P2WPKH script.
 *
 * @example
 * ```ts
 * import * as ecc from "tiny-secp256k1";
 * import { getUserScripts } from "@swapintent/bitcoin";
 *
 * const { p2tr, p2wpkh } = getUserScripts({ ecc, publicKey: "02…" });
 * ```
 */
export function getUserScripts(parameters: GetUserScriptsParameters): GetUserScriptsReturnType {
  const given = readRecord("", parameters) ?? {};
  const args = { ecc: readEcc(given.ecc), publicKey: readBytes("publicKey", given.publicKey) };
  const publicKey = typeof args.publicKey === "string" ? hexToBytes(args.publicKey) : args.publicKey;
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== 33 || !args.ecc.isPoint(publicKey)) {
    throw createBitcoinError(
      "BTC_PUBLIC_KEY_INVALID",
      "The user's public key is not a 33-byte compressed secp256k1 key.",
      { length: publicKey instanceof Uint8Array ? publicKey.length : -1 },
    );
  }
  useEcc(args.ecc);
  const cacheKey = bytesToHex(publicKey);
  const cached = cache.get(cacheKey);
  if (cached?.ecc === args.ecc) return copyScripts(cached.scripts);
  const xOnly = publicKey.slice(1, 33);
  // BIP-86: output key = internal key tweaked by TapTweak(internal key), no script tree.
  const outputKey = args.ecc.xOnlyPointAddTweak(xOnly, crypto.taggedHash("TapTweak", xOnly));
  if (!outputKey) {
    throw createBitcoinError("BTC_PUBLIC_KEY_INVALID", "Could not derive the user's scripts from the key.", {
      length: publicKey.length,
    });
  }
  const p2tr = Uint8Array.from([0x51, 0x20, ...outputKey.xOnlyPubkey]);
  const p2wpkh = Uint8Array.from([0x00, 0x14, ...crypto.hash160(publicKey)]);
  // The cache keeps its own bytes (never the caller's array) and hands out copies: a caller that wipes or reuses
  // a key array, or writes into a result, must not change what the next call for this key sees.
  const scripts = { publicKey: Uint8Array.from(publicKey), xOnly, p2tr, p2wpkh };
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(cacheKey, { ecc: args.ecc, scripts });
  return copyScripts(scripts);
}

function copyScripts(scripts: GetUserScriptsReturnType): GetUserScriptsReturnType {
  return {
    publicKey: Uint8Array.from(scripts.publicKey),
    xOnly: Uint8Array.from(scripts.xOnly),
    p2tr: Uint8Array.from(scripts.p2tr),
    p2wpkh: Uint8Array.from(scripts.p2wpkh),
  };
}

// Wallets sign for the same few keys again and again; the two derivations cost a point tweak each time.
const CACHE_SIZE = 16;
const cache = new Map<
  string,
  {
    ecc: BitcoinEcc;
    scripts: GetUserScriptsReturnType;
  }
>();
