import { hmac } from "@noble/hashes/hmac";
import { sha256 } from "@noble/hashes/sha2";
import {
  type Address,
  bytesToHex,
  createWalletClient,
  decodeAbiParameters,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  http,
  isErc6492Signature,
  parseErc6492Signature,
} from "viem";
import { type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { LegRejection } from "../../types.js";
import { loadSmartAccountContracts, type SmartAccountContracts } from "../loadSmartAccountContracts.js";
import { OPERATOR_NATIVE_BALANCE } from "./deployPermit2Contracts.js";
import type { Permit2Engine } from "./Permit2Engine.js";

/** A started leg's smart-account kit: the factory and the account that deploys accounts (it holds nothing else). */
interface SmartAccountKit {
  artifacts: SmartAccountContracts;
  /** Deploys the factory (nonce 0) and sends ERC-6492 factory calls: it holds only gas, no token and no allowance. */
  deployer: PrivateKeyAccount;
  factory: Address;
}

const kits = new WeakMap<Permit2Engine, SmartAccountKit>();

function kitOf(engine: Permit2Engine): SmartAccountKit {
  const kit = kits.get(engine);
  if (!kit) throw new LegRejection("LEG_NOT_STARTED", `${engine.setup.label} has no smart-account factory`);
  return kit;
}

/**
 * Deploy the sandbox's smart-account factory (`SandboxSmartAccountFactory`: CREATE2 accounts that approve Permit2
 * for the leg's tokens) from its own derived key at nonce 0, or find it in a restored state.
 */
export async function setUpSmartAccountFactory({ engine }: { engine: Permit2Engine }): Promise<void> {
  const { setup, contracts, client } = engine;
  const artifacts = await loadSmartAccountContracts();
  const key = hmac(
    sha256,
    setup.options.ctx.seed,
    new TextEncoder().encode(`swapintent/permit2-leg/${setup.options.ctx.network.id}/smart-account-deployer`),
  );
  const deployer = privateKeyToAccount(bytesToHex(key));
  const factory = getContractAddress({ from: deployer.address, nonce: 0n });
  const code = await client.getCode({ address: factory });
  if (!code || code === "0x") {
    await engine.serialize(async () => {
      await engine.ensureNativeBalance({ address: deployer.address, minimum: OPERATOR_NATIVE_BALANCE });
      const tokens = [...contracts.tokens.values()];
      const deployed = await engine.deploy({
        account: deployer,
        artifact: artifacts.SandboxSmartAccountFactory,
        args: [contracts.permit2, tokens],
      });
      if (deployed !== factory)
        throw new Error(`${setup.label}: the smart-account factory is not at ${factory}`);
      await engine.persist();
    });
  }
  kits.set(engine, { artifacts, deployer, factory });
}

/** The factory's address for `GET /sandbox/chains`, or undefined before it is set up. */
export function getSmartAccountFactory(engine: Permit2Engine): Address | undefined {
  return kits.get(engine)?.factory;
}

/** What `createSmartAccount` returns: the account's address and the ERC-6492 factory call that deploys it. */
export interface SmartAccountDescription {
  address: Address;
  factory: Address;
  factoryData: Hex;
  deployed: boolean;
  txHash?: Hex | undefined;
}

/** The account of `owner` and `salt`: its CREATE2 address, its factory call, and with `deploy` the account deployed. */
export async function createSmartAccount(input: {
  engine: Permit2Engine;
  owner: Address;
  salt: Hex;
  deploy: boolean;
}): Promise<SmartAccountDescription> {
  const { engine, owner, salt } = input;
  const kit = kitOf(engine);
  const abi = kit.artifacts.SandboxSmartAccountFactory.abi;
  const address = (await engine.client.readContract({
    address: kit.factory,
    abi,
    functionName: "getAccountAddress",
    args: [owner, salt],
  })) as Address;
  const factoryData = encodeFunctionData({ abi, functionName: "createAccount", args: [owner, salt] });
  const description = { address, factory: kit.factory, factoryData };
  if (!input.deploy) return { ...description, deployed: await hasCode(engine, address) };
  const txHash = await engine.serialize(async () => {
    if (await hasCode(engine, address)) return undefined;
    return engine.write({
      account: kit.deployer,
      to: kit.factory,
      abi,
      functionName: "createAccount",
      args: [owner, salt],
    });
  });
  return { ...description, deployed: true, txHash };
}

async function hasCode(engine: Permit2Engine, address: Address): Promise<boolean> {
  const code = await engine.client.getCode({ address });
  return code !== undefined && code !== "0x";
}

/**
 * The signature Permit2 gets for `owner`: as submitted, or for an ERC-6492 wrapper its inner signature, after the
 * wrapper's factory call has deployed the owner's account (Permit2 does not unwrap ERC-6492: the verifier deploys
 * first, as ERC-6492 describes). The factory call is simulated first and sent only when it deploys exactly
 * `owner`, from an account that holds nothing but gas; a wrapper for an owner already deployed is just unwrapped.
 */
export async function deployCounterfactualOwner(input: {
  engine: Permit2Engine;
  owner: Address;
  signature: Hex;
}): Promise<Hex> {
  const { engine, owner, signature } = input;
  if (!isErc6492Signature(signature)) return signature;
  const parts = parseErc6492Signature(signature);
  const factory = parts.address as Address;
  const factoryData = parts.data as Hex;
  if (await hasCode(engine, owner)) return parts.signature;
  const kit = kitOf(engine);
  const check = kit.artifacts.CounterfactualDeployCheck;
  const simulated = await engine.client
    .call({
      data: encodeDeployData({
        abi: check.abi,
        bytecode: check.bytecode,
        args: [owner, factory, factoryData],
      }),
    })
    .catch(() => undefined);
  const [ok, , codeAfter] = simulated?.data
    ? decodeAbiParameters([{ type: "bool" }, { type: "uint256" }, { type: "uint256" }], simulated.data)
    : [false, 0n, 0n];
  if (!ok || codeAfter === 0n)
    throw new LegRejection(
      "SIGNATURE_INVALID",
      "the ERC-6492 factory call does not deploy the owner's account",
    );
  await engine.serialize(async () => {
    if (await hasCode(engine, owner)) return;
    await engine.syncTime();
    const wallet = createWalletClient({
      account: kit.deployer,
      chain: engine.chain,
      transport: http(engine.anvil.rpcUrl, { retryCount: 0 }),
    });
    await engine.ensureNativeBalance({ address: kit.deployer.address, minimum: OPERATOR_NATIVE_BALANCE });
    const hash = await wallet.sendTransaction({ to: factory, data: factoryData });
    const receipt = await engine.client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    await engine.persist();
    if (receipt.status !== "success" || !(await hasCode(engine, owner)))
      throw new LegRejection(
        "SIGNATURE_INVALID",
        "the ERC-6492 factory call did not deploy the owner's account",
      );
  });
  return parts.signature;
}
