/**
 * What the permit2 snippet tests share: a funded user of the sandbox with an open intent and the one-time Permit2
 * allowance, and the wallet's own facts (its chain, the destination it expects) the snippets take.
 */
import { createSwapIntentClient } from "@swapintent/client";
import type { Permit2DestinationExpectation } from "@swapintent/permit2";
import { createDevApi } from "@swapintent/testing/devApi";
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { Redactor } from "../src/redact.js";
import { createPermit2Wallet } from "../src/wallets/evm.js";
import { readFact } from "../src/wallets/types.js";

export const PERMIT2_TEST_API_KEY = "readme-permit2";

/** What {@link openPermit2Intent} returns; `args` are the snippets' parameters after the wallet. */
export type OpenPermit2Intent = Awaited<ReturnType<typeof openPermit2Intent>>;

/** A funded user with an open intent from `sourceNetwork` (1: EVM USDC, 3: Tron USDT) to network 2's USDC. */
export async function openPermit2Intent(sandboxUrl: string, sourceNetwork: 1 | 3) {
  const tron = sourceNetwork === 3;
  const dev = createDevApi({ baseUrl: sandboxUrl, apiKey: PERMIT2_TEST_API_KEY });
  const chains = await dev.chains();
  const source = chains.find((c) => c.network_id === sourceNetwork)!;
  const dest = chains.find((c) => c.network_id === 2)!;
  const sourceToken = (source.info.tokens as Record<string, string>)[tron ? "USDT" : "USDC"]!;
  const destUsdc = (dest.info.tokens as Record<string, string>).USDC!;
  const privateKey = generatePrivateKey();
  const wallet = createPermit2Wallet({ info: source.info, tron, redactor: new Redactor(), privateKey });
  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  await dev.faucet({
    networkId: sourceNetwork,
    address: wallet.address,
    token: tron ? "TRX" : "ETH",
    amount: "1",
  });
  await dev.faucet({ networkId: sourceNetwork, address: wallet.address, token: sourceToken, amount: "10" });
  const client = createSwapIntentClient({ baseUrl: sandboxUrl, apiKey: PERMIT2_TEST_API_KEY });
  const quote = await client.getBestQuote({
    sourceChain: sourceNetwork,
    sourceToken,
    destChain: 2,
    destToken: destUsdc,
    amount: "5",
    slippageBps: 50,
  });
  const intent = await client.createIntent({
    quote,
    refundAddress: wallet.address,
    userSourceAddress: wallet.address,
    userDestinationAddress: recipient,
  });
  await wallet.prepare({ token: sourceToken, amountLots: quote.sourceAmountLots });
  const chain = {
    chainId: Number(readFact(source.info, "chainId")),
    permit2: readFact(source.info, "permit2Address"),
    escrow: readFact(source.info, "escrowAddress"),
  };
  const destination: Permit2DestinationExpectation = {
    network: 2,
    token: destUsdc,
    decimals: 6,
    minAmountLots: quote.minDestAmountLots,
  };
  const args = [intent, quote, recipient, chain, destination] as const;
  return {
    dev,
    client,
    privateKey: privateKey as Hex,
    address: wallet.address,
    intent,
    quote,
    args,
    recipient,
    destUsdc,
  };
}
