import {
  type Abi,
  type Address,
  type Chain,
  type Client,
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeDeployData,
  getAddress,
  type Hex,
  type HttpTransport,
  http,
  type PublicActions,
  type PublicRpcSchema,
  type TestActions,
  testActions,
} from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import type { Clock } from "../../types.js";
import { LegRejection } from "../../types.js";
import type { ContractArtifact } from "../compileSolidity.js";
import { mapRevertToRejection } from "../mapRevertToRejection.js";
import { persistAnvilState } from "../persistAnvilState.js";
import type { AnvilProcess } from "../startAnvil.js";
import type { SavingRpcProxy } from "../startSavingRpcProxy.js";
import type { Permit2LegSetup } from "./types.js";

/** Where the leg's contracts are (deterministic from the deployer's nonces) and the ABIs to call them with. */
export interface Permit2LegContracts {
  permit2: Address;
  escrow: Address;
  /** Token symbol to address, for every ERC-20 of the leg's options. */
  tokens: ReadonlyMap<string, Address>;
  abis: {
    permit2: Abi;
    /** The escrow's ABI plus the errors of Permit2 and the tokens, so any revert under it decodes. */
    escrow: Abi;
    token: Abi;
  };
}

/** The escrow's `LockState` enum, by value. */
const LOCK_STATE = ["None", "Locked", "Claimed", "Refunded"] as const;

/** An escrow lock as the contract stores it. */
export interface EscrowLock {
  owner: Address;
  deadline: bigint;
  state: (typeof LOCK_STATE)[number];
  token: Address;
  amount: bigint;
  secretHash: Hex;
}

/** The client a started leg talks to anvil with: viem's public actions plus anvil's own (time, balances, state). */
export type Permit2EngineClient = Client<
  HttpTransport,
  Chain,
  undefined,
  PublicRpcSchema,
  PublicActions<HttpTransport, Chain> & TestActions
>;

function createEngineClient({ chain, rpcUrl }: { chain: Chain; rpcUrl: string }): Permit2EngineClient {
  return createPublicClient({
    chain,
    transport: http(rpcUrl, { retryCount: 0 }),
    pollingInterval: 20,
  }).extend(testActions({ mode: "anvil" }));
}

/**
 * A started permit2 leg's engine: the anvil process, a client, the contracts, and the leg's writes. Writes run one
 * at a time through {@link Permit2Engine.serialize} (nonces, timestamps and state dumps stay in order), follow the
 * sandbox clock, and save the engine's state before they return when the leg has a data folder.
 */
export class Permit2Engine {
  readonly chain: Chain;
  readonly client: Permit2EngineClient;
  /** With a data folder, users reach anvil through this proxy, which saves the state before answering a write. */
  proxy: SavingRpcProxy | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private queuedSave: Promise<void> | undefined;

  constructor(
    readonly setup: Permit2LegSetup,
    readonly anvil: AnvilProcess,
    readonly contracts: Permit2LegContracts,
    private readonly clock: Clock,
  ) {
    const { options } = setup;
    this.chain = defineChain({
      id: options.chainId,
      name: options.ctx.network.name,
      nativeCurrency: { name: options.native.name, symbol: options.native.symbol, decimals: 18 },
      rpcUrls: { default: { http: [anvil.rpcUrl] } },
    });
    this.client = createEngineClient({ chain: this.chain, rpcUrl: anvil.rpcUrl });
  }

  /** Run writes one at a time (nonces, timestamps and state dumps stay in order). */
  serialize<T>(job: () => Promise<T>): Promise<T> {
    const next = this.queue.then(job, job);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The sandbox clock, unix seconds. */
  nowSecs(): bigint {
    return BigInt(Math.floor(this.clock.nowMs() / 1000));
  }

  /** Make the next block's timestamp follow the sandbox clock (never backwards). */
  async syncTime(): Promise<void> {
    const latest = await this.client.getBlock({ blockTag: "latest" });
    const now = this.nowSecs();
    if (now > latest.timestamp) await this.client.setNextBlockTimestamp({ timestamp: now });
  }

  /** The timestamp a transaction sent now would see, for simulations. */
  async simulationTime(): Promise<bigint> {
    const latest = await this.client.getBlock({ blockTag: "latest" });
    const now = this.nowSecs();
    return now > latest.timestamp ? now : latest.timestamp + 1n;
  }

  /** Save the engine's whole state to the leg's state file (nothing without a data folder). */
  async persist(): Promise<void> {
    const file = this.setup.statePath;
    if (!file) return;
    await persistAnvilState({ dumpState: () => this.client.dumpState(), file });
  }

  /**
   * Save after a user's own write (through the proxy): queued behind the leg's writes; callers that arrive while
   * a save is still waiting in the queue share it (it starts after their write, so it covers it).
   */
  saveSoon(): Promise<void> {
    this.queuedSave ??= this.serialize(async () => {
      this.queuedSave = undefined;
      await this.persist();
    });
    return this.queuedSave;
  }

  /** Send a contract call from one of the leg's accounts, wait for it, save, and return its hash. Reverts become LegRejections. */
  async write(request: {
    account: PrivateKeyAccount;
    to: Address;
    abi: Abi;
    functionName: string;
    args: readonly unknown[];
    value?: bigint;
  }): Promise<Hex> {
    await this.syncTime();
    let hash: Hex;
    try {
      hash = await this.walletOf(request.account).writeContract({
        address: request.to,
        abi: request.abi,
        functionName: request.functionName,
        args: request.args,
        value: request.value,
      });
    } catch (error) {
      throw mapRevertToRejection(error) ?? error;
    }
    return this.confirm(hash);
  }

  /** Send native coin (engine wei) from one of the leg's accounts, wait for it, save, and return its hash. */
  async sendNative({
    from,
    to,
    value,
  }: {
    from: PrivateKeyAccount;
    to: Address;
    value: bigint;
  }): Promise<Hex> {
    await this.syncTime();
    return this.confirm(await this.walletOf(from).sendTransaction({ to, value }));
  }

  /** Deploy a contract from `account` and return its address (the caller saves once the whole deployment is done). */
  async deploy({
    account,
    artifact,
    args,
  }: {
    account: PrivateKeyAccount;
    artifact: ContractArtifact;
    args: readonly unknown[];
  }): Promise<Address> {
    await this.syncTime();
    const hash = await this.walletOf(account).sendTransaction({
      data: encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args }),
    });
    const receipt = await this.waitForReceipt(hash);
    if (receipt.status !== "success" || !receipt.contractAddress)
      throw new Error(`deploying ${artifact.contractName} failed`);
    return getAddress(receipt.contractAddress);
  }

  /** Top `address` up to `minimum` engine wei (anvil's balance override; the leg's own accounts pay gas with it). */
  async ensureNativeBalance({ address, minimum }: { address: Address; minimum: bigint }): Promise<void> {
    const balance = await this.client.getBalance({ address });
    if (balance < minimum) await this.client.setBalance({ address, value: minimum });
  }

  /** The escrow's lock of an intent (`state: "None"` when it holds nothing). */
  async readLock(intentId: Hex): Promise<EscrowLock> {
    const lock = (await this.client.readContract({
      address: this.contracts.escrow,
      abi: this.contracts.abis.escrow,
      functionName: "locks",
      args: [intentId],
    })) as readonly [Address, bigint, number, Address, bigint, Hex];
    return {
      owner: lock[0],
      deadline: lock[1],
      state: LOCK_STATE[lock[2]] ?? "None",
      token: lock[3],
      amount: lock[4],
      secretHash: lock[5],
    };
  }

  /** The transaction that emitted the escrow's `eventName` for an intent, if there is one (a retry finds its earlier work). */
  async findEventTx({ eventName, intentId }: { eventName: string; intentId: Hex }): Promise<Hex | undefined> {
    const logs = await this.client.getContractEvents({
      address: this.contracts.escrow,
      abi: this.contracts.abis.escrow,
      eventName,
      args: { intentId },
      fromBlock: 0n,
    });
    return logs[0]?.transactionHash ?? undefined;
  }

  private walletOf(account: PrivateKeyAccount) {
    return createWalletClient({
      account,
      chain: this.chain,
      transport: http(this.anvil.rpcUrl, { retryCount: 0 }),
    });
  }

  /** Wait for a sent transaction; refuse a revert; save; return its hash. */
  private async confirm(hash: Hex): Promise<Hex> {
    const receipt = await this.waitForReceipt(hash);
    if (receipt.status !== "success")
      throw new LegRejection("TRANSACTION_REVERTED", `transaction ${hash} reverted`);
    await this.persist();
    return hash;
  }

  private async waitForReceipt(hash: Hex) {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.client.getTransactionReceipt({ hash });
      } catch (error) {
        if (attempt > 500) throw error;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
  }
}
