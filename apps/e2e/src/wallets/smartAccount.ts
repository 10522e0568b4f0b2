import { verifyPermit2Approval } from "@swapintent/permit2";
import { signPermit2Approval } from "@swapintent/permit2/evm";
import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  type Hex,
  hashTypedData,
  http,
  serializeErc6492Signature,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { Redactor } from "../redact.js";
import { type ChainInfo, type DemoWallet, readFact } from "./types.js";

const FACTORY_ABI = [
  {
    type: "function",
    name: "getAccountAddress",
    stateMutability: "view",
    inputs: [
      { name: "owner", type: "address" },
      { name: "salt", type: "bytes32" },
    ],
    outputs: [{ name: "", type: "address" }],
  },
  {
    type: "function",
    name: "createAccount",
    stateMutability: "nonpayable",
    inputs: [
      { name: "owner", type: "address" },
      { name: "salt", type: "bytes32" },
    ],
    outputs: [{ name: "account", type: "address" }],
  },
] as const;

const SALT = `0x${"0".repeat(64)}` as Hex;

/**
 * A smart-account wallet on an EVM network, as a smart wallet behaves: the user's account is a sandbox
 * `SandboxSmartAccount` (ERC-1271) at its CREATE2 address from the network's `smartAccountFactory`, not deployed
 * yet; its owner key signs the account's replay-safe hash of the permit, and while the account has no code the
 * signature is wrapped in ERC-6492 with the factory call that deploys it. The signer checks it against the chain
 * (`publicClient`) as Permit2 will; the sandbox deploys the account before Permit2 runs. No gas and no allowance
 * transaction: the factory lets Permit2 move the network's tokens when it deploys the account.
 */
export async function createSmartAccountWallet(params: {
  info: ChainInfo;
  redactor: Redactor;
  /** 0x private key of the owner; a fresh one when absent. */
  ownerPrivateKey?: string;
}): Promise<DemoWallet> {
  const { info, redactor } = params;
  const ownerKey = (params.ownerPrivateKey ?? generatePrivateKey()) as Hex;
  redactor.add(ownerKey);
  const owner = privateKeyToAccount(ownerKey);
  const chainId = Number(readFact(info, "chainId"));
  const factory = readFact(info, "smartAccountFactory") as Address;
  const publicClient = createPublicClient({ transport: http(readFact(info, "rpcUrl")) });
  const address = await publicClient.readContract({
    address: factory,
    abi: FACTORY_ABI,
    functionName: "getAccountAddress",
    args: [owner.address, SALT],
  });
  const permit2 = readFact(info, "permit2Address");
  const escrow = readFact(info, "escrowAddress");
  const signer = {
    address,
    async signTypedData(typedData: Parameters<typeof hashTypedData>[0]) {
      const signature = await owner.signTypedData({
        domain: { name: "SandboxSmartAccount", version: "1", chainId, verifyingContract: address },
        types: { SandboxSmartAccountMessage: [{ name: "hash", type: "bytes32" }] },
        primaryType: "SandboxSmartAccountMessage",
        message: { hash: hashTypedData(typedData) },
      });
      const code = await publicClient.getCode({ address });
      if (code !== undefined && code !== "0x") return signature;
      const data = encodeFunctionData({
        abi: FACTORY_ABI,
        functionName: "createAccount",
        args: [owner.address, SALT],
      });
      return serializeErc6492Signature({ address: factory, data, signature });
    },
  };
  return {
    type: "EVM",
    address,
    publicKeyHex: undefined,
    gasFunding: null,
    prepare: async () => null,
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
          expected: { ...common.expected, chainType: "evm" },
        });
        return { approval: null, summary: verified.summary.lines };
      }
      const signed = await signPermit2Approval({ ...common, signer: signer as never, publicClient });
      return { approval: signed.approval, summary: signed.verified.summary.lines };
    },
  };
}
