import type { AddressInfo } from "node:net";
import { SANDBOX_NETWORKS } from "./config/networks.js";
import { createStore } from "./db/createStore.js";
import { openSandboxDatabase, type SandboxDatabase } from "./db/openSandboxDatabase.js";
import { createApp } from "./http/createApp.js";
import { createAuthenticator } from "./http/createAuthenticator.js";
import { startResolver } from "./resolver/startResolver.js";
import type { Core } from "./service/core.js";
import { createCore } from "./start/createCore.js";
import { createSandboxClock, type SandboxClock } from "./start/createSandboxClock.js";
import { closeServer, listen } from "./start/listen.js";
import { readEnginesId } from "./start/readEnginesId.js";
import { reportForeignWork } from "./start/reportForeignWork.js";
import { type StartedLegs, startLegs } from "./start/startLegs.js";
import type { ChainInfo, Faults, Sandbox, SandboxOptions } from "./types.js";

const defaultLog = (message: string) =>
  process.stderr.write(`${new Date().toISOString()} sandbox: ${message}\n`);

/**
 * Start the sandbox service: open (or create) its database (PGlite, or a PostgreSQL server with `databaseUrl`),
 * start every network's leg in parallel, start the resolver and serve the API on 127.0.0.1. Resolves once the
 * server listens. Throws a `DatabaseError` (`SANDBOX_DATABASE_*`) when the database cannot be used.
 *
 * @example
 * const sandbox = await startSandbox({ port: 0, dev: true });
 * await fetch(`${sandbox.url}/affiliate/v1/networks`, { headers: { "X-Api-Key": "any" } });
 * await sandbox.close();
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const log = options.log ?? defaultLog;
  const database = await openSandboxDatabase({
    dataDir: options.dataDir,
    databaseUrl: options.databaseUrl,
    waitForLock: options.waitForDatabaseLock,
    lockTimeoutMs:
      options.databaseLockTimeoutSecs === undefined ? undefined : options.databaseLockTimeoutSecs * 1000,
    startTimeoutMs:
      options.databaseStartTimeoutSecs === undefined ? undefined : options.databaseStartTimeoutSecs * 1000,
    log,
  });
  let legs: StartedLegs | undefined;
  try {
    const enginesId = options.enginesId ?? readEnginesId({ dataDir: options.dataDir });
    const store = createStore({ db: database.db, gate: database.gate, enginesId });
    const masterSeed = await store.loadMasterSeed();
    const clock = await createSandboxClock(store, options.clock ?? { nowMs: () => Date.now() });
    await store.adoptUnrecordedIntents();
    await reportForeignWork({ store, enginesId, log });
    // Retaking a server database's lock: whatever this sandbox holds from the database is read again first.
    database.gate.onRetaken?.(async () => {
      await clock.reload();
      await reportForeignWork({ store, enginesId, log });
    });
    const networks = options.networks ?? SANDBOX_NETWORKS;
    legs = await startLegs({ networks, options, clock: clock.clock, masterSeed, log });
    const core = createCore({
      store,
      clock: clock.clock,
      networks,
      legs: legs.legs,
      options,
      enginesId,
      masterSeed,
      log,
    });
    return await serve({ core, options, clock, legs, database });
  } catch (error) {
    await legs?.stop();
    await database.close().catch(() => {});
    throw error;
  }
}

/** Serve the API, then start the resolver (last, once nothing can fail any more). */
async function serve({
  core,
  options,
  clock,
  legs,
  database,
}: {
  core: Core;
  options: SandboxOptions;
  clock: SandboxClock;
  legs: StartedLegs;
  database: SandboxDatabase;
}): Promise<Sandbox> {
  const chains = (): ChainInfo[] =>
    core.networks.map((network) => {
      const leg = core.legs.get(network.id)!;
      return {
        network_id: network.id,
        name: network.name,
        type: network.type,
        approval_mechanism: leg.approvalMechanism,
        info: leg.info(),
      };
    });
  const setFaults = (changes: Partial<Faults>) => {
    Object.assign(core.faults, changes);
    return { ...core.faults };
  };
  const app = createApp({
    core,
    authenticate: createAuthenticator({
      apiKeys: options.apiKeys ?? [],
      publicKeys: options.publicKeys ?? [],
      rateLimit: options.rateLimit,
      clock: options.clock ?? { nowMs: () => Date.now() },
    }),
    dev: options.dev
      ? {
          chains,
          advanceClock: clock.advance,
          clockOffsetMs: clock.offsetMs,
          faults: () => ({ ...core.faults }),
          setFaults,
          status: async () => ({
            engines_id: core.enginesId,
            resolver_lock_held: database.gate.held(),
            paused_intents: (await core.store.listForeignWork()).map((w) => ({
              engines_id: w.enginesId,
              intents: w.intents,
            })),
          }),
        }
      : undefined,
  });
  const server = await listen(app, options.port ?? 0);
  const resolver = startResolver({
    core,
    intervalMs: options.resolverIntervalMs ?? 250,
    stepsPerPass: options.resolverStepsPerPass,
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    chains,
    leg(networkId) {
      const leg = core.legs.get(networkId);
      if (!leg) throw new Error(`no leg for network ${networkId}`);
      return leg;
    },
    clock: core.clock,
    advanceClock: clock.advance,
    setFaults,
    fetch: async (request) => app.fetch(request),
    runResolverOnce: () => resolver.runOnce(),
    close: () => {
      closing ??= (async () => {
        // Both within the same grace: the pass in progress and the requests in flight end (or are left) together.
        await Promise.all([resolver.stop(), closeServer(server)]);
        await legs.stop();
        await database.close();
      })();
      return closing;
    },
  };
}
