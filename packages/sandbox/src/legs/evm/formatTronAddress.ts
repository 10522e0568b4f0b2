import { sha256 } from "@noble/hashes/sha2";
import { createBase58check } from "@scure/base";
import { type Address, hexToBytes } from "viem";

const base58check = createBase58check(sha256);
const TRON_PREFIX = 0x41;

/** Format a 20-byte EVM address as a Tron base58check address (`0x41` prefix). */
export function formatTronAddress(address: Address): string {
  const raw = hexToBytes(address);
  if (raw.length !== 20) throw new Error("formatTronAddress: expected a 20-byte address");
  const bytes = new Uint8Array(21);
  bytes[0] = TRON_PREFIX;
  bytes.set(raw, 1);
  return base58check.encode(bytes);
}
