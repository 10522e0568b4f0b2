import { payments } from "bitcoinjs-lib";
import { hexToBytes } from "./bytes.js";
import { createBitcoinError } from "./errors.js";
import type { BitcoinEcc } from "./types.js";
import { useEcc } from "./useEcc.js";

/**
 * The output scripts that belong to a user's 33-byte compressed key: its BIP-86 P2TR key-path script
 * (internal key = the x-only key, empty script tree) and its P2WPKH script.
 */
export function getUserScripts(args: { ecc: BitcoinEcc; publicKey: string | Uint8Array }): {
  publicKey: Uint8Array;
  xOnly: Uint8Array;
  p2tr: Uint8Array;
  p2wpkh: Uint8Array;
} {
  const publicKey = typeof args.publicKey === "string" ? hexToBytes(args.publicKey) : args.publicKey;
  if (publicKey?.length !== 33 || !args.ecc.isPoint(publicKey)) {
    throw createBitcoinError(
      "BTC_PUBLIC_KEY_INVALID",
      "The user's public key is not a 33-byte compressed secp256k1 key.",
    );
  }
  useEcc(args.ecc);
  const xOnly = publicKey.slice(1, 33);
  const p2tr = payments.p2tr({ internalPubkey: xOnly }).output;
  const p2wpkh = payments.p2wpkh({ pubkey: publicKey }).output;
  if (!p2tr || !p2wpkh) {
    throw createBitcoinError("BTC_PUBLIC_KEY_INVALID", "Could not derive the user's scripts from the key.");
  }
  return { publicKey, xOnly, p2tr, p2wpkh };
}
