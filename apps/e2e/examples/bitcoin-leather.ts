import { isBitcoinError, signHtlcPsbt } from "@swapintent/bitcoin";
import { createLeatherWalletSigner, type LeatherProvider } from "@swapintent/bitcoin/wallets";
import type { Intent, Quote } from "@swapintent/client";
import * as ecc from "tiny-secp256k1"; // browsers: import * as ecc from "@bitcoinerlab/secp256k1"

/**
 * Leather (`window.LeatherProvider`): `request("signPsbt", { hex, signAtIndex, allowedSighash, broadcast: false })`
 * for exactly the verified inputs. A user who cancels gives `BTC_WALLET_REJECTED` with Leather's own code.
 */
export async function signWithLeather(
  intent: Intent,
  quote: Quote,
  leather: LeatherProvider,
  publicKey: string,
) {
  try {
    const signer = createLeatherWalletSigner({ leather, publicKey });
    const { approval } = await signHtlcPsbt({ ecc, intent, quote, userPublicKey: publicKey, signer });
    return approval;
  } catch (error) {
    if (isBitcoinError(error, "BTC_WALLET_REJECTED"))
      console.log(`Leather said no: ${error.details.message}`);
    throw error;
  }
}
