import { signHtlcPsbt } from "@swapintent/bitcoin";
import { createUnisatWalletSigner, type UnisatProvider } from "@swapintent/bitcoin/wallets";
import type { Intent, Quote } from "@swapintent/client";
import * as ecc from "tiny-secp256k1"; // browsers: import * as ecc from "@bitcoinerlab/secp256k1"

/**
 * Unisat (`window.unisat`): the deposit is verified first; then Unisat signs exactly the verified inputs
 * (`signPsbt(hex, { autoFinalized: false, toSignInputs })`), and its answer is re-checked before finalizing.
 */
export async function signWithUnisat(
  intent: Intent,
  quote: Quote,
  unisat: UnisatProvider & { getPublicKey(): Promise<string> },
) {
  const publicKey = await unisat.getPublicKey();
  const { approval } = await signHtlcPsbt({
    ecc,
    intent,
    quote,
    userPublicKey: publicKey,
    signer: createUnisatWalletSigner({ unisat, publicKey }),
  });
  return approval;
}
