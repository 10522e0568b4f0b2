import { createSwapIntentClient, type SwapIntentClient } from "@swapintent/client";
import { getPermit2Allowance, signPermit2Approval } from "@swapintent/permit2/evm";
import { type Address, createPublicClient, createWalletClient, defineChain, type Hex, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { fundFromFaucet, getSandboxChain, readChainFact } from "./sandbox.js";
import { swap } from "./swap.js";

/**
 * USDC on the sandbox's network 1 (an EVM chain) to USDC on its network 2 (an L2), signed by a viem local account:
 * fund, give Permit2 its one-time allowance, verify and sign the permit, submit, wait for Fulfilled.
 */
export async function swapOnEvm({
  baseUrl,
  apiKey,
  client = createSwapIntentClient({ baseUrl, apiKey }), // or a client that signs its requests (request signing guide)
}: {
  baseUrl: string;
  apiKey: string;
  client?: SwapIntentClient;
}) {
  const source = await getSandboxChain({ baseUrl, apiKey, networkId: 1 });
  const destination = await getSandboxChain({ baseUrl, apiKey, networkId: 2 });
  // The wallet's own facts about its chain: here the sandbox's, on a real network its configuration.
  const chainId = Number(readChainFact(source, "chainId"));
  const permit2 = readChainFact(source, "permit2Address") as Address;
  const escrow = readChainFact(source, "escrowAddress");
  const usdc = source.info.tokens.USDC as Address;
  const destUsdc = destination.info.tokens.USDC!;

  const account = privateKeyToAccount(generatePrivateKey()); // your wallet's key
  const recipient = privateKeyToAccount(generatePrivateKey()).address; // what the user typed
  await fundFromFaucet({
    baseUrl,
    apiKey,
    networkId: 1,
    address: account.address,
    token: "ETH",
    amount: "1",
  });
  await fundFromFaucet({
    baseUrl,
    apiKey,
    networkId: 1,
    address: account.address,
    token: usdc,
    amount: "10",
  });

  const chain = defineChain({
    id: chainId,
    name: source.name,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [readChainFact(source, "rpcUrl")] } },
  });
  const publicClient = createPublicClient({ chain, transport: http() });
  const walletClient = createWalletClient({ account, chain, transport: http() });

  return swap({
    client,
    from: { networkId: 1, token: usdc, address: account.address },
    to: { networkId: 2, token: destUsdc, address: recipient },
    amount: "5",
    sign: async ({ intent, quote }) => {
      // Permit2 pulls the tokens with an ordinary ERC-20 allowance, given once.
      const allowance = await getPermit2Allowance({
        publicClient,
        token: usdc,
        owner: account.address,
        amount: quote.sourceAmountLots,
        permit2Address: permit2,
      });
      if (!allowance.sufficient) {
        const hash: Hex = await walletClient.sendTransaction(allowance.approveTransaction);
        await publicClient.waitForTransactionReceipt({ hash });
      }
      const { approval, verified } = await signPermit2Approval({
        intent,
        quote,
        // From the wallet's state, never from the service: its chain, the user's own address and what they typed,
        // the escrow it trusts as spender, and the destination it expects (network, token, decimals, least amount).
        expected: {
          chainId,
          owner: account.address,
          recipient,
          spender: escrow,
          // minAmountLots: the least the user accepted on the quote screen.
          destination: { network: 2, token: destUsdc, decimals: 6, minAmountLots: quote.minDestAmountLots },
        },
        allowedPermit2Addresses: [permit2], // the sandbox's Permit2 is not at the canonical address
        signer: account, // or a viem WalletClient, or `provider: window.ethereum`
      });
      console.log(verified.summary.lines.join("\n")); // what the user approves
      return approval;
    },
  });
}
