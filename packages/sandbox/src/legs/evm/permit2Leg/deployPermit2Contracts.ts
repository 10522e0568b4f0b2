import { type Abi, type Address, getContractAddress, maxUint256 } from "viem";
import type { ContractArtifact } from "../compileSolidity.js";
import { loadPermit2Artifact } from "../loadPermit2Artifact.js";
import { loadSandboxContracts, type SandboxContracts } from "../loadSandboxContracts.js";
import type { Permit2Engine, Permit2LegContracts } from "./Permit2Engine.js";
import type { Permit2LegSetup } from "./types.js";

/** Native balance given to the deployer and the resolver (they pay gas; the resolver's is also its native inventory). */
export const OPERATOR_NATIVE_BALANCE = 10n ** 30n;
/** Resolver inventory minted per ERC-20 at first start, in whole tokens. */
const INVENTORY_WHOLE_TOKENS = 1_000_000n;

/** The compiled contracts a permit2 leg deploys. */
export interface Permit2LegArtifacts {
  permit2: ContractArtifact;
  sandbox: SandboxContracts;
}

/** Compile (or read from the cache) the real Permit2 and the sandbox's token and escrow; the compile's progress to `log`. */
export async function loadPermit2LegArtifacts({
  log,
}: {
  log?: (message: string) => void;
} = {}): Promise<Permit2LegArtifacts> {
  const [permit2, sandbox] = await Promise.all([
    loadPermit2Artifact({ onProgress: log }),
    loadSandboxContracts(),
  ]);
  return { permit2, sandbox };
}

/**
 * Where the leg's contracts are, before anything is deployed: the deployer's nonces 0 (Permit2), 1..n (the
 * ERC-20s in the options' order) and n+1 (the escrow), so a restored engine and a fresh one agree.
 */
export function getPermit2LegContracts({
  setup,
  artifacts,
}: {
  setup: Permit2LegSetup;
  artifacts: Permit2LegArtifacts;
}): Permit2LegContracts {
  const from = setup.deployer.address;
  const { erc20s } = setup.options;
  const errorsOf = (abi: Abi) => abi.filter((item) => item.type === "error");
  const permit2Abi = artifacts.permit2.abi;
  const tokenAbi = artifacts.sandbox.SandboxToken.abi;
  return {
    permit2: getContractAddress({ from, nonce: 0n }),
    escrow: getContractAddress({ from, nonce: BigInt(erc20s.length + 1) }),
    tokens: new Map(
      erc20s.map((spec, i) => [spec.symbol, getContractAddress({ from, nonce: BigInt(i + 1) })]),
    ),
    abis: {
      permit2: permit2Abi,
      escrow: [...artifacts.sandbox.SwapEscrow.abi, ...errorsOf(permit2Abi), ...errorsOf(tokenAbi)],
      token: tokenAbi,
    },
  };
}

/** Find the contracts of a restored state (checking its native scale), or deploy them on a fresh engine. */
export async function setUpPermit2Contracts({
  engine,
  artifacts,
}: {
  engine: Permit2Engine;
  artifacts: Permit2LegArtifacts;
}): Promise<void> {
  const { client, contracts, setup } = engine;
  const escrowCode = await client.getCode({ address: contracts.escrow });
  if (escrowCode && escrowCode !== "0x") {
    // Restored: contracts, balances and locks come from the state file. It must use this leg's native scale.
    await assertNativeScale(engine);
    return;
  }
  const deployerNonce = await client.getTransactionCount({ address: setup.deployer.address });
  if (deployerNonce !== 0)
    throw new Error(`${setup.label}: engine state is inconsistent (deployer used, escrow missing)`);
  await engine.serialize(() => deployContracts({ engine, artifacts }));
}

/**
 * Refuse saved engine state whose wrapping tokens use another native scale (a state file written before
 * the scale existed, or by a leg with another one): its balances would mean other amounts.
 */
async function assertNativeScale(engine: Permit2Engine): Promise<void> {
  const { options, label } = engine.setup;
  const expected = options.native.weiPerLot;
  for (const spec of options.erc20s) {
    if (!spec.wrapsNative) continue;
    const scale = await engine.client
      .readContract({
        address: engine.contracts.tokens.get(spec.symbol) as Address,
        abi: engine.contracts.abis.token,
        functionName: "nativeScale",
      })
      .catch(() => undefined);
    if (scale !== expected)
      throw new Error(
        `${label}: saved engine state has ${spec.symbol} with another native scale (${scale ?? "none"} wei per lot, expected ${expected}); start with a fresh data folder`,
      );
  }
}

/** Fund the operators, deploy Permit2, the ERC-20s and the escrow at their expected addresses, and stock the resolver. */
async function deployContracts({
  engine,
  artifacts,
}: {
  engine: Permit2Engine;
  artifacts: Permit2LegArtifacts;
}): Promise<void> {
  const { deployer, resolver, options } = engine.setup;
  const { contracts } = engine;
  await engine.ensureNativeBalance({ address: deployer.address, minimum: OPERATOR_NATIVE_BALANCE });
  await engine.ensureNativeBalance({ address: resolver.address, minimum: OPERATOR_NATIVE_BALANCE });
  const deployed = [await engine.deploy({ account: deployer, artifact: artifacts.permit2, args: [] })];
  const expected = [contracts.permit2];
  for (const spec of options.erc20s) {
    const scale = spec.wrapsNative ? options.native.weiPerLot : 1n;
    const args = [spec.name, spec.symbol, spec.decimals, deployer.address, spec.wrapsNative, scale] as const;
    deployed.push(await engine.deploy({ account: deployer, artifact: artifacts.sandbox.SandboxToken, args }));
    expected.push(contracts.tokens.get(spec.symbol) as Address);
  }
  const escrowArgs = [contracts.permit2, resolver.address, resolver.address];
  deployed.push(
    await engine.deploy({ account: deployer, artifact: artifacts.sandbox.SwapEscrow, args: escrowArgs }),
  );
  expected.push(contracts.escrow);
  if (deployed.some((address, i) => address !== expected[i]))
    throw new Error("deployed addresses differ from the expected deterministic addresses");
  for (const spec of options.erc20s) {
    const token = { to: contracts.tokens.get(spec.symbol) as Address, abi: contracts.abis.token };
    const inventory = INVENTORY_WHOLE_TOKENS * 10n ** BigInt(spec.decimals);
    await engine.write({
      ...token,
      account: deployer,
      functionName: "mint",
      args: [resolver.address, inventory],
    });
    await engine.write({
      ...token,
      account: resolver,
      functionName: "approve",
      args: [contracts.escrow, maxUint256],
    });
  }
  await engine.persist();
}
