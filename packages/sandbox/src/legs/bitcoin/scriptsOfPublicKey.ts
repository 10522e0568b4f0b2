import { payments } from "bitcoinjs-lib";

/** A compressed key's two accepted scripts: BIP-86 P2TR key path and P2WPKH. */
export function scriptsOfPublicKey(publicKey: Uint8Array): { p2tr: Uint8Array; p2wpkh: Uint8Array } {
  return {
    p2tr: payments.p2tr({ internalPubkey: publicKey.slice(1, 33) }).output!,
    p2wpkh: payments.p2wpkh({ pubkey: publicKey }).output!,
  };
}
