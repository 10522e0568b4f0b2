import {
  createSwapIntentClient,
  type Network,
  type SwapIntentClient,
  type TokenInfo,
} from "@swapintent/client";
import { type ChainFacts, createDevApi, type DevApi } from "@swapintent/testing/devApi";
import { Redactor } from "./redact.js";
import { createRouteResult, type ProgressEvent, Reporter, type RouteResult } from "./report.js";
import { type Route, type RouteEnd, runRoute } from "./runRoute.js";
import { createWallet, type WalletKeys } from "./wallets/index.js";
import { createSmartAccountWallet } from "./wallets/smartAccount.js";

/** A route of the tour, by `network:token` names. */
export interface RouteSpec {
  name: string;
  from: string;
  to: string;
  amount: string;
  /** The source wallet's kind: a key-held account (default) or an EVM smart account (ERC-1271, ERC-6492 until deployed). */
  fromWallet?: "key" | "smart-account";
}

/** The default tour: every approval mechanism as a source, every network as a destination, one intermediate route. */
export const TOUR: readonly RouteSpec[] = [
  { name: "EVM -> Solana", from: "ethereum:USDC", to: "solana:USDC", amount: "25" },
  { name: "Tron -> Bitcoin", from: "tron:USDT", to: "bitcoin:BTC", amount: "60" },
  { name: "Bitcoin -> EVM", from: "bitcoin:BTC", to: "ethereum:USDC", amount: "0.001" },
  { name: "Solana -> Tron", from: "solana:USDC", to: "tron:USDT", amount: "20" },
  { name: "WETH -> USDT via USDC", from: "l2:WETH", to: "ethereum:USDT", amount: "0.01" },
  {
    name: "EVM smart account (ERC-6492) -> Solana",
    from: "ethereum:USDC",
    to: "solana:USDC",
    amount: "15",
    fromWallet: "smart-account",
  },
];

/** Options of {@link runDemo}. */
export interface RunDemoOptions {
  /** The service; when absent the sandbox is started in-process (with its dev endpoints) and closed at the end. */
  baseUrl?: string;
  /** Allow a plain `http:` `baseUrl` to a host other than loopback (see the client's `allowInsecureHttp`). */
  allowInsecureHttp?: boolean;
  apiKey?: string;
  routes?: readonly RouteSpec[];
  slippageBps?: number;
  dryRun?: boolean;
  json?: boolean;
  /** Chain facts for a deployment without `/sandbox/chains` (same shape), e.g. from `SWAPINTENT_CHAINS_JSON`. */
  chains?: ChainFacts[];
  keys?: WalletKeys;
  /** Called once the embedded sandbox listens, with how to close it (the CLI closes it when it is interrupted). */
  onSandboxStarted?: (sandbox: { url: string; close: () => Promise<void> }) => void;
  /** Output sink (default stdout). */
  out?: (line: string) => void;
  /** Test hooks into the embedded sandbox and each route. */
  hooks?: {
    sandboxOptions?: Record<string, unknown>;
    beforeRoutes?: (context: { dev: DevApi | null; client: SwapIntentClient }) => Promise<void>;
    afterQuote?: Parameters<typeof runRoute>[0]["afterQuote"];
  };
  timeoutMs?: number;
}

/** Result of {@link runDemo}. */
export interface DemoResult {
  ok: boolean;
  totalMs: number;
  results: RouteResult[];
}

/**
 * Runs the demo: starts the sandbox in-process unless `baseUrl` is given, creates fresh wallets (or takes keys),
 * funds them through the sandbox faucet, runs each route from quote to a terminal status and prints the summary.
 */
export async function runDemo(options: RunDemoOptions = {}): Promise<DemoResult> {
  const redactor = new Redactor();
  const apiKey = options.apiKey ?? "swapintent-demo";
  redactor.add(apiKey);
  const reporter = new Reporter({ json: options.json ?? false, redactor, out: options.out });
  const started = performance.now();

  let close: (() => Promise<void>) | undefined;
  let baseUrl = options.baseUrl;
  if (baseUrl === undefined) {
    reporter.note("Starting the embedded sandbox (anvil + Permit2, bitcore interpreter, litesvm)...");
    const { startSandbox } = await import("@swapintent/sandbox");
    const sandbox = await startSandbox({
      port: 0,
      dev: true,
      resolverIntervalMs: 100,
      log: () => {},
      ...(options.hooks?.sandboxOptions ?? {}),
    });
    close = () => sandbox.close();
    baseUrl = sandbox.url;
    options.onSandboxStarted?.({ url: sandbox.url, close });
    reporter.note(`Sandbox ready at ${baseUrl} after ${((performance.now() - started) / 1000).toFixed(2)}s`);
  }
  try {
    const client = createSwapIntentClient({ baseUrl, apiKey, allowInsecureHttp: options.allowInsecureHttp });
    const dev =
      options.baseUrl === undefined || (await hasDevEndpoints(baseUrl, apiKey))
        ? createDevApi({ baseUrl, apiKey })
        : null;
    const chains = options.chains ?? (dev ? await dev.chains() : []);
    const networks = await client.getNetworks();
    await options.hooks?.beforeRoutes?.({ dev, client });

    const results: RouteResult[] = [];
    for (const spec of options.routes ?? TOUR) {
      let route: Route;
      try {
        route = {
          name: spec.name,
          from: await resolveEnd({
            spec: spec.from,
            networks,
            chains,
            client,
            redactor,
            keys: options.keys,
            smartAccount: spec.fromWallet === "smart-account",
          }),
          to: await resolveEnd({ spec: spec.to, networks, chains, client, redactor, keys: options.keys }),
          amount: spec.amount,
          slippageBps: options.slippageBps ?? 50,
        };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        reporter.progress({ route: spec.name, step: `FAILED: ${message}`, elapsedMs: 0 });
        results.push(failedRoute(spec, message));
        continue;
      }
      results.push(
        await runRoute({
          client,
          route,
          dev,
          dryRun: options.dryRun ?? false,
          onProgress: (event: ProgressEvent) => reporter.progress(event),
          afterQuote: options.hooks?.afterQuote,
          timeoutMs: options.timeoutMs,
        }),
      );
    }
    const totalMs = Math.round(performance.now() - started);
    reporter.summary(results, totalMs);
    return { ok: results.every((r) => r.ok), totalMs, results };
  } finally {
    await close?.();
  }
}

async function hasDevEndpoints(baseUrl: string, apiKey: string): Promise<boolean> {
  try {
    const response = await fetch(new URL("/sandbox/chains", baseUrl), { headers: { "x-api-key": apiKey } });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

/** Resolves `network:token` (network by id, by name without the `Sandbox ` prefix, or by type; token by symbol or address). */
async function resolveEnd(params: {
  spec: string;
  networks: Network[];
  chains: ChainFacts[];
  client: SwapIntentClient;
  redactor: Redactor;
  keys: WalletKeys | undefined;
  smartAccount?: boolean;
}): Promise<RouteEnd> {
  const [networkName, tokenName] = params.spec.split(":");
  if (!networkName || !tokenName) throw new Error(`"${params.spec}" is not network:token`);
  const wanted = networkName.toLowerCase();
  const alias = (n: Network) =>
    n.name
      .toLowerCase()
      .replace(/^sandbox\s+/, "")
      .replace(/\s+/g, "-");
  const network =
    params.networks.find((n) => String(n.id) === wanted) ??
    params.networks.find((n) => alias(n) === wanted) ??
    params.networks.find((n) => n.type.toLowerCase() === wanted);
  if (!network) {
    throw new Error(`no network "${networkName}"; known: ${params.networks.map(alias).join(", ")}`);
  }
  let token: TokenInfo | undefined;
  for await (const t of params.client.iterateTokens({ networkId: network.id })) {
    if (t.symbol.toLowerCase() === tokenName.toLowerCase() || t.contractAddress === tokenName) {
      token = t;
      break;
    }
  }
  if (!token) throw new Error(`no token "${tokenName}" on ${network.name}`);
  const facts = params.chains.find((c) => c.network_id === network.id);
  if (!facts) throw new Error(`no chain facts for ${network.name} (a sandbox lists them at /sandbox/chains)`);
  const wallet = params.smartAccount
    ? await createSmartAccountWallet({ info: facts.info, redactor: params.redactor })
    : createWallet({ type: network.type, info: facts.info, redactor: params.redactor, keys: params.keys });
  return { network, token, wallet };
}

function failedRoute(spec: RouteSpec, message: string): RouteResult {
  return createRouteResult({
    route: spec.name,
    from: spec.from,
    to: spec.to,
    amount: spec.amount,
    finalStatus: "failed at setup",
    error: { code: "ROUTE_SETUP", message },
  });
}
