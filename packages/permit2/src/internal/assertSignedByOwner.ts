import type { Hex } from "@swapintent/client";
import * as Secp256k1 from "ox/Secp256k1";
import * as Signature from "ox/Signature";
import { normalizeSignature } from "../normalizeSignature.js";
import { createPermit2Error } from "./fail.js";

/**
 * Normalizes what a wallet returned (v to 27/28) and checks it recovers to the owner over `digest`,
 * so a wallet that signed something else is caught before the approval is submitted.
 */
export function assertSignedByOwner(input: { signature: unknown; digest: Hex; owner20: Hex }): Hex {
  if (typeof input.signature !== "string")
    throw createPermit2Error("PERMIT2_SIGNATURE_INVALID", "The wallet returned no signature string.");
  const signature = normalizeSignature({ signature: input.signature });
  let recovered: string;
  try {
    recovered = Secp256k1.recoverAddress({ payload: input.digest, signature: Signature.fromHex(signature) });
  } catch (cause) {
    throw createPermit2Error(
      "PERMIT2_SIGNATURE_INVALID",
      "The signature does not recover to an address.",
      {},
      cause,
    );
  }
  if (recovered.toLowerCase() !== input.owner20.toLowerCase())
    throw createPermit2Error(
      "PERMIT2_SIGNATURE_INVALID",
      "The signature was not made by the owner over this permit.",
      { owner: input.owner20, recovered },
    );
  return signature;
}
