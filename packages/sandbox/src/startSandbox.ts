import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { getRequestListener } from "@hono/node-server";
import { SANDBOX_NETWORKS } from "./config/networks.js";
import { DEFAULT_PRICES, DEFAULT_STABLECOINS } from "./config/prices.js";
import { createStore } from "./db/createStore.js";
import { openDatabase } from "./db/openDatabase.js";
import { deriveLegSeed } from "./deriveLegSeed.js";
import { answerClientError, answerRequestError, MAX_HEADER_BYTES } from "./http/answerClientError.js";
import { createApp } from "./http/createApp.js";
import { createAuthenticator } from "./http/createAuthenticator.js";
import { resolveLegFactory } from "./legs/registry.js";
import type { ChainLeg, Clock } from "./legs/types.js";
import { startResolver } from "./resolver/startResolver.js";
import type { CatalogueToken, Core } from "./service/core.js";
import { toTokenKey } from "./service/toTokenKey.js";
import type { ChainInfo, Faults, Sandbox, SandboxOptions } from "./types.js";

const defaultLog = (message: string) =>
  process.stderr.write(`${new Date().toISOString()} sandbox: ${message}\n`);

/**
 * Start the sandbox service: open (or create) its database, start every network's leg in parallel, start the
 * resolver and serve the API on 127.0.0.1. Resolves once the server listens.
 *
 * @example
 * const sandbox = await startSandbox({ port: 0, dev: true });
 * await fetch(`${sandbox.url}/affiliate/v1/networks`, { headers: { "X-Api-Key": "any" } });
 * await sandbox.close();
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const log = options.log ?? defaultLog;
  const baseClock: Clock = options.clock ?? { nowMs: () => Date.now() };
  const db = await openDatabase({
    dir: options.dataDir === undefined ? undefined : join(options.dataDir, "db"),
  });
  const store = createStore({ db });
  const legs = new Map<number, ChainLeg>();
  const started: ChainLeg[] = [];
  try {
    const masterSeed = await store.loadMasterSeed();
    let offsetMs = await store.loadClockOffsetMs();
    const clock: Clock = { nowMs: () => baseClock.nowMs() + offsetMs };
    const networks = options.networks ?? SANDBOX_NETWORKS;

    // Load the leg modules in parallel (each pulls in its engine's libraries), then create the legs.
    const factories = await Promise.all(
      networks.map((network) => resolveLegFactory({ type: network.type, injected: options.legs })),
    );
    for (const [index, network] of networks.entries()) {
      const factory = factories[index]!;
      legs.set(
        network.id,
        factory({
          network,
          clock,
          dataDir:
            options.dataDir === undefined ? undefined : join(options.dataDir, "legs", String(network.id)),
          seed: deriveLegSeed({ masterSeed, networkId: network.id }),
          log: (message) => log(`[${network.name}] ${message}`),
        }),
      );
    }
    const results = await Promise.allSettled(
      [...legs.values()].map(async (leg) => {
        await leg.start();
        started.push(leg);
      }),
    );
    const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed) throw failed.reason;

    const tokens: CatalogueToken[] = networks.flatMap((network) =>
      legs
        .get(network.id)!
        .tokens()
        // The spec's icon_url is a URL: a leg that has no icon gets the sandbox's placeholder for the symbol.
        .map((token) => ({
          ...token,
          iconUrl:
            token.iconUrl ||
            `https://sandbox.swapintent.invalid/icons/${encodeURIComponent(token.symbol.toLowerCase())}.svg`,
          networkId: network.id,
        })),
    );
    const tokenIndex = new Map(tokens.map((t) => [toTokenKey(t.networkId, t.contractAddress), t]));
    const networkIndex = new Map(networks.map((n) => [n.id, n]));
    const faults: Faults = { fail_delivery: false, decline_all: false };
    const core: Core = {
      store,
      clock,
      networks,
      legs,
      tokens,
      findNetwork: (id) => networkIndex.get(id),
      findToken: (networkId, address) => tokenIndex.get(toTokenKey(networkId, address)),
      config: {
        quoteTtlSecs: options.quoteTtlSecs ?? 30,
        intentTtlSecs: options.intentTtlSecs ?? 1800,
        prices: options.prices ?? DEFAULT_PRICES,
        stablecoins: new Set(options.stablecoins ?? DEFAULT_STABLECOINS),
        maxQuoteUsd: options.maxQuoteUsd ?? 10_000_000n,
      },
      faults,
      log,
    };

    const chains = (): ChainInfo[] =>
      networks.map((network) => {
        const leg = legs.get(network.id)!;
        return {
          network_id: network.id,
          name: network.name,
          type: network.type,
          approval_mechanism: leg.approvalMechanism,
          info: leg.info(),
        };
      });
    const advanceClock = async (secs: number) => {
      offsetMs += secs * 1000;
      await store.saveClockOffsetMs(offsetMs);
    };
    const setFaults = (changes: Partial<Faults>) => {
      Object.assign(faults, changes);
      return { ...faults };
    };

    const app = createApp({
      core,
      authenticate: createAuthenticator({
        apiKeys: options.apiKeys ?? [],
        publicKeys: options.publicKeys ?? [],
        rateLimit: options.rateLimit,
        clock: baseClock,
      }),
      dev: options.dev
        ? { chains, advanceClock, clockOffsetMs: () => offsetMs, faults: () => ({ ...faults }), setFaults }
        : undefined,
    });
    // A request the adapter cannot turn into a URL (`OPTIONS *`, a Host header that is not a host) gets the API's
    // JSON error too; a request without Host (HTTP/1.0 style) is served as if sent to 127.0.0.1.
    const listener = getRequestListener(app.fetch, {
      hostname: "127.0.0.1",
      errorHandler: answerRequestError,
    });
    const server = await new Promise<Server>((resolve, reject) => {
      const s = createServer({ maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false }, listener);
      s.once("error", reject);
      s.on("clientError", answerClientError);
      s.listen(options.port ?? 0, "127.0.0.1", () => resolve(s));
    });
    // The resolver starts last, once nothing can fail any more.
    const resolver = startResolver({
      core,
      intervalMs: options.resolverIntervalMs ?? 250,
      stepsPerPass: options.resolverStepsPerPass,
    });
    const port = (server.address() as AddressInfo).port;

    let closing: Promise<void> | undefined;
    const close = () => {
      closing ??= (async () => {
        await resolver.stop();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await Promise.allSettled(started.map((leg) => leg.stop()));
        await db.close();
      })();
      return closing;
    };

    return {
      url: `http://127.0.0.1:${port}`,
      port,
      chains,
      leg(networkId) {
        const leg = legs.get(networkId);
        if (!leg) throw new Error(`no leg for network ${networkId}`);
        return leg;
      },
      clock,
      advanceClock,
      setFaults,
      fetch: async (request) => app.fetch(request),
      runResolverOnce: () => resolver.runOnce(),
      close,
    };
  } catch (error) {
    // A leg whose start failed may still hold a process or a port: stop every leg created.
    await Promise.allSettled([...legs.values()].map((leg) => leg.stop()));
    await db.close().catch(() => {});
    throw error;
  }
}
