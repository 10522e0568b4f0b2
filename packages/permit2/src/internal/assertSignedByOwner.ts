import type { Hex } from "@swapintent/client";
import { normalizeSignature } from "../normalizeSignature.js";
import { createPermit2Error } from "./fail.js";

/** Recovers the signer's 20-byte address from a digest and a 65-byte signature (ox or viem, whichever the entry has). */
export type RecoverAddress = (input: { hash: Hex; signature: Hex }) => Promise<string> | string;

/**
 * Normalizes what a wallet returned (v to 27/28) and checks it recovers to the owner over `digest`,
 * so a wallet that signed something else is caught before the approval is submitted.
 */
export async function assertSignedByOwner(input: {
  signature: unknown;
  digest: Hex;
  owner20: Hex;
  recoverAddress: RecoverAddress;
}): Promise<Hex> {
  if (typeof input.signature !== "string")
    throw createPermit2Error("PERMIT2_SIGNATURE_INVALID", "The wallet returned no signature string.");
  const signature = normalizeSignature({ signature: input.signature });
  let recovered: string;
  try {
    recovered = await input.recoverAddress({ hash: input.digest, signature });
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
