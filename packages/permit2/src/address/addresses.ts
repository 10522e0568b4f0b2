import type { HexString } from "@swapintent/client";
import * as Address from "ox/Address";
import { createPermit2Error } from "../internal/fail.js";
import { parseTronAddress } from "./parseTronAddress.js";

/** The address family of a permit: EVM hex or Tron base58check. */
export type ChainKind = "evm" | "tron";

const evmPattern = /^0x[0-9a-fA-F]{40}$/;
const tronPattern = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;

/** Which family an address string belongs to, by its shape (no checksum check yet). */
export function detectChainKind(address: unknown): ChainKind | null {
  if (typeof address !== "string") return null;
  if (evmPattern.test(address)) return "evm";
  if (tronPattern.test(address)) return "tron";
  return null;
}

/**
 * The 20 bytes behind an address of the given family, as lowercase `0x` hex. EVM: mixed case must carry a
 * valid EIP-55 checksum. Tron: base58check with checksum and `0x41` prefix.
 */
export function toAddress20(kind: ChainKind, value: unknown, field: string): HexString {
  if (kind === "evm") {
    if (typeof value !== "string" || !evmPattern.test(value) || !Address.validate(value))
      throw createPermit2Error("PERMIT2_ADDRESS_INVALID", `${field} is not a valid EVM address.`, {
        field,
        value,
      });
    return value.toLowerCase() as HexString;
  }
  if (typeof value !== "string" || !tronPattern.test(value))
    throw createPermit2Error("PERMIT2_ADDRESS_INVALID", `${field} is not a Tron base58 address.`, {
      field,
      value,
    });
  try {
    return parseTronAddress({ address: value });
  } catch (cause) {
    throw createPermit2Error(
      "PERMIT2_ADDRESS_INVALID",
      `${field} is not a valid Tron address.`,
      { field, value },
      cause,
    );
  }
}

/** An address given by the caller in either family's form (Tron base58 or 0x hex), as 20 lowercase bytes, or null. */
export function anyAddressTo20(value: string): HexString | null {
  const kind = detectChainKind(value);
  if (kind === null) return null;
  try {
    return toAddress20(kind, value, "address");
  } catch {
    return null;
  }
}
