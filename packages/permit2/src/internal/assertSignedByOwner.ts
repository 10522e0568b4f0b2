import type { HexString } from "@swapintent/client";
import { normalizeSignature } from "../normalizeSignature.js";
import { createPermit2Error } from "./fail.js";

/**
 * Recovers the signer's 20-byte address from a digest and a 65-byte signature: viem's in `./evm`, ox's in `./tron`,
 * whichever the entry already bundles (so neither entry carries a second secp256k1 implementation).
 */
export type RecoverAddress = (input: { hash: HexString; signature: HexString }) => Promise<string> | string;

/**
 * The one check every wallet path ends with, whatever signed (a viem account, a WalletClient, an EIP-1193 provider,
 * TronWeb, TronLink): what the wallet returned is a 65-byte signature string with a low `s` (EIP-2; a wallet never
 * returns a high `s`, so one means it is not the wallet's own signature), normalized to v = 27/28, that RECOVERS to
 * the owner over the verified digest. A wallet that signed with another account, or signed other data, is refused
 * with `PERMIT2_SIGNER_MISMATCH` before the approval is submitted.
 */
export async function assertSignedByOwner(input: {
  signature: unknown;
  digest: HexString;
  owner20: HexString;
  recoverAddress: RecoverAddress;
}): Promise<HexString> {
  if (typeof input.signature !== "string")
    throw createPermit2Error("PERMIT2_SIGNATURE_INVALID", "The wallet returned no signature string.", {
      reason: "not-a-string",
    });
  const signature = normalizeSignature({ signature: input.signature });
  const sentS = input.signature.replace(/^0x/, "").slice(64, 128).toLowerCase();
  if (signature.slice(66, 130) !== sentS)
    throw createPermit2Error("PERMIT2_SIGNATURE_INVALID", "The wallet returned a high-s signature (EIP-2).", {
      reason: "high-s",
    });
  let recovered: string;
  try {
    recovered = await input.recoverAddress({ hash: input.digest, signature });
  } catch (cause) {
    throw createPermit2Error(
      "PERMIT2_SIGNATURE_INVALID",
      "The signature does not recover to an address.",
      { reason: "unrecoverable" },
      cause,
    );
  }
  if (recovered.toLowerCase() !== input.owner20.toLowerCase())
    throw createPermit2Error(
      "PERMIT2_SIGNER_MISMATCH",
      "The signature was not made by the owner over this permit.",
      { expected: input.owner20, recovered: recovered.toLowerCase() },
    );
  return signature;
}
