import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { hmac } from "@noble/hashes/hmac";
import { sha256 } from "@noble/hashes/sha2";
import {
  type Abi,
  type Address,
  bytesToHex,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeDeployData,
  getAddress,
  getContractAddress,
  type Hex,
  http,
  isHex,
  maxUint256,
  type PublicClient,
  toHex,
} from "viem";
import { type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import type {
  ChainLeg,
  Json,
  LegContext,
  LegIntent,
  LegToken,
  NetworkType,
  SubmittedApproval,
} from "../types.js";
import { LegRejection } from "../types.js";
import { buildPermit2ParamsToSign, getIntentIdBytes32, getSwapWitness } from "./buildPermit2ParamsToSign.js";
import type { ContractArtifact } from "./compileSolidity.js";
import { loadPermit2Artifact } from "./loadPermit2Artifact.js";
import { loadSandboxContracts } from "./loadSandboxContracts.js";
import { getRevertName, mapRevertToRejection } from "./mapRevertToRejection.js";
import { EVM_NATIVE_TOKEN } from "./permit2Types.js";
import { persistAnvilState, readStateHeight } from "./persistAnvilState.js";
import { type AnvilProcess, startAnvil } from "./startAnvil.js";
import { type SavingRpcProxy, startSavingRpcProxy } from "./startSavingRpcProxy.js";

/** An ERC-20 the leg deploys (a `SandboxToken`). */
export interface Permit2LegTokenSpec {
  symbol: string;
  name: string;
  decimals: number;
  /** Wraps the native coin (WETH, WTRX): one lot of the token per `native.weiPerLot` engine wei. */
  wrapsNative: boolean;
}

/** How an EVM-engine leg differs per network type. */
export interface Permit2LegOptions {
  ctx: LegContext;
  type: Extract<NetworkType, "EVM" | "TRON">;
  /** The sandbox-only chain id of the anvil engine. */
  chainId: number;
  /** Network address (API form) to a 20-byte address, or undefined when invalid. */
  parseAddress: (address: string) => Address | undefined;
  /** 20-byte address to the network's API form. */
  formatAddress: (address: Address) => string;
  native: {
    symbol: string;
    name: string;
    decimals: number;
    contractAddress: string;
    wrappedSymbol: string;
    /**
     * Engine wei per lot of the native coin (the engine's native unit has 18 decimals): 1 for ETH, 10^12 for
     * TRX (6 decimals). Gas is paid in wei at EVM gas prices, so this keeps fees in the network's own scale.
     */
    weiPerLot: bigint;
  };
  erc20s: Permit2LegTokenSpec[];
}

/** What a permit2 leg keeps per intent (stored by the core). */
interface Permit2LegData {
  nonce: string;
  signature?: Hex;
  depositTxHash?: Hex;
}

const ICON_BASE = "https://icons.swapintent.invalid";
/** Native balance given to the deployer and the resolver (they pay gas; the resolver's is also its native inventory). */
const OPERATOR_NATIVE_BALANCE = 10n ** 30n;
/** Resolver inventory minted per ERC-20 at first start, in whole tokens. */
const INVENTORY_WHOLE_TOKENS = 1_000_000n;
const LOCK_STATE = ["None", "Locked", "Claimed", "Refunded"] as const;

/**
 * The shared implementation of the EVM and Tron legs: one anvil process with a sandbox-only chain id, the
 * real Permit2 (compiled from npm sources), the sandbox escrow and test tokens, deployed by a key derived
 * from the leg's seed (never at canonical addresses). Addresses are shown in the network's form.
 */
export function createPermit2Leg(options: Permit2LegOptions): ChainLeg {
  const { ctx, chainId, parseAddress, formatAddress } = options;
  const weiPerLot = options.native.weiPerLot;
  if (weiPerLot < 1n) throw new Error(`${options.type} leg: native.weiPerLot must be at least 1`);
  /** Native lots to engine wei. */
  const toWei = (lots: bigint) => lots * weiPerLot;
  /** Engine wei to whole native lots (rounded down). */
  const toLots = (wei: bigint) => wei / weiPerLot;
  const deployer = privateKeyToAccount(
    deriveKey(ctx.seed, `swapintent/permit2-leg/${ctx.network.id}/deployer`),
  );
  const resolver = privateKeyToAccount(
    deriveKey(ctx.seed, `swapintent/permit2-leg/${ctx.network.id}/resolver`),
  );
  const statePath = ctx.dataDir === undefined ? undefined : join(ctx.dataDir, "anvil-state.json");
  const intervalStatePath =
    ctx.dataDir === undefined ? undefined : join(ctx.dataDir, "anvil-state.interval.json");

  let anvil: AnvilProcess | undefined;
  /** With a data folder, users reach anvil through this proxy, which saves the state before answering a write. */
  let proxy: SavingRpcProxy | undefined;
  let client: PublicClient | undefined;
  let chain: Chain | undefined;
  let permit2Abi: Abi = [];
  let escrowAbi: Abi = [];
  let tokenAbi: Abi = [];
  let permit2: Address | undefined;
  let escrow: Address | undefined;
  const tokenAddresses = new Map<string, Address>(); // symbol -> address
  let queue: Promise<unknown> = Promise.resolve();

  const requireStarted = () => {
    if (!anvil || !client || !chain || !permit2 || !escrow)
      throw new Error(`${options.type} leg ${ctx.network.id} is not started`);
    return { anvil, client, chain, permit2, escrow };
  };

  /** Run writes one at a time (nonces, timestamps and state dumps stay in order). */
  const serialize = <T>(job: () => Promise<T>): Promise<T> => {
    const next = queue.then(job, job);
    queue = next.catch(() => undefined);
    return next;
  };

  const rpc = (method: string, params: unknown[]) =>
    requireStarted().client.request({ method: method as never, params: params as never });

  const nowSecs = () => BigInt(Math.floor(ctx.clock.nowMs() / 1000));

  /** Make the next block's timestamp follow the sandbox clock (never backwards). */
  const syncTime = async () => {
    const { client } = requireStarted();
    const latest = await client.getBlock({ blockTag: "latest" });
    const now = nowSecs();
    if (now > latest.timestamp) await rpc("evm_setNextBlockTimestamp", [toHex(now)]);
  };

  /** The timestamp a transaction sent now would see, for simulations. */
  const simulationTime = async () => {
    const { client } = requireStarted();
    const latest = await client.getBlock({ blockTag: "latest" });
    const now = nowSecs();
    return now > latest.timestamp ? now : latest.timestamp + 1n;
  };

  const persist = async () => {
    if (!statePath) return;
    await persistAnvilState({ rpc: requireStarted().client.request as never, file: statePath });
  };

  /**
   * Save after a user's own write (through the proxy): queued behind the leg's writes; callers that arrive while
   * a save is still waiting in the queue share it (it starts after their write, so it covers it).
   */
  let queuedSave: Promise<void> | undefined;
  const saveSoon = () => {
    queuedSave ??= serialize(async () => {
      queuedSave = undefined;
      await persist();
    });
    return queuedSave;
  };

  /** Send a contract call from one of the leg's accounts, wait for it, and return its hash. Reverts become LegRejections. */
  const write = async (request: {
    account: PrivateKeyAccount;
    to: Address;
    abi: Abi;
    functionName: string;
    args: readonly unknown[];
    value?: bigint;
  }): Promise<Hex> => {
    const { client, chain } = requireStarted();
    await syncTime();
    const wallet = createWalletClient({
      account: request.account,
      chain,
      transport: http(requireStarted().anvil.rpcUrl, { retryCount: 0 }),
    });
    let hash: Hex;
    try {
      hash = await wallet.writeContract({
        address: request.to,
        abi: request.abi,
        functionName: request.functionName,
        args: request.args,
        value: request.value,
      } as never);
    } catch (error) {
      throw mapRevertToRejection(error) ?? error;
    }
    const receipt = await waitForReceipt(client, hash);
    if (receipt.status !== "success") {
      throw new LegRejection("TRANSACTION_REVERTED", `transaction ${hash} reverted`);
    }
    await persist();
    return hash;
  };

  const sendNative = async (from: PrivateKeyAccount, to: Address, value: bigint): Promise<Hex> => {
    const { client, chain, anvil } = requireStarted();
    await syncTime();
    const wallet = createWalletClient({
      account: from,
      chain,
      transport: http(anvil.rpcUrl, { retryCount: 0 }),
    });
    const hash = await wallet.sendTransaction({ to, value });
    const receipt = await waitForReceipt(client, hash);
    if (receipt.status !== "success")
      throw new LegRejection("TRANSACTION_REVERTED", `transaction ${hash} reverted`);
    await persist();
    return hash;
  };

  const deploy = async (
    account: PrivateKeyAccount,
    artifact: ContractArtifact,
    args: unknown[],
  ): Promise<Address> => {
    const { client, chain, anvil } = requireStarted();
    await syncTime();
    const wallet = createWalletClient({ account, chain, transport: http(anvil.rpcUrl, { retryCount: 0 }) });
    const hash = await wallet.sendTransaction({
      data: encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args }),
    });
    const receipt = await waitForReceipt(client, hash);
    if (receipt.status !== "success" || !receipt.contractAddress)
      throw new Error(`deploying ${artifact.contractName} failed`);
    return getAddress(receipt.contractAddress);
  };

  const ensureNativeBalance = async (address: Address, minimum: bigint) => {
    const { client } = requireStarted();
    const balance = await client.getBalance({ address });
    if (balance < minimum) await rpc("anvil_setBalance", [address, toHex(minimum)]);
  };

  /** A network token address (API form) to its 20-byte address, or "native". */
  const parseToken = (token: string): Address | "native" => {
    if (
      token === options.native.contractAddress ||
      token.toLowerCase() === options.native.contractAddress.toLowerCase()
    )
      return "native";
    const parsed = parseAddress(token);
    if (!parsed) throw new LegRejection("INVALID_TOKEN", `not a ${options.type} token address`);
    return parsed;
  };

  const parseUserAddress = (address: string, what: string): Address => {
    const parsed = parseAddress(address);
    if (!parsed) throw new LegRejection("INVALID_ADDRESS", `${what} is not a valid ${options.type} address`);
    return parsed;
  };

  const readLock = async (intentId: Hex) => {
    const { client, escrow } = requireStarted();
    const lock = (await client.readContract({
      address: escrow,
      abi: escrowAbi,
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
  };

  const findEventTx = async (eventName: string, intentId: Hex): Promise<Hex | undefined> => {
    const { client, escrow } = requireStarted();
    const logs = await client.getContractEvents({
      address: escrow,
      abi: escrowAbi,
      eventName,
      args: { intentId },
      fromBlock: 0n,
    } as never);
    return (logs as { transactionHash: Hex }[])[0]?.transactionHash;
  };

  const readLegData = (legData: Json): Permit2LegData => {
    if (
      legData === null ||
      typeof legData !== "object" ||
      Array.isArray(legData) ||
      typeof legData.nonce !== "string"
    ) {
      throw new LegRejection("LEG_DATA_INVALID", "missing permit2 nonce for this intent");
    }
    return legData as unknown as Permit2LegData;
  };

  /** The escrow `deposit` call for an intent and a signature. */
  const depositCall = (intent: LegIntent, data: Permit2LegData, signature: Hex) => {
    const token = parseToken(intent.sourceToken);
    if (token === "native")
      throw new LegRejection(
        "NATIVE_SOURCE_UNSUPPORTED",
        `wrap ${options.native.symbol} to ${options.native.wrappedSymbol} first`,
      );
    const witness = getSwapWitness(intent);
    return {
      token,
      owner: parseUserAddress(intent.userSourceAddress, "user_source_address"),
      args: [
        {
          permitted: { token, amount: intent.sourceAmountLots },
          nonce: BigInt(data.nonce),
          deadline: BigInt(intent.deadlineSecs),
        },
        parseUserAddress(intent.userSourceAddress, "user_source_address"),
        witness,
        signature,
      ] as const,
    };
  };

  /** Simulate the deposit at the sandbox clock's time; throws a LegRejection naming what would fail. */
  const simulateDeposit = async (intent: LegIntent, data: Permit2LegData, signature: Hex) => {
    const { client, escrow, permit2 } = requireStarted();
    const call = depositCall(intent, data, signature);
    try {
      await client.readContract({
        account: resolver.address,
        address: escrow,
        abi: escrowAbi,
        functionName: "deposit",
        args: call.args,
        blockOverrides: { time: await simulationTime() },
      } as never);
    } catch (error) {
      const name = getRevertName(error);
      if (name === "TRANSFER_FROM_FAILED") {
        const [balance, allowance] = (await Promise.all([
          client.readContract({
            address: call.token,
            abi: tokenAbi,
            functionName: "balanceOf",
            args: [call.owner],
          }),
          client.readContract({
            address: call.token,
            abi: tokenAbi,
            functionName: "allowance",
            args: [call.owner, permit2],
          }),
        ])) as [bigint, bigint];
        if (balance < intent.sourceAmountLots) {
          throw new LegRejection(
            "INSUFFICIENT_BALANCE",
            "the user's source balance is below the intent's amount",
            { cause: error },
          );
        }
        if (allowance < intent.sourceAmountLots) {
          throw new LegRejection(
            "INSUFFICIENT_ALLOWANCE",
            "the user has not approved Permit2 for the intent's amount",
            { cause: error },
          );
        }
        throw new LegRejection("TRANSFER_FAILED", "the token transfer into the escrow failed", {
          cause: error,
        });
      }
      throw mapRevertToRejection(error) ?? error;
    }
  };

  /**
   * Refuse saved engine state whose wrapping tokens use another native scale (a state file written before
   * the scale existed, or by a leg with another one): its balances would mean other amounts.
   */
  const assertNativeScale = async () => {
    const { client } = requireStarted();
    for (const spec of options.erc20s) {
      if (!spec.wrapsNative) continue;
      const scale = await client
        .readContract({
          address: tokenAddresses.get(spec.symbol) as Address,
          abi: tokenAbi,
          functionName: "nativeScale",
        })
        .catch(() => undefined);
      if (scale !== weiPerLot)
        throw new Error(
          `${options.type} leg ${ctx.network.id}: saved engine state has ${spec.symbol} with another native scale (${scale ?? "none"} wei per lot, expected ${weiPerLot}); start with a fresh data folder`,
        );
    }
  };

  const tokenList = (): LegToken[] => {
    const native: LegToken = {
      symbol: options.native.symbol,
      name: options.native.name,
      decimals: options.native.decimals,
      contractAddress: options.native.contractAddress,
      wrappedTokenAddress: formatAddress(tokenAddresses.get(options.native.wrappedSymbol) as Address),
      iconUrl: `${ICON_BASE}/${options.native.symbol.toLowerCase()}.svg`,
    };
    return [
      native,
      ...options.erc20s.map((spec) => ({
        symbol: spec.symbol,
        name: spec.name,
        decimals: spec.decimals,
        contractAddress: formatAddress(tokenAddresses.get(spec.symbol) as Address),
        wrappedTokenAddress: null,
        iconUrl: `${ICON_BASE}/${spec.symbol.toLowerCase()}.svg`,
      })),
    ];
  };

  const leg: ChainLeg = {
    type: options.type,
    approvalMechanism: "permit2",

    async start() {
      if (anvil) return;
      const [permit2Artifact, sandbox] = await Promise.all([loadPermit2Artifact(), loadSandboxContracts()]);
      permit2Abi = permit2Artifact.abi;
      tokenAbi = sandbox.SandboxToken.abi;
      const errorsOf = (abi: Abi) => abi.filter((item) => item.type === "error");
      escrowAbi = [...sandbox.SwapEscrow.abi, ...errorsOf(permit2Abi), ...errorsOf(tokenAbi)];

      const args = ["--chain-id", String(chainId), "--accounts", "0"];
      let restored = false;
      if (statePath && intervalStatePath) {
        mkdirSync(ctx.dataDir as string, { recursive: true });
        const candidates = [statePath, intervalStatePath]
          .map((file) => ({ file, height: readStateHeight(file) }))
          .filter((c) => c.height >= 0)
          .sort((a, b) => b.height - a.height);
        const best = candidates[0];
        if (best) {
          args.push("--load-state", best.file);
          restored = true;
        }
        // anvil's own periodic dump as a second line of defence (covers users' own transactions between leg calls).
        args.push("--dump-state", intervalStatePath, "--state-interval", "1");
      }
      if (!restored) args.push("--timestamp", String(nowSecs()));
      anvil = await startAnvil({ args });
      ctx.log(
        `${options.type} leg ${ctx.network.id}: anvil on ${anvil.rpcUrl} (chain id ${chainId}) started in ${Math.round(anvil.startMs)} ms${restored ? " from saved state" : ""}`,
      );
      chain = defineChain({
        id: chainId,
        name: ctx.network.name,
        nativeCurrency: { name: options.native.name, symbol: options.native.symbol, decimals: 18 },
        rpcUrls: { default: { http: [anvil.rpcUrl] } },
      });
      client = createPublicClient({
        chain,
        transport: http(anvil.rpcUrl, { retryCount: 0 }),
        pollingInterval: 20,
      }) as PublicClient;

      // On any failure below, stop the engine again: a leg is either started or not.
      try {
        await setUpContracts(client);
        if (statePath)
          proxy = await startSavingRpcProxy({
            target: anvil.rpcUrl,
            save: saveSoon,
            log: (message) => ctx.log(`${options.type} leg ${ctx.network.id}: ${message}`),
          });
      } catch (error) {
        const failed = anvil;
        anvil = undefined;
        client = undefined;
        await failed?.stop();
        throw error;
      }

      /** Find the contracts of a restored state (checking its native scale), or deploy them on a fresh engine. */
      async function setUpContracts(client: PublicClient) {
        // Deterministic addresses: the deployer's nonces 0 (Permit2), 1..n (tokens), n+1 (escrow).
        const expectedPermit2 = getContractAddress({ from: deployer.address, nonce: 0n });
        const expectedTokens = options.erc20s.map((_, i) =>
          getContractAddress({ from: deployer.address, nonce: BigInt(i + 1) }),
        );
        const expectedEscrow = getContractAddress({
          from: deployer.address,
          nonce: BigInt(options.erc20s.length + 1),
        });
        const escrowCode = await client.getCode({ address: expectedEscrow });
        permit2 = expectedPermit2;
        escrow = expectedEscrow;
        for (const [i, spec] of options.erc20s.entries())
          tokenAddresses.set(spec.symbol, expectedTokens[i] as Address);

        if (escrowCode && escrowCode !== "0x") {
          // Restored: contracts, balances and locks come from the state file. It must use this leg's native scale.
          await assertNativeScale();
          return;
        }
        const deployerNonce = await client.getTransactionCount({ address: deployer.address });
        if (deployerNonce !== 0)
          throw new Error(
            `${options.type} leg ${ctx.network.id}: engine state is inconsistent (deployer used, escrow missing)`,
          );

        await serialize(async () => {
          await ensureNativeBalance(deployer.address, OPERATOR_NATIVE_BALANCE);
          await ensureNativeBalance(resolver.address, OPERATOR_NATIVE_BALANCE);
          const deployedPermit2 = await deploy(deployer, permit2Artifact, []);
          const deployedTokens: Address[] = [];
          for (const spec of options.erc20s) {
            deployedTokens.push(
              await deploy(deployer, sandbox.SandboxToken, [
                spec.name,
                spec.symbol,
                spec.decimals,
                deployer.address,
                spec.wrapsNative,
                spec.wrapsNative ? weiPerLot : 1n,
              ]),
            );
          }
          const deployedEscrow = await deploy(deployer, sandbox.SwapEscrow, [
            deployedPermit2,
            resolver.address,
            resolver.address,
          ]);
          if (
            deployedPermit2 !== expectedPermit2 ||
            deployedEscrow !== expectedEscrow ||
            deployedTokens.some((a, i) => a !== expectedTokens[i])
          ) {
            throw new Error("deployed addresses differ from the expected deterministic addresses");
          }
          for (const [i, spec] of options.erc20s.entries()) {
            const token = deployedTokens[i] as Address;
            await write({
              account: deployer,
              to: token,
              abi: tokenAbi,
              functionName: "mint",
              args: [resolver.address, INVENTORY_WHOLE_TOKENS * 10n ** BigInt(spec.decimals)],
            });
            await write({
              account: resolver,
              to: token,
              abi: tokenAbi,
              functionName: "approve",
              args: [deployedEscrow, maxUint256],
            });
          }
          await persist();
        });
      }
    },

    async stop() {
      const running = anvil;
      if (!running) return;
      try {
        // No user write after this point: then the final save covers every write.
        await proxy?.close();
        proxy = undefined;
        await serialize(async () => {
          if (running.isAlive()) await persist();
        });
      } catch (error) {
        ctx.log(
          `${options.type} leg ${ctx.network.id}: could not save state on stop (${(error as Error).message})`,
        );
      } finally {
        await running.stop();
        anvil = undefined;
        client = undefined;
      }
    },

    tokens: () => {
      requireStarted();
      return tokenList();
    },

    info() {
      const started = requireStarted();
      return {
        engine: "anvil",
        chainId,
        // Durable: the saving proxy (a confirmed transaction survives a crash); in memory: anvil itself.
        rpcUrl: proxy?.url ?? started.anvil.rpcUrl,
        enginePid: started.anvil.pid,
        durable: statePath !== undefined,
        addressFormat: options.type === "TRON" ? "base58check" : "hex",
        permit2Address: formatAddress(started.permit2),
        escrowAddress: formatAddress(started.escrow),
        resolverAddress: formatAddress(resolver.address),
        resolverDepositAddress: formatAddress(resolver.address),
        tokens: Object.fromEntries(tokenList().map((t) => [t.symbol, t.contractAddress])),
      };
    },

    isValidAddress: (address) => parseAddress(address) !== undefined,

    publicKeyMatchesAddress: () => true,

    async buildApproval(intent) {
      const { client, permit2, escrow } = requireStarted();
      const token = parseToken(intent.sourceToken);
      if (token === "native")
        throw new LegRejection(
          "NATIVE_SOURCE_UNSUPPORTED",
          `wrap ${options.native.symbol} to ${options.native.wrappedSymbol} first`,
        );
      const code = await client.getCode({ address: token });
      if (!code || code === "0x")
        throw new LegRejection("UNKNOWN_TOKEN", "the source token has no contract on this network");
      parseUserAddress(intent.userSourceAddress, "user_source_address");
      const nonce = randomNonce();
      const paramsToSign = buildPermit2ParamsToSign({
        intent,
        chainId,
        permit2,
        escrow,
        resolverDeposit: resolver.address,
        nonce,
        formatAddress,
      });
      return { paramsToSign, legData: { nonce: nonce.toString() }, proxyAddress: formatAddress(escrow) };
    },

    async verifyApproval(intent, legData, approval: SubmittedApproval) {
      const data = readLegData(legData);
      if (approval.type !== "permit2")
        throw new LegRejection("APPROVAL_TYPE_MISMATCH", "this network takes a permit2 approval");
      const signature = approval.signedData;
      if (typeof signature !== "string" || !isHex(signature) || signature.length !== 132) {
        throw new LegRejection("SIGNATURE_MALFORMED", "signed_data must be a 65-byte signature as 0x hex");
      }
      const v = Number.parseInt(signature.slice(130), 16);
      if (v !== 27 && v !== 28)
        throw new LegRejection("SIGNATURE_INVALID", "the signature's v must be 27 or 28");
      if (nowSecs() > BigInt(intent.deadlineSecs))
        throw new LegRejection("DEADLINE_PASSED", "the intent's deadline has passed");
      await simulateDeposit(intent, data, signature);
      return { legData: { ...data, signature: signature.toLowerCase() } as unknown as Json };
    },

    deposit(intent, legData) {
      return serialize(async () => {
        const data = readLegData(legData);
        const intentId = getIntentIdBytes32(intent.intentId);
        const lock = await readLock(intentId);
        if (lock.state !== "None") {
          const txHash = data.depositTxHash ?? (await findEventTx("Deposited", intentId));
          if (!txHash)
            throw new Error("the escrow holds the intent's deposit but its transaction was not found");
          return { txHash, legData: { ...data, depositTxHash: txHash } as unknown as Json };
        }
        if (!data.signature)
          throw new LegRejection("APPROVAL_MISSING", "no verified signature for this intent");
        await simulateDeposit(intent, data, data.signature);
        const call = depositCall(intent, data, data.signature);
        const txHash = await write({
          account: resolver,
          to: requireStarted().escrow,
          abi: escrowAbi,
          functionName: "deposit",
          args: call.args,
        });
        return { txHash, legData: { ...data, depositTxHash: txHash } as unknown as Json };
      });
    },

    claim(intent, _legData, secret) {
      return serialize(async () => {
        const intentId = getIntentIdBytes32(intent.intentId);
        const lock = await readLock(intentId);
        if (lock.state === "Claimed") {
          const txHash = await findEventTx("Claimed", intentId);
          if (txHash) return { txHash };
        }
        // Anything else (including a wrong secret) is for the escrow contract to refuse.
        const txHash = await write({
          account: resolver,
          to: requireStarted().escrow,
          abi: escrowAbi,
          functionName: "claim",
          args: [intentId, bytesToHex(secret)],
        });
        return { txHash };
      });
    },

    refund(intent) {
      return serialize(async () => {
        const intentId = getIntentIdBytes32(intent.intentId);
        const lock = await readLock(intentId);
        if (lock.state === "Refunded") {
          const txHash = await findEventTx("Refunded", intentId);
          if (txHash) return { txHash };
        }
        const txHash = await write({
          account: resolver,
          to: requireStarted().escrow,
          abi: escrowAbi,
          functionName: "refund",
          args: [intentId],
        });
        return { txHash };
      });
    },

    deliver(request) {
      return serialize(async () => {
        const { client, escrow } = requireStarted();
        const intentId = getIntentIdBytes32(request.intentId);
        const recipient = parseUserAddress(request.recipient, "recipient");
        const token = parseToken(request.token);
        const done = (await client.readContract({
          address: escrow,
          abi: escrowAbi,
          functionName: "delivered",
          args: [intentId],
        })) as boolean;
        if (done) {
          const txHash = await findEventTx("Delivered", intentId);
          if (txHash) return { txHash };
        }
        if (token === "native") {
          const txHash = await write({
            account: resolver,
            to: escrow,
            abi: escrowAbi,
            functionName: "deliver",
            args: [intentId, EVM_NATIVE_TOKEN, recipient, toWei(request.amountLots)],
            value: toWei(request.amountLots),
          });
          return { txHash };
        }
        const allowance = (await client.readContract({
          address: token,
          abi: tokenAbi,
          functionName: "allowance",
          args: [resolver.address, escrow],
        })) as bigint;
        if (allowance < request.amountLots) {
          await write({
            account: resolver,
            to: token,
            abi: tokenAbi,
            functionName: "approve",
            args: [escrow, maxUint256],
          });
        }
        const txHash = await write({
          account: resolver,
          to: escrow,
          abi: escrowAbi,
          functionName: "deliver",
          args: [intentId, token, recipient, request.amountLots],
        });
        return { txHash };
      });
    },

    async inventory(token) {
      return leg.balanceOf(formatAddress(resolver.address), token);
    },

    faucet(request) {
      return serialize(async () => {
        const recipient = parseUserAddress(request.address, "address");
        const token = parseToken(request.token);
        if (token === "native") {
          const wei = toWei(request.amountLots);
          await ensureNativeBalance(deployer.address, OPERATOR_NATIVE_BALANCE + wei);
          return { txHash: await sendNative(deployer, recipient, wei) };
        }
        const txHash = await write({
          account: deployer,
          to: token,
          abi: tokenAbi,
          functionName: "mint",
          args: [recipient, request.amountLots],
        });
        return { txHash };
      });
    },

    async balanceOf(address, token) {
      const { client } = requireStarted();
      const owner = parseUserAddress(address, "address");
      const parsed = parseToken(token);
      if (parsed === "native") return toLots(await client.getBalance({ address: owner }));
      return (await client.readContract({
        address: parsed,
        abi: tokenAbi,
        functionName: "balanceOf",
        args: [owner],
      })) as bigint;
    },
  };
  return leg;
}

function deriveKey(seed: Uint8Array, label: string): Hex {
  return bytesToHex(hmac(sha256, seed, new TextEncoder().encode(label)));
}

function randomNonce(): bigint {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  let value = 0n;
  for (const b of bytes) value = (value << 8n) | BigInt(b);
  return value & ((1n << 53n) - 1n);
}

async function waitForReceipt(client: PublicClient, hash: Hex) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await client.getTransactionReceipt({ hash });
    } catch (error) {
      if (attempt > 500) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}
