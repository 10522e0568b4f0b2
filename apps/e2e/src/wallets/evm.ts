import { verifyPermit2Approval } from "@swapintent/permit2";
import { getPermit2Allowance, signPermit2Approval } from "@swapintent/permit2/evm";
import { formatTronAddress, parseTronAddress, signTronPermit2Approval } from "@swapintent/permit2/tron";
import { type Address, createPublicClient, createWalletClient, defineChain, type Hex, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { Redactor } from "../redact.js";
import { type ChainInfo, type DemoWallet, readFact } from "./types.js";

/**
 * A Permit2 wallet on an EVM network (`tron: false`) or on Tron (`tron: true`, base58 addresses, TronWeb signing).
 * Both talk to the chain through its JSON-RPC URL (the sandbox runs Tron's Permit2 on an EVM engine).
 */
export function createPermit2Wallet(params: {
  info: ChainInfo;
  tron: boolean;
  redactor: Redactor;
  /** 0x private key; a fresh one when absent. */
  privateKey?: string;
}): DemoWallet {
  const { info, tron, redactor } = params;
  const privateKey = (params.privateKey ?? generatePrivateKey()) as Hex;
  redactor.add(privateKey);
  const account = privateKeyToAccount(privateKey);
  const address = tron ? formatTronAddress({ address: account.address }) : account.address;
  const chainId = Number(readFact(info, "chainId"));
  const permit2 = readFact(info, "permit2Address");
  // The escrow the wallet trusts as Permit2 spender: from its own chain facts (here the sandbox's), never from the intent.
  const escrow = readFact(info, "escrowAddress");
  const toHex = (a: string) => (tron ? parseTronAddress({ address: a }) : (a as Address));
  const chain = defineChain({
    id: chainId,
    name: tron ? "tron" : "evm",
    nativeCurrency: { name: "native", symbol: "NAT", decimals: 18 },
    rpcUrls: { default: { http: [readFact(info, "rpcUrl")] } },
  });
  const publicClient = createPublicClient({ chain, transport: http(), pollingInterval: 50 });
  const tokens = (info.tokens ?? {}) as Record<string, string>;
  const native = Object.entries(tokens).find(([symbol]) => symbol === (tron ? "TRX" : "ETH"));

  return {
    type: tron ? "TRON" : "EVM",
    address,
    publicKeyHex: undefined,
    // Gas for the one-time Permit2 allowance. The sandbox runs Tron's Permit2 on an EVM engine that counts one sun
    // (10^-6 TRX) as 10^12 wei, so fees keep Tron's scale: an `approve` costs well under 1 TRX; 100 TRX is plenty.
    gasFunding: native ? { token: native[1], amount: tron ? "100" : "1" } : null,
    async prepare({ token, amountLots }) {
      const allowance = await getPermit2Allowance({
        publicClient,
        token: toHex(token),
        owner: account.address,
        amount: amountLots,
        permit2Address: toHex(permit2),
      });
      if (allowance.sufficient) return null;
      const wallet = createWalletClient({ account, chain, transport: http() });
      const hash = await wallet.sendTransaction(allowance.approveTransaction);
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") throw new Error(`the Permit2 allowance transaction ${hash} reverted`);
      return hash;
    },
    async approve({ intent, quote, recipient, dryRun }) {
      const common = {
        intent,
        quote,
        expected: { chainId, recipient, owner: address, spender: escrow },
        allowedPermit2Addresses: [permit2],
      };
      if (dryRun) {
        const verified = verifyPermit2Approval({
          ...common,
          expected: { ...common.expected, chainType: tron ? "tron" : "evm" },
        });
        return { approval: null, summary: verified.summary.lines };
      }
      const signed = tron
        ? await signTronPermit2Approval({ ...common, privateKey })
        : await signPermit2Approval({ ...common, signer: account });
      return { approval: signed.approval, summary: signed.verified.summary.lines };
    },
  };
}
