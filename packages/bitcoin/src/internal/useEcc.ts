import { initEccLib } from "bitcoinjs-lib";
import type { BitcoinEcc } from "../types.js";

let current: BitcoinEcc | undefined;

/**
 * Hand `ecc` to bitcoinjs-lib (which keeps one process-wide secp256k1 backend for Taproot). Called by every
 * function of this package with the `ecc` it was given; cheap when the backend is already active.
 */
export function useEcc(ecc: BitcoinEcc): void {
  if (current === ecc) return;
  initEccLib(ecc);
  current = ecc;
}
