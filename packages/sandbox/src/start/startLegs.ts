import { join } from "node:path";
import { deriveLegSeed } from "../deriveLegSeed.js";
import { resolveLegFactory } from "../legs/registry.js";
import type { ChainLeg, Clock, NetworkConfig } from "../legs/types.js";
import type { SandboxOptions } from "../types.js";

/** The started legs by network id, and how to stop them. */
export interface StartedLegs {
  legs: Map<number, ChainLeg>;
  /** Stop every leg (errors ignored: each leg stops on its own). */
  stop(): Promise<void>;
}

/**
 * Create each network's leg (loading the leg modules in parallel: each pulls in its engine's libraries) and start
 * them all in parallel. Each leg keeps its engine state in `<dataDir>/legs/<network id>`, whichever database the
 * sandbox uses. When one fails to start, every leg created is stopped (a failed one may still hold a process or a
 * port) and the first failure is thrown.
 */
export async function startLegs({
  networks,
  options,
  clock,
  masterSeed,
  log,
}: {
  networks: readonly NetworkConfig[];
  options: SandboxOptions;
  clock: Clock;
  masterSeed: Uint8Array;
  log: (message: string) => void;
}): Promise<StartedLegs> {
  const legs = new Map<number, ChainLeg>();
  const stopAll = async () => {
    await Promise.allSettled([...legs.values()].map((leg) => leg.stop()));
  };
  try {
    const factories = await Promise.all(
      networks.map((network) => resolveLegFactory({ type: network.type, injected: options.legs })),
    );
    for (const [index, network] of networks.entries()) {
      legs.set(
        network.id,
        factories[index]!({
          network,
          clock,
          dataDir:
            options.dataDir === undefined ? undefined : join(options.dataDir, "legs", String(network.id)),
          seed: deriveLegSeed({ masterSeed, networkId: network.id }),
          log: (message) => log(`[${network.name}] ${message}`),
        }),
      );
    }
    const results = await Promise.allSettled([...legs.values()].map((leg) => leg.start()));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed) throw failed.reason;
  } catch (error) {
    await stopAll();
    throw error;
  }
  return { legs, stop: stopAll };
}
