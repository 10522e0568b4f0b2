import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Permit2EvmSigner, Permit2EvmTypedData } from "@swapintent/permit2/evm";
import {
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  type Hex,
  hashTypedData,
  http,
  type PublicClient,
  serializeErc6492Signature,
  type Transport,
  type WalletClient,
} from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { compileSolidity } from "../../src/legs/evm/compileSolidity.js";
import type { ChainLeg } from "../../src/legs/types.js";

/** The leg's anvil as viem clients (the test's own view of the chain, as a wallet would have it). */
export function createLegClients(leg: ChainLeg): {
  publicClient: PublicClient;
  walletOf: (account: PrivateKeyAccount) => WalletClient<Transport, Chain, PrivateKeyAccount>;
} {
  const info = leg.info();
  const chain = defineChain({
    id: info.chainId as number,
    name: "sandbox",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [info.rpcUrl as string] } },
  });
  return {
    publicClient: createPublicClient({ chain, transport: http() }),
    walletOf: (account: PrivateKeyAccount) => createWalletClient({ account, chain, transport: http() }),
  };
}

/** The hash a `SandboxSmartAccount`'s owner key signs for `hash` (EIP-712 over the account's own domain). */
export function getReplaySafeHash(input: { account: Address; chainId: number; hash: Hex }): Hex {
  return hashTypedData({
    domain: {
      name: "SandboxSmartAccount",
      version: "1",
      chainId: input.chainId,
      verifyingContract: input.account,
    },
    types: { SandboxSmartAccountMessage: [{ name: "hash", type: "bytes32" }] },
    primaryType: "SandboxSmartAccountMessage",
    message: { hash: input.hash },
  });
}

/**
 * A wallet of a sandbox smart account, as smart wallets behave: asked for typed data, its owner key signs the
 * account's replay-safe hash of it (`sign` of the owner, 65 bytes); wrapped in ERC-6492 when `counterfactual` is
 * given. `hashOverride` makes it sign another hash (a tampered wallet).
 */
export function createSmartWalletSigner(input: {
  owner: PrivateKeyAccount;
  account: Address;
  chainId: number;
  counterfactual?: { factory: Address; factoryData: Hex } | undefined;
  tamper?: ((typedData: Permit2EvmTypedData) => Hex) | undefined;
}): Permit2EvmSigner {
  return {
    address: input.account,
    async signTypedData(typedData) {
      const hash =
        input.tamper?.(typedData) ?? hashTypedData(typedData as Parameters<typeof hashTypedData>[0]);
      const signature = await input.owner.sign({
        hash: getReplaySafeHash({ account: input.account, chainId: input.chainId, hash }),
      });
      if (!input.counterfactual) return signature;
      return serializeErc6492Signature({
        address: input.counterfactual.factory,
        data: input.counterfactual.factoryData,
        signature,
      });
    },
  };
}

/** A sandbox smart account of a fresh owner key, from the leg (deployed unless `deploy` is false). */
export async function createSandboxSmartAccount(input: { leg: ChainLeg; deploy: boolean; salt?: Hex }) {
  const owner = privateKeyToAccount(generatePrivateKey());
  const salt = input.salt ?? (`0x${"0".repeat(63)}1` as Hex);
  const described = await (input.leg.smartAccount as NonNullable<ChainLeg["smartAccount"]>)({
    owner: owner.address,
    salt,
    deploy: input.deploy,
  });
  return {
    owner,
    address: described.address as Address,
    factory: described.factory as Address,
    factoryData: described.factory_data as Hex,
  };
}

/**
 * Deploy the test account `contract` (test/contracts/`contract`.sol: a constructor taking Permit2's address and an
 * `approvePermit2(token)`), and let Permit2 move `token` from it.
 */
export async function deployTestAccount(input: {
  leg: ChainLeg;
  token: Address;
  contract: string;
}): Promise<Address> {
  const { contract } = input;
  const source = readFileSync(join(import.meta.dirname, "..", "contracts", `${contract}.sol`), "utf8");
  const { [contract]: artifact } = await compileSolidity({
    label: `test-${contract}`,
    sources: { [`${contract}.sol`]: source },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      metadata: { bytecodeHash: "none" },
      evmVersion: "london",
    },
    contracts: [`${contract}.sol:${contract}`],
  });
  if (!artifact) throw new Error(`${contract} did not compile`);
  const deployer = privateKeyToAccount(generatePrivateKey());
  const { publicClient, walletOf } = createLegClients(input.leg);
  await input.leg.faucet({
    address: deployer.address,
    token: "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE",
    amountLots: 10n ** 18n,
  });
  const wallet = walletOf(deployer);
  const hash = await wallet.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    args: [input.leg.info().permit2Address as Address],
  });
  const address = (await publicClient.waitForTransactionReceipt({ hash })).contractAddress as Address;
  const approve = await wallet.sendTransaction({
    to: address,
    data: encodeFunctionData({ abi: artifact.abi, functionName: "approvePermit2", args: [input.token] }),
  });
  await publicClient.waitForTransactionReceipt({ hash: approve });
  return address;
}
