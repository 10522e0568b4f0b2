import type { Hex } from "@swapintent/client";
import { createPermit2Error } from "./internal/fail.js";

/** Parameters of {@link normalizeSignature}. */
export interface NormalizeSignatureParameters {
  /** A 65-byte `r ‖ s ‖ v` signature as hex (with or without `0x`); `v` may be 0/1 or 27/28. */
  signature: string;
}

const signaturePattern = /^(0x)?[0-9a-fA-F]{130}$/;

/**
 * Returns the 65-byte signature as lowercase `0x` hex with `v` normalized to 27 or 28, whichever form
 * (0/1 or 27/28) the wallet returned. Permit2 and the service expect 27/28.
 *
 * @throws `BaseError` with code `PERMIT2_SIGNATURE_INVALID` when the input is not 65 bytes of hex or `v` is not 0, 1, 27 or 28.
 *
 * @example
 * ```ts
 * import { normalizeSignature } from "@swapintent/permit2";
 *
 * const signature = normalizeSignature({ signature: await device.signTypedData(typedData) }); // v 0/1 -> 27/28
 * ```
 */
export function normalizeSignature({ signature }: NormalizeSignatureParameters): Hex {
  if (typeof signature !== "string" || !signaturePattern.test(signature))
    throw createPermit2Error("PERMIT2_SIGNATURE_INVALID", "A signature is 65 bytes of hex.", {
      length: typeof signature === "string" ? signature.replace(/^0x/, "").length / 2 : null,
    });
  const body = signature.replace(/^0x/, "").toLowerCase();
  const v = Number.parseInt(body.slice(128), 16);
  let normalized: number;
  if (v === 0 || v === 1) normalized = v + 27;
  else if (v === 27 || v === 28) normalized = v;
  else
    throw createPermit2Error("PERMIT2_SIGNATURE_INVALID", "The signature's v is not 0, 1, 27 or 28.", { v });
  return `0x${body.slice(0, 128)}${normalized.toString(16)}`;
}
