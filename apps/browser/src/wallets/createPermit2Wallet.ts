import { signPermit2Approval } from "@swapintent/permit2/evm";
import { signTronPermit2Approval } from "@swapintent/permit2/tron";
import { createPermit2WalletBase } from "@swapintent/testing/permit2Wallet";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { BrowserWallet, ChainInfo } from "./types.js";

/**
 * A Permit2 wallet with a key generated in the browser: on an EVM network (viem local account, `@swapintent/permit2/evm`)
 * or on Tron (`tron: true`: base58 addresses, signed by tronweb through `@swapintent/permit2/tron`'s private-key path).
 * Both reach the chain through its JSON-RPC URL (the sandbox runs Tron's Permit2 on an EVM engine).
 */
export function createPermit2Wallet(params: { info: ChainInfo; tron: boolean }): BrowserWallet {
  const { info, tron } = params;
  const privateKey = generatePrivateKey();
  const account = privateKeyToAccount(privateKey);
  // The escrow the wallet trusts as Permit2 spender comes from its own chain facts (here the sandbox's), never from the intent.
  const { wallet, chainId, permit2, escrow } = createPermit2WalletBase({ info, tron, account });
  return {
    ...wallet,
    async approve({ intent, quote, recipient }) {
      const common = {
        intent,
        quote,
        expected: { chainId, recipient, owner: wallet.address, spender: escrow },
        allowedPermit2Addresses: [permit2],
      };
      const signed = tron
        ? await signTronPermit2Approval({ ...common, privateKey })
        : await signPermit2Approval({ ...common, signer: account });
      return { approval: signed.approval, summary: signed.verified.summary.lines };
    },
  };
}
