// Internal: the caller's signer, read once. Its members may be getters (answering differently on each read, or
// throwing) or the signer a revoked proxy: every later step uses this copy, and a read that throws is
// `BTC_SIGNING_FAILED` (step `signer`), never an uncoded error.
import { signingFailed } from "../errors.js";
import type { KeySigner, PsbtWalletSigner } from "../types.js";

/** A copy of `signer`: its public key (bytes copied) and its methods, each called on the signer itself. */
export function readSigner(signer: KeySigner | PsbtWalletSigner): KeySigner | PsbtWalletSigner {
  try {
    const publicKey = Uint8Array.from(signer.publicKey);
    if ("signPsbt" in signer) {
      const { signPsbt } = signer;
      return { publicKey, signPsbt: (parameters) => signPsbt.call(signer, parameters) };
    }
    const { sign, signSchnorr, tweak } = signer;
    return {
      publicKey,
      sign: (hash) => sign.call(signer, hash),
      signSchnorr: signSchnorr && ((hash) => signSchnorr.call(signer, hash)),
      tweak: tweak && ((t) => tweak.call(signer, t)),
    };
  } catch (thrown) {
    throw signingFailed("signer", thrown);
  }
}
