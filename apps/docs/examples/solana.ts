import { Keypair } from "@solana/web3.js";
import { createSwapIntentClient } from "@swapintent/client";
import { signCosignTransaction } from "@swapintent/solana";
import { fundFromFaucet, getSandboxChain, readChainFact } from "./sandbox.js";
import { swap } from "./swap.js";

/**
 * USDC on the sandbox's Solana network (5) to USDC on its network 1. The resolver pays the fee; the user adds only
 * their own signature, after the transaction is checked against the quote, the intent and the escrow.
 */
export async function swapOnSolana({ baseUrl, apiKey }: { baseUrl: string; apiKey: string }) {
  const solana = await getSandboxChain({ baseUrl, apiKey, networkId: 5 });
  const destination = await getSandboxChain({ baseUrl, apiKey, networkId: 1 });
  // The escrow the wallet trusts to receive the tokens: a fact of its configuration, never of the intent.
  const escrowOwner = readChainFact(solana, "escrowOwner");
  const usdc = solana.info.tokens.USDC!;

  const user = Keypair.generate(); // your wallet's key
  const address = user.publicKey.toBase58();
  const recipient = "0x3279d973d95E8A532f541Dd3c18B8dC621CBDe91"; // what the user typed
  await fundFromFaucet({ baseUrl, apiKey, networkId: 5, address, token: usdc, amount: "40" });

  return swap({
    client: createSwapIntentClient({ baseUrl, apiKey }),
    from: {
      networkId: 5,
      token: usdc,
      address,
      publicKey: Buffer.from(user.publicKey.toBytes()).toString("hex"),
    },
    to: { networkId: 1, token: destination.info.tokens.USDC!, address: recipient },
    amount: "20",
    sign: async ({ intent, quote }) => {
      const { approval } = await signCosignTransaction({
        intent,
        quote,
        escrow: { owner: escrowOwner },
        signer: user, // or a wallet adapter's { publicKey, signTransaction }, or @swapintent/solana/kit
      });
      return approval;
    },
  });
}
