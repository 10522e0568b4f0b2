import { getPermit2Allowance, signPermit2Approval } from "@swapintent/permit2/evm";
import { formatTronAddress, parseTronAddress, signTronPermit2Approval } from "@swapintent/permit2/tron";
import { type Address, createPublicClient, createWalletClient, defineChain, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { type BrowserWallet, type ChainInfo, readFact } from "./types.js";

/**
 * A Permit2 wallet with a key generated in the browser: on an EVM network (viem local account, `@swapintent/permit2/evm`)
 * or on Tron (`tron: true`: base58 addresses, signed by tronweb through `@swapintent/permit2/tron`'s private-key path).
 * Both reach the chain through its JSON-RPC URL (the sandbox runs Tron's Permit2 on an EVM engine).
 */
export function createPermit2Wallet(params: { info: ChainInfo; tron: boolean }): BrowserWallet {
  const { info, tron } = params;
  const privateKey = generatePrivateKey();
  const account = privateKeyToAccount(privateKey);
  const address = tron ? formatTronAddress({ address: account.address }) : account.address;
  const chainId = Number(readFact(info, "chainId"));
  const permit2 = readFact(info, "permit2Address");
  const escrow = readFact(info, "escrowAddress");
  const to20 = (a: string) => (tron ? parseTronAddress({ address: a }) : (a as Address));
  const chain = defineChain({
    id: chainId,
    name: tron ? "tron" : "evm",
    nativeCurrency: { name: "native", symbol: "NAT", decimals: 18 },
    rpcUrls: { default: { http: [readFact(info, "rpcUrl")] } },
  });
  const publicClient = createPublicClient({ chain, transport: http(), pollingInterval: 50 });
  const tokens = (info.tokens ?? {}) as Record<string, string>;
  const native = tokens[tron ? "TRX" : "ETH"];
  return {
    type: tron ? "TRON" : "EVM",
    address,
    publicKeyHex: undefined,
    // The sandbox counts one sun (10^-6 TRX) as 10^12 wei of engine gas: an `approve` costs well under 1 TRX.
    gasFunding: native ? { token: native, amount: tron ? "100" : "1" } : null,
    async prepare({ token, amountLots }) {
      const allowance = await getPermit2Allowance({
        publicClient,
        token: to20(token),
        owner: account.address,
        amount: amountLots,
        permit2Address: to20(permit2),
      });
      if (allowance.sufficient) return null;
      const wallet = createWalletClient({ account, chain, transport: http() });
      const hash = await wallet.sendTransaction(allowance.approveTransaction);
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") throw new Error(`the Permit2 allowance transaction ${hash} reverted`);
      return hash;
    },
    async approve({ intent, quote, recipient }) {
      const common = {
        intent,
        quote,
        expected: { chainId, recipient, owner: address, spender: escrow },
        allowedPermit2Addresses: [permit2],
      };
      const signed = tron
        ? await signTronPermit2Approval({ ...common, privateKey })
        : await signPermit2Approval({ ...common, signer: account });
      return { approval: signed.approval, summary: signed.verified.summary.lines };
    },
  };
}
