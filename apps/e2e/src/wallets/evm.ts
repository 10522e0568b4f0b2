import { verifyPermit2Approval } from "@swapintent/permit2";
import { signPermit2Approval } from "@swapintent/permit2/evm";
import { signTronPermit2Approval } from "@swapintent/permit2/tron";
import { createPermit2WalletBase } from "@swapintent/testing/permit2Wallet";
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { Redactor } from "../redact.js";
import type { ChainInfo, DemoWallet } from "./types.js";

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
  // The escrow the wallet trusts as Permit2 spender comes from its own chain facts (here the sandbox's), never from the intent.
  const { wallet, chainId, permit2, escrow } = createPermit2WalletBase({ info, tron, account });
  return {
    ...wallet,
    async approve({ intent, quote, recipient, dryRun }) {
      const common = {
        intent,
        quote,
        expected: { chainId, recipient, owner: wallet.address, spender: escrow },
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
