import * as Base58 from "ox/Base58";
import * as Bytes from "ox/Bytes";
import * as Hash from "ox/Hash";
import type { Permit2Error } from "../errors.js";
import { createPermit2Error } from "../internal/fail.js";

/** Parameters of {@link formatTronAddress}. */
export interface FormatTronAddressParameters {
  /** A 20-byte address as `0x` hex, or the 21-byte Tron hex form `41…` (with or without `0x`). */
  address: string;
}

const hex20 = /^(0x)?[0-9a-fA-F]{40}$/;
const hex21 = /^(0x)?41[0-9a-fA-F]{40}$/;

/** What {@link formatTronAddress} returns. */
export type FormatTronAddressReturnType = string;

/** The error {@link formatTronAddress} throws. */
export type FormatTronAddressErrorType = Permit2Error<"PERMIT2_TRON_ADDRESS_INVALID">;

/**
 * Encodes a 20-byte address as a base58check Tron address (`T…`): `0x41 ‖ address ‖ sha256(sha256(…))[0..4]`.
 *
 * @throws `Permit2Error` with code `PERMIT2_TRON_ADDRESS_INVALID` when the input is not 20 bytes of hex (or `41` + 20 bytes).
 *
 * @example
 * ```ts
 * import { formatTronAddress } from "@swapintent/permit2";
 *
 * formatTronAddress({ address: "0x5FbDB2315678afecb367f032d93F642f64180aa3" });
 * // "TJhSSbZ8dVqtEiLYgva1WWcV4R4NkRCARH"
 * ```
 */
export function formatTronAddress({ address }: FormatTronAddressParameters): FormatTronAddressReturnType {
  let body: string;
  if (typeof address === "string" && hex20.test(address)) body = address.replace(/^0x/, "");
  else if (typeof address === "string" && hex21.test(address)) body = address.replace(/^0x/, "").slice(2);
  else
    throw createPermit2Error("PERMIT2_TRON_ADDRESS_INVALID", "Expected a 20-byte hex address.", { address });
  const payload = Bytes.fromHex(`0x41${body.toLowerCase()}`);
  const checksum = Hash.sha256(Hash.sha256(payload)).slice(0, 4);
  return Base58.fromBytes(Bytes.concat(payload, checksum));
}
