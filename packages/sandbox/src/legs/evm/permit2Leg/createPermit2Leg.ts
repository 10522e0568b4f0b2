import { join } from "node:path";
import { hmac } from "@noble/hashes/hmac";
import { sha256 } from "@noble/hashes/sha2";
import { bytesToHex, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { type ChainLeg, type Json, LegRejection } from "../../types.js";
import { buildPermit2Approval } from "./buildPermit2Approval.js";
import { deliverPermit2 } from "./deliverPermit2.js";
import { depositPermit2 } from "./depositPermit2.js";
import { faucetPermit2 } from "./faucetPermit2.js";
import { getPermit2Balance } from "./getPermit2Balance.js";
import type { Permit2Engine } from "./Permit2Engine.js";
import { claimPermit2Escrow, refundPermit2Escrow } from "./settlePermit2Escrow.js";
import { describeSmartAccount, getSmartAccountInfo } from "./smartAccountRequests.js";
import { startPermit2Engine } from "./startPermit2Engine.js";
import { listPermit2LegTokens } from "./tokens.js";
import type { Permit2LegOptions, Permit2LegSetup } from "./types.js";
import { verifyPermit2Approval } from "./verifyPermit2Approval.js";

/**
 * The shared implementation of the EVM and Tron legs: one anvil process with a sandbox-only chain id, the
 * real Permit2 (compiled from npm sources), the sandbox escrow and test tokens, deployed by a key derived
 * from the leg's seed (never at canonical addresses). Addresses are shown in the network's form.
 *
 * The leg itself only holds its engine while started; each step lives in its own file (start and deploy,
 * approval building and checking, deposit, claim and refund, delivery, faucet and balances).
 */
export function createPermit2Leg(options: Permit2LegOptions): ChainLeg {
  const setup = getPermit2LegSetup(options);
  let engine: Permit2Engine | undefined;
  const started = (): Permit2Engine => {
    if (!engine) throw new LegRejection("LEG_NOT_STARTED", `${setup.label} is not started`);
    return engine;
  };

  const leg: ChainLeg = {
    type: options.type,
    approvalMechanism: "permit2",
    async start() {
      if (engine) return;
      engine = await startPermit2Engine({ setup });
    },
    async stop() {
      const running = engine;
      if (!running) return;
      try {
        await stopPermit2Engine(running);
      } finally {
        engine = undefined;
      }
    },
    tokens: () => listPermit2LegTokens({ options, tokens: started().contracts.tokens }),
    info: () => getPermit2LegInfo(started()),
    isValidAddress: (address) => options.parseAddress(address) !== undefined,
    publicKeyMatchesAddress: () => true,
    buildApproval: async (intent) => buildPermit2Approval({ engine: started(), intent }),
    verifyApproval: async (intent, legData, approval) =>
      verifyPermit2Approval({ engine: started(), intent, legData, approval }),
    deposit: async (intent, legData) => depositPermit2({ engine: started(), intent, legData }),
    claim: async (intent, _legData, secret) => claimPermit2Escrow({ engine: started(), intent, secret }),
    refund: async (intent) => refundPermit2Escrow({ engine: started(), intent }),
    deliver: async (request) => deliverPermit2({ engine: started(), request }),
    inventory: async (token) => leg.balanceOf(options.formatAddress(setup.resolver.address), token),
    faucet: async (request) => faucetPermit2({ engine: started(), request }),
    balanceOf: async (address, token) => getPermit2Balance({ engine: started(), address, token }),
    smartAccount: async (request) => describeSmartAccount({ engine: started(), request }),
  };
  return leg;
}

/** The leg's fixed parts: its accounts derived from the seed and its state files in the data folder. */
function getPermit2LegSetup(options: Permit2LegOptions): Permit2LegSetup {
  const { ctx } = options;
  const label = `${options.type} leg ${ctx.network.id}`;
  if (options.native.weiPerLot < 1n)
    throw new Error(`${options.type} leg: native.weiPerLot must be at least 1`);
  const account = (role: string) =>
    privateKeyToAccount(deriveKey(ctx.seed, `swapintent/permit2-leg/${ctx.network.id}/${role}`));
  const file = (name: string) => (ctx.dataDir === undefined ? undefined : join(ctx.dataDir, name));
  return {
    options,
    deployer: account("deployer"),
    resolver: account("resolver"),
    statePath: file("anvil-state.json"),
    intervalStatePath: file("anvil-state.interval.json"),
    label,
  };
}

/**
 * How long a stopping leg waits for its proxy's calls in flight and its last save, ms. A frozen anvil (SIGSTOP, a
 * frozen VM) never answers: the save waited for the RPC client's 10 s timeout, behind a write of the leg waiting as
 * long, so close() took 10 to 20 s; now such an engine is stopped without its last save, as a crash would leave it.
 */
export const STOP_SAVE_TIMEOUT_MS = 2_000;

/**
 * Close the proxy (no user write after it), save the state one last time while anvil lives (both within
 * {@link STOP_SAVE_TIMEOUT_MS}), then stop anvil.
 */
async function stopPermit2Engine(engine: Permit2Engine): Promise<void> {
  const { anvil, setup } = engine;
  const log = setup.options.ctx.log;
  const saved = (async () => {
    await engine.proxy?.close();
    engine.proxy = undefined;
    await engine.serialize(async () => {
      if (anvil.isAlive()) await engine.persist();
    });
    return true;
  })();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), STOP_SAVE_TIMEOUT_MS);
  });
  try {
    if (!(await Promise.race([saved, late])))
      log(
        `${setup.label}: the engine did not answer within ${STOP_SAVE_TIMEOUT_MS} ms; stopped without a last save`,
      );
  } catch (error) {
    log(`${setup.label}: could not save state on stop (${(error as Error).message})`);
  } finally {
    clearTimeout(timer);
    // Once anvil is gone, a save still waiting fails (nothing is written): not an unhandled rejection.
    saved.catch(() => {});
    await anvil.stop();
  }
}

/** `ChainLeg.info` of a permit2 leg (`GET /sandbox/chains`). */
function getPermit2LegInfo(engine: Permit2Engine): Record<string, Json> {
  const { options, resolver, statePath } = engine.setup;
  const { formatAddress } = options;
  const tokens = listPermit2LegTokens({ options, tokens: engine.contracts.tokens });
  return {
    engine: "anvil",
    chainId: options.chainId,
    // Durable: the saving proxy (a confirmed transaction survives a crash); in memory: anvil itself.
    rpcUrl: engine.proxy?.url ?? engine.anvil.rpcUrl,
    enginePid: engine.anvil.pid,
    durable: statePath !== undefined,
    addressFormat: options.type === "TRON" ? "base58check" : "hex",
    permit2Address: formatAddress(engine.contracts.permit2),
    escrowAddress: formatAddress(engine.contracts.escrow),
    resolverAddress: formatAddress(resolver.address),
    resolverDepositAddress: formatAddress(resolver.address),
    tokens: Object.fromEntries(tokens.map((t) => [t.symbol, t.contractAddress])),
    ...getSmartAccountInfo(engine),
  };
}

/** A private key for `label`: HMAC-SHA-256 keyed by the leg's seed. */
function deriveKey(seed: Uint8Array, label: string): Hex {
  return bytesToHex(hmac(sha256, seed, new TextEncoder().encode(label)));
}
