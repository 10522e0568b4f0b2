import { crypto } from "bitcoinjs-lib";
import { ECPairFactory } from "ecpair";
import * as ecc from "tiny-secp256k1";
import { scriptsOfPublicKey } from "./scriptsOfPublicKey.js";
import type { BitcoinResolver } from "./types.js";

const ECPair = ECPairFactory(ecc);

/** Derive the resolver's key from the sandbox seed (so its address survives a restart), with its claim key and script. */
export function deriveResolver(seed: Uint8Array): BitcoinResolver {
  let candidate = crypto.sha256(Buffer.concat([Buffer.from("swapintent/bitcoin/resolver"), seed]));
  while (!ecc.isPrivate(candidate)) candidate = crypto.sha256(candidate);
  const key = ECPair.fromPrivateKey(candidate);
  return { key, xOnly: key.publicKey.slice(1, 33), script: scriptsOfPublicKey(key.publicKey).p2wpkh };
}
