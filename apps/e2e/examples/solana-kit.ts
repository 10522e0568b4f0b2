import type { Intent, Quote } from "@swapintent/client";
import { type KitCosignSigner, signCosignTransactionWithKit } from "@swapintent/solana/kit";

/** With @solana/kit and no web3.js: verify the co-signed transaction from its bytes, then sign with a Kit signer. */
export async function signOnSolanaWithKit(
  intent: Intent,
  quote: Quote,
  signer: KitCosignSigner,
  escrowOwner: string,
) {
  const { approval } = await signCosignTransactionWithKit({
    intent,
    quote,
    escrow: { owner: escrowOwner },
    signer, // a Kit KeyPairSigner (generateKeyPairSigner(), createKeyPairSignerFromBytes(…)) or any TransactionPartialSigner
  });
  return approval;
}
