import { createSwapIntentClient } from "@swapintent/client";
import { getPermit2Allowance } from "@swapintent/permit2/evm";
import { formatTronAddress, parseTronAddress, signTronPermit2Approval } from "@swapintent/permit2/tron";
import { createPublicClient, createWalletClient, defineChain, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { fundFromFaucet, getSandboxChain, readChainFact } from "./sandbox.js";
import { swap } from "./swap.js";

/**
 * USDT on the sandbox's Tron network (3) to USDC on its network 2, signed with a private key through TronWeb
 * (TIP-712). Tron addresses are base58 (`T…`) everywhere the service and the signer meet.
 */
export async function swapOnTron({ baseUrl, apiKey }: { baseUrl: string; apiKey: string }) {
  const tron = await getSandboxChain({ baseUrl, apiKey, networkId: 3 });
  const destination = await getSandboxChain({ baseUrl, apiKey, networkId: 2 });
  const chainId = Number(readChainFact(tron, "chainId"));
  const permit2 = readChainFact(tron, "permit2Address"); // base58
  const escrow = readChainFact(tron, "escrowAddress"); // base58
  const usdt = tron.info.tokens.USDT!;
  const destUsdc = destination.info.tokens.USDC!;

  const privateKey = generatePrivateKey(); // your wallet's key
  const account = privateKeyToAccount(privateKey);
  const owner = formatTronAddress({ address: account.address }); // the same key's base58 address
  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  await fundFromFaucet({ baseUrl, apiKey, networkId: 3, address: owner, token: "TRX", amount: "100" });
  await fundFromFaucet({ baseUrl, apiKey, networkId: 3, address: owner, token: usdt, amount: "10" });

  // The one-time TRC-20 allowance to Permit2. On Tron a wallet sends `approve` with TronWeb or TronLink; the sandbox
  // runs Tron's Permit2 on an EVM engine behind its `rpcUrl`, so here viem sends it with the 20-byte addresses.
  const chain = defineChain({
    id: chainId,
    name: tron.name,
    nativeCurrency: { name: "TRX", symbol: "TRX", decimals: 18 },
    rpcUrls: { default: { http: [readChainFact(tron, "rpcUrl")] } },
  });
  const publicClient = createPublicClient({ chain, transport: http() });
  const walletClient = createWalletClient({ account, chain, transport: http() });

  return swap({
    client: createSwapIntentClient({ baseUrl, apiKey }),
    from: { networkId: 3, token: usdt, address: owner },
    to: { networkId: 2, token: destUsdc, address: recipient },
    amount: "5",
    sign: async ({ intent, quote }) => {
      const allowance = await getPermit2Allowance({
        publicClient,
        token: parseTronAddress({ address: usdt }),
        owner: account.address,
        amount: quote.sourceAmountLots,
        permit2Address: parseTronAddress({ address: permit2 }),
      });
      if (!allowance.sufficient) {
        const hash = await walletClient.sendTransaction(allowance.approveTransaction);
        await publicClient.waitForTransactionReceipt({ hash });
      }
      const { approval } = await signTronPermit2Approval({
        intent,
        quote,
        expected: {
          chainId,
          recipient,
          spender: escrow,
          destination: { network: 2, token: destUsdc, decimals: 6, minAmountLots: quote.minDestAmountLots },
        },
        allowedPermit2Addresses: [permit2],
        privateKey, // or `tronLink: window.tronWeb`, or `signer: { address, signTypedData }`
      });
      return approval;
    },
  });
}
