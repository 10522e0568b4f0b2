import { sha256 } from "@noble/hashes/sha2";
import { createBase58check } from "@scure/base";
import { type Address, bytesToHex, getAddress } from "viem";

const base58check = createBase58check(sha256);
const TRON_PREFIX = 0x41;

/**
 * Convert a Tron base58check address (`T…`, 21 bytes with the `0x41` prefix) to the 20-byte EVM address
 * behind it, or `undefined` when the checksum, length or prefix is wrong.
 */
export function parseTronAddress(address: string): Address | undefined {
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(address)) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = base58check.decode(address);
  } catch {
    return undefined;
  }
  if (bytes.length !== 21 || bytes[0] !== TRON_PREFIX) return undefined;
  return getAddress(bytesToHex(bytes.subarray(1)));
}
