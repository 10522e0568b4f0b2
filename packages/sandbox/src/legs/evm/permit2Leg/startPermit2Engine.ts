import { mkdirSync } from "node:fs";
import { readStateHeight } from "../persistAnvilState.js";
import { startAnvil } from "../startAnvil.js";
import { startSavingRpcProxy } from "../startSavingRpcProxy.js";
import {
  getPermit2LegContracts,
  loadPermit2LegArtifacts,
  setUpPermit2Contracts,
} from "./deployPermit2Contracts.js";
import { Permit2Engine } from "./Permit2Engine.js";
import { setUpSmartAccountFactory } from "./smartAccounts.js";
import type { Permit2LegSetup } from "./types.js";

/**
 * Start a permit2 leg's engine: anvil with the sandbox chain id (from the newest complete state file when the leg
 * has a data folder), its contracts restored or deployed, and with a data folder the saving RPC proxy users reach
 * anvil through. On any failure anvil is stopped again: a leg is either started or not.
 */
export async function startPermit2Engine({ setup }: { setup: Permit2LegSetup }): Promise<Permit2Engine> {
  const { options } = setup;
  const { ctx, chainId } = options;
  const artifacts = await loadPermit2LegArtifacts({ log: (message) => ctx.log(message) });
  const nowSecs = BigInt(Math.floor(ctx.clock.nowMs() / 1000));
  const { args, restored } = getAnvilStateArgs({ setup, nowSecs });
  const anvil = await startAnvil({ args: ["--chain-id", String(chainId), "--accounts", "0", ...args] });
  ctx.log(
    `${setup.label}: anvil on ${anvil.rpcUrl} (chain id ${chainId}) started in ${Math.round(anvil.startMs)} ms${restored ? " from saved state" : ""}`,
  );
  const engine = new Permit2Engine(setup, anvil, getPermit2LegContracts({ setup, artifacts }), ctx.clock);
  try {
    await setUpPermit2Contracts({ engine, artifacts });
    await setUpSmartAccountFactory({ engine });
    if (setup.statePath)
      engine.proxy = await startSavingRpcProxy({
        target: anvil.rpcUrl,
        save: () => engine.saveSoon(),
        log: (message) => ctx.log(`${setup.label}: ${message}`),
      });
  } catch (error) {
    await anvil.stop();
    throw error;
  }
  return engine;
}

/**
 * anvil's state arguments: with a data folder, load the state file with the highest block (the leg's own or anvil's
 * periodic dump, whichever is newer and complete) and dump every second as a second line of defence (it covers
 * users' own transactions between leg calls); a fresh engine starts at the sandbox clock's time.
 */
function getAnvilStateArgs({ setup, nowSecs }: { setup: Permit2LegSetup; nowSecs: bigint }): {
  args: string[];
  restored: boolean;
} {
  const args: string[] = [];
  let restored = false;
  const { statePath, intervalStatePath } = setup;
  const dataDir = setup.options.ctx.dataDir;
  if (statePath && intervalStatePath && dataDir !== undefined) {
    mkdirSync(dataDir, { recursive: true });
    const best = [statePath, intervalStatePath]
      .map((file) => ({ file, height: readStateHeight(file) }))
      .filter((c) => c.height >= 0)
      .sort((a, b) => b.height - a.height)[0];
    if (best) {
      args.push("--load-state", best.file);
      restored = true;
    }
    args.push("--dump-state", intervalStatePath, "--state-interval", "1");
  }
  if (!restored) args.push("--timestamp", String(nowSecs));
  return { args, restored };
}
