import { createSwapIntentClient } from "@swapintent/client";
import { type ChainFacts, createDevApi } from "@swapintent/testing/devApi";
import { createInjectedWallets } from "./injected/index.js";
import "./injected/bitcoin.js";
import "./injected/solana.js";
import { type RouteEnd, type RouteProgress, runRoute } from "./runRoute.js";
import { createBitcoinWallet } from "./wallets/createBitcoinWallet.js";
import { createPermit2Wallet } from "./wallets/createPermit2Wallet.js";
import { createSolanaWallet } from "./wallets/createSolanaWallet.js";
import type { BrowserWallet } from "./wallets/types.js";
import "./injected/permit2.js";

/** The routes of the page: one per approval mechanism as a source (key = the source chain). */
const ROUTES = [
  { key: "evm", name: "EVM USDC → Solana USDC", from: ["EVM", "USDC"], to: ["SOLANA", "USDC"], amount: "25" },
  {
    key: "tron",
    name: "Tron USDT → Bitcoin BTC",
    from: ["TRON", "USDT"],
    to: ["BITCOIN", "BTC"],
    amount: "60",
  },
  {
    key: "bitcoin",
    name: "Bitcoin BTC → EVM USDC",
    from: ["BITCOIN", "BTC"],
    to: ["EVM", "USDC"],
    amount: "0.001",
  },
  {
    key: "solana",
    name: "Solana USDC → Tron USDT",
    from: ["SOLANA", "USDC"],
    to: ["TRON", "USDT"],
    amount: "20",
  },
] as const;

const query = new URLSearchParams(location.search);
const baseUrl = query.get("sandbox") ?? location.origin;
const apiKey = query.get("apiKey") ?? "swapintent-browser";
const client = createSwapIntentClient({ baseUrl, apiKey });
const dev = createDevApi({ baseUrl, apiKey });

const setup = document.querySelector<HTMLDivElement>("#setup")!;
const tbody = document.querySelector<HTMLTableSectionElement>("#routes")!;
const runAll = document.querySelector<HTMLButtonElement>("#run-all")!;

/** The chain types the page makes its own wallets for. */
const WALLET_TYPES = ["EVM", "TRON", "BITCOIN", "SOLANA"] as const;

/** A wallet holding a key generated in the page, for one chain. */
function pageWallet({ type, info }: ChainFacts): BrowserWallet {
  if (type === "EVM" || type === "TRON") return createPermit2Wallet({ info, tron: type === "TRON" });
  if (type === "BITCOIN") return createBitcoinWallet({ info });
  if (type === "SOLANA") return createSolanaWallet({ info });
  throw new Error(`no wallet for ${type}`);
}

/**
 * The page's wallets: a key made in the page per chain type; with `?wallets=injected`, the wallets injected into the
 * page (window.unisat, window.ethereum, a wallet-standard wallet, …) replace them, each through its signer package's
 * adapter (`?injected=<name>` picks one; when names are given, the chain types they do not name keep the page's key).
 */
async function createWallets(params: {
  facts: (type: string) => ChainFacts;
  chains: ChainFacts[];
}): Promise<Map<string, BrowserWallet>> {
  const wallets = new Map<string, BrowserWallet>(
    WALLET_TYPES.map((type) => [type, pageWallet(params.facts(type))]),
  );
  if (query.get("wallets") === "injected") {
    const injected = await createInjectedWallets({ chains: params.chains, names: query.getAll("injected") });
    for (const [type, wallet] of injected) wallets.set(type, wallet);
  }
  return wallets;
}

async function main(): Promise<void> {
  const chains = await dev.chains();
  // The first network of each type (the sandbox lists Ethereum before the L2).
  const byType = new Map<string, ChainFacts>();
  for (const chain of chains) if (!byType.has(chain.type)) byType.set(chain.type, chain);
  const facts = (type: string) => {
    const chain = byType.get(type);
    if (!chain) throw new Error(`the sandbox has no ${type} network`);
    return chain;
  };
  const wallets = await createWallets({ facts, chains: [...byType.values()] });
  const end = ([type, symbol]: readonly [string, string]): RouteEnd => {
    const chain = facts(type);
    const token = (chain.info.tokens as Record<string, string> | undefined)?.[symbol];
    if (!token) throw new Error(`${chain.name} has no ${symbol}`);
    return { networkId: chain.network_id, networkType: chain.type, token, wallet: wallets.get(type)! };
  };
  setup.textContent = [...wallets.values()].map((w) => `${w.type}: ${w.address}`).join("  ·  ");

  const runners: Array<() => Promise<RouteProgress>> = [];
  for (const route of ROUTES) {
    const row = tbody.insertRow();
    row.insertCell().textContent = route.name;
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Run";
    button.dataset.route = route.key;
    row.insertCell().append(button);
    const status = row.insertCell();
    status.className = "status";
    status.dataset.status = route.key;
    status.dataset.state = "idle";
    status.textContent = "—";
    const detailCell = row.insertCell();
    detailCell.className = "detail";
    const detail = document.createElement("div");
    detail.dataset.detail = route.key;
    const summary = document.createElement("div");
    summary.className = "summary";
    summary.dataset.summary = route.key;
    detailCell.append(detail, summary);
    const run = async () => {
      button.disabled = true;
      status.dataset.state = "running";
      const result = await runRoute({
        client,
        dev,
        from: end(route.from),
        to: end(route.to),
        amount: route.amount,
        onProgress: (p) => {
          status.textContent = p.status ?? "…";
          detail.textContent = [p.error ?? p.step, p.intentId ? `intent ${p.intentId}` : ""]
            .filter(Boolean)
            .join(" · ");
          summary.textContent = p.summary.join("\n");
        },
      });
      status.dataset.state = result.status === "Fulfilled" && !result.error ? "ok" : "failed";
      if (result.error) status.textContent = `${result.status ?? "Error"} (failed)`;
      button.disabled = false;
      return result;
    };
    button.addEventListener("click", () => void run());
    runners.push(run);
  }
  runAll.disabled = false;
  runAll.addEventListener("click", () => void Promise.all(runners.map((run) => run())));
  document.body.dataset.ready = "true";
}

main().catch((error: unknown) => {
  setup.textContent = `setup failed: ${error instanceof Error ? error.message : String(error)}`;
  document.body.dataset.ready = "error";
});
