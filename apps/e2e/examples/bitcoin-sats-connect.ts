import { signHtlcPsbt } from "@swapintent/bitcoin";
import { createSatsConnectWalletSigner, type SatsConnectRequest } from "@swapintent/bitcoin/wallets";
import type { Intent, Quote } from "@swapintent/client";
import * as ecc from "tiny-secp256k1"; // browsers: import * as ecc from "@bitcoinerlab/secp256k1"

/**
 * Xverse and the other sats-connect wallets: pass sats-connect's `request` and the user's key (from
 * `request("getAddresses", …)`). The wallet is asked for `signPsbt` with `signInputs` by the user's addresses and
 * `broadcast: false`; an `{ status: "error" }` answer is `BTC_WALLET_REJECTED`.
 */
export async function signWithSatsConnect(
  intent: Intent,
  quote: Quote,
  request: SatsConnectRequest,
  publicKey: string,
) {
  const { approval } = await signHtlcPsbt({
    ecc,
    intent,
    quote,
    userPublicKey: publicKey,
    signer: createSatsConnectWalletSigner({ request, publicKey, bech32Prefix: "bc" }),
  });
  return approval;
}
