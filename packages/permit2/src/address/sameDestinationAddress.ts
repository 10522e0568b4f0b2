import * as Address from "ox/Address";
import { isBech32 } from "./isBech32.js";

const evmPattern = /^0x[0-9a-fA-F]{40}$/;
const hexPrefix = /^0x/i;

/**
 * Whether two spellings of a destination chain's address (or token) name the same thing, by the rule of that
 * chain's own format, taken from the destination network's `type` in the wallet's catalogue, never from the look
 * of the strings:
 * - `EVM`: 0x hex compares by its 20 bytes (case-insensitively); a mixed-case spelling must carry a valid EIP-55
 *   checksum; a string that is not an address compares exactly;
 * - `BITCOIN`: a bech32 or bech32m address (checksum valid, so single-case) compares in either case; anything
 *   else (base58check) exactly;
 * - `SOLANA`, `TRON`, an unknown network or none given: exactly (base58 is case-sensitive: the upper-case twin of
 *   a valid address is another valid address).
 */
export function sameDestinationAddress(input: {
  actual: string;
  expected: unknown;
  networkType: string | undefined;
}): boolean {
  const { actual, expected, networkType } = input;
  if (typeof expected !== "string") return false;
  if (networkType === "EVM") return sameEvmString(actual, expected);
  if (actual === expected) return true;
  if (networkType === "BITCOIN") {
    const a = readBech32(actual);
    return a !== null && a === readBech32(expected);
  }
  return false;
}

function sameEvmString(actual: string, expected: string): boolean {
  if (!hexPrefix.test(actual) && !hexPrefix.test(expected)) return actual === expected;
  const a = evmBytes(actual);
  return a !== null && a === evmBytes(expected);
}

/** The lowercase hex of a valid EVM address (single case as it is, mixed case with a valid EIP-55 checksum), or null. */
function evmBytes(value: string): string | null {
  if (!evmPattern.test(value)) return null;
  const body = value.slice(2);
  const singleCase = body === body.toLowerCase() || body === body.toUpperCase();
  return singleCase || Address.validate(value) ? value.toLowerCase() : null;
}

/** The lowercase form of a valid bech32 or bech32m string (checksum and single case checked), or null. */
function readBech32(value: string): string | null {
  return isBech32(value) ? value.toLowerCase() : null;
}
