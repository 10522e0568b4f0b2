import type { HexString } from "@swapintent/client";
import * as Base58 from "ox/Base58";
import * as Bytes from "ox/Bytes";
import * as Hash from "ox/Hash";
import * as OxHex from "ox/Hex";
import type { Permit2Error } from "../errors.js";
import { createPermit2Error } from "../internal/fail.js";

/** Parameters of {@link parseTronAddress}. */
export interface ParseTronAddressParameters {
  /** A Tron address in base58check form (`T…`). */
  address: string;
}

const base58Pattern = /^[1-9A-HJ-NP-Za-km-z]+$/;

/** What {@link parseTronAddress} returns. */
export type ParseTronAddressReturnType = HexString;

/** The error {@link parseTronAddress} throws. */
export type ParseTronAddressErrorType = Permit2Error<"PERMIT2_TRON_ADDRESS_INVALID">;

/**
 * Decodes a base58check Tron address (`T…`) to the 20-byte address TIP-712 hashes, as lowercase `0x` hex.
 * Validates the alphabet, the 25-byte length, the double-SHA-256 checksum and the `0x41` prefix.
 *
 * @throws `Permit2Error` with code `PERMIT2_TRON_ADDRESS_INVALID` when any of those checks fails.
 *
 * @example
 * ```ts
 * import { parseTronAddress } from "@swapintent/permit2";
 *
 * parseTronAddress({ address: "TJhSSbZ8dVqtEiLYgva1WWcV4R4NkRCARH" });
 * // "0x5fbdb2315678afecb367f032d93f642f64180aa3"
 * ```
 */
export function parseTronAddress({ address }: ParseTronAddressParameters): ParseTronAddressReturnType {
  if (typeof address !== "string" || !base58Pattern.test(address))
    throw createPermit2Error("PERMIT2_TRON_ADDRESS_INVALID", "Not a base58 string.", { address });
  // 25 bytes are at most 35 base58 characters; a longer text is refused before the (quadratic) base58 decode
  if (address.length > 35)
    throw createPermit2Error("PERMIT2_TRON_ADDRESS_INVALID", "A Tron address decodes to 25 bytes.", {
      address,
    });
  const zeros = address.length - address.replace(/^1+/, "").length;
  let hex = zeros === address.length ? "" : Base58.toHex(address.slice(zeros)).slice(2);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  const bytes = Bytes.fromHex(`0x${"00".repeat(zeros)}${hex}`);
  if (bytes.length !== 25)
    throw createPermit2Error("PERMIT2_TRON_ADDRESS_INVALID", "A Tron address decodes to 25 bytes.", {
      address,
      length: bytes.length,
    });
  const payload = bytes.slice(0, 21);
  const checksum = Hash.sha256(Hash.sha256(payload)).slice(0, 4);
  if (!Bytes.isEqual(checksum, bytes.slice(21)))
    throw createPermit2Error("PERMIT2_TRON_ADDRESS_INVALID", "The base58check checksum does not match.", {
      address,
    });
  if (payload[0] !== 0x41)
    throw createPermit2Error("PERMIT2_TRON_ADDRESS_INVALID", "A Tron address starts with the byte 0x41.", {
      address,
      prefix: payload[0]!,
    });
  return OxHex.fromBytes(payload.slice(1));
}
