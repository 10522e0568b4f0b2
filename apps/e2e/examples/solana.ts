import type { Keypair } from "@solana/web3.js";
import type { Intent, Quote } from "@swapintent/client";
import { signCosignTransaction } from "@swapintent/solana";

/** Verify the co-signed transaction (canonical bytes, signer slots, programs, outflow to the escrow, no authority grant or other role for the user, the exact memo), then sign. */
export async function signOnSolana(intent: Intent, quote: Quote, user: Keypair, escrowOwner: string) {
  const { approval } = await signCosignTransaction({
    intent,
    quote,
    escrow: { owner: escrowOwner },
    signer: user, // or a wallet adapter's { publicKey, signTransaction }, or an ed25519 signMessage
  });
  return approval;
}
