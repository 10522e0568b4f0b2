import { signHtlcPsbt } from "@swapintent/bitcoin";
import type { Intent, Quote } from "@swapintent/client";
import { ECPairFactory } from "ecpair";
import * as ecc from "tiny-secp256k1"; // browsers: import * as ecc from "@bitcoinerlab/secp256k1"

/**
 * Verify the deposit PSBT (native segwit inputs, allowed fields, HTLC leaves, amount, change, dust, fee, sighash),
 * then sign the user's inputs. Every check finishes before the key is used.
 */
export async function signOnBitcoin(intent: Intent, quote: Quote, wif: string, resolverPublicKey: string) {
  const key = ECPairFactory(ecc).fromWIF(wif);
  const { approval, verified } = await signHtlcPsbt({
    ecc,
    intent,
    quote,
    userPublicKey: key.publicKey,
    signer: key, // or a wallet: an adapter of @swapintent/bitcoin/wallets, or { publicKey, signPsbt }
    policy: { resolverPublicKey, maxFeeLots: 20_000n },
  });
  // The txid is final before signing (native segwit inputs only): the refund path spends `${verified.txid}:0`.
  console.log(
    `HTLC ${verified.htlc.valueLots} sat in ${verified.txid}:0, fee ${verified.feeLots} sat, refundable after ${verified.htlc.csvBlocks} blocks`,
  );
  return approval;
}
