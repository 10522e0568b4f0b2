// What the three Bitcoin stand-in scripts share: bitcoinjs' secp256k1 backend, the wallet's own keys (made here,
// never seen by the page) and the tamper the test asks for (`?tamper=<name>` on the page's URL).
import * as ecc from "@bitcoinerlab/secp256k1";
import { initEccLib } from "bitcoinjs-lib";
import { ECPairFactory } from "ecpair";
import type { StandinOptions, Tamper } from "../../../../packages/bitcoin/test/walletStandins.js";

/** The stand-in's options on regtest: a fresh key, a second key for the tampers that need one, the tamper. */
export function standinOptions(): StandinOptions {
  initEccLib(ecc);
  const ECPair = ECPairFactory(ecc);
  const tamper = (new URLSearchParams(location.search).get("tamper") ?? "none") as Tamper;
  return { key: ECPair.makeRandom(), other: ECPair.makeRandom(), tamper, bech32Prefix: "bcrt" };
}
