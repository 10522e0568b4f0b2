import { address, networks, payments } from "bitcoinjs-lib";

/** The output script of a regtest P2WPKH (bech32) or P2TR (bech32m) address, or null for anything else. */
export function scriptOfAddress(text: string): Uint8Array | null {
  let out: Uint8Array;
  try {
    out = address.toOutputScript(text, networks.regtest);
  } catch {
    return null;
  }
  const p2wpkh = out.length === 22 && out[0] === 0x00 && out[1] === 0x14;
  const p2tr = out.length === 34 && out[0] === 0x51 && out[1] === 0x20;
  return p2wpkh || p2tr ? out : null;
}

/** The regtest address of an output script. */
export function addressOfScript(script: Uint8Array): string {
  return address.fromOutputScript(script, networks.regtest);
}

/** A compressed key's two accepted scripts: BIP-86 P2TR key path and P2WPKH. */
export function scriptsOfPublicKey(publicKey: Uint8Array): { p2tr: Uint8Array; p2wpkh: Uint8Array } {
  return {
    p2tr: payments.p2tr({ internalPubkey: publicKey.slice(1, 33) }).output!,
    p2wpkh: payments.p2wpkh({ pubkey: publicKey }).output!,
  };
}
