import { Keypair } from "@solana/web3.js";
import { signCosignTransaction } from "@swapintent/solana";
import { createSignOnlyWalletBase } from "@swapintent/testing/wallet";
import { type BrowserWallet, type ChainInfo, readFact, toHex } from "./types.js";

/** A Solana wallet holding an ed25519 web3.js `Keypair` generated in the browser. */
export function createSolanaWallet(params: { info: ChainInfo }): BrowserWallet {
  const keypair = Keypair.generate();
  const address = keypair.publicKey.toBase58();
  const escrow = { owner: readFact(params.info, "escrowOwner") };
  return {
    ...createSignOnlyWalletBase({
      type: "SOLANA",
      address,
      publicKeyHex: toHex(keypair.publicKey.toBytes()),
    }),
    async approve({ intent, quote }) {
      const signed = await signCosignTransaction({ intent, quote, escrow, signer: keypair });
      return {
        approval: signed.approval,
        summary: [
          `Cosign the transfer of ${quote.sourceAmountLots} lots to the escrow (owner ${escrow.owner})`,
        ],
      };
    },
  };
}
