/**
 * The reference end-to-end script against the real sandbox (anvil + Permit2, bitcore's interpreter, litesvm):
 * the whole tour, an expired quote refreshed, a forced delivery failure ending in Refunded, a dry run, and the
 * CLI's --json output parsed from a child process.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startSandbox } from "@swapintent/sandbox";
import type { DevApi } from "@swapintent/testing/devApi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runDemo, TOUR } from "../src/runDemo.js";

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dev: true, resolverIntervalMs: 50, log: () => {} });
});

afterAll(async () => {
  await sandbox?.close();
});

function capture() {
  const lines: string[] = [];
  return { lines, out: (line: string) => lines.push(line), text: () => lines.join("\n") };
}

describe("pnpm demo against the sandbox", () => {
  it("runs the whole tour: every route reaches Fulfilled, every approval mechanism and an intermediate route", async () => {
    const output = capture();
    const result = await runDemo({ baseUrl: sandbox.url, out: output.out, timeoutMs: 60_000 });

    expect(result.results.map((r) => [r.route, r.finalStatus, r.error])).toEqual(
      TOUR.map((spec) => [spec.name, "Fulfilled", null]),
    );
    expect(result.ok).toBe(true);
    expect(new Set(result.results.map((r) => r.approvalMechanism))).toEqual(
      new Set(["permit2", "htlc", "cosign"]),
    );
    expect(result.results.some((r) => r.intermediateToken !== null)).toBe(true);
    for (const r of result.results) {
      expect(r.statuses.at(-1)).toBe("Fulfilled");
      expect(r.txs.user_deposit_tx).toBeTruthy();
      expect(r.txs.fulfill_tx).toBeTruthy();
      expect(r.summary.length).toBeGreaterThan(0);
    }
    expect(output.text()).toMatch(new RegExp(`${TOUR.length} of ${TOUR.length} routes fulfilled`));
  });

  it("refreshes a quote that expired before the intent was created, and the route still completes", async () => {
    let dev: DevApi | null = null;
    let advanced = false;
    const result = await runDemo({
      baseUrl: sandbox.url,
      routes: [{ name: "expired quote", from: "ethereum:USDC", to: "l2:USDC", amount: "5" }],
      out: () => {},
      hooks: {
        beforeRoutes: async (context) => {
          dev = context.dev;
        },
        // Move the sandbox clock past the quote's 30 s lifetime once: the service refuses the intent (422 QUOTE_EXPIRED).
        afterQuote: async () => {
          if (advanced) return;
          advanced = true;
          await dev!.advanceClock(60);
        },
      },
    });
    expect(result.results[0]?.quoteRefreshes).toBe(1);
    expect(result.results[0]?.finalStatus).toBe("Fulfilled");
    expect(result.ok).toBe(true);
  });

  it("reports a forced resolver failure clearly: the route ends Refunded and the demo fails", async () => {
    const output = capture();
    const result = await runDemo({
      baseUrl: sandbox.url,
      routes: [{ name: "refund", from: "solana:USDC", to: "ethereum:USDC", amount: "3" }],
      out: output.out,
      hooks: { beforeRoutes: async ({ dev }) => dev!.setFaults({ fail_delivery: true }) },
    }).finally(() => sandbox.setFaults({ fail_delivery: false }));

    const [route] = result.results;
    expect(result.ok).toBe(false);
    expect(route?.finalStatus).toBe("Refunded");
    expect(route?.statuses.at(-1)).toBe("Refunded");
    expect(route?.txs.user_deposit_tx).toBeTruthy();
    expect(route?.txs.fulfill_tx).toBeNull();
    expect(route?.error?.code).toBe("ROUTE_REFUNDED");
    expect(output.text()).toMatch(/refund\s+FAILED\s+Refunded/);
    expect(output.text()).toMatch(/0 of 1 routes fulfilled.*1 failed/);
  });

  it("--dry-run verifies and prints what would be signed, and submits nothing", async () => {
    const output = capture();
    const result = await runDemo({
      baseUrl: sandbox.url,
      apiKey: "dry-run-partner",
      dryRun: true,
      routes: [{ name: "dry", from: "bitcoin:BTC", to: "solana:USDC", amount: "0.0005" }],
      out: output.out,
    });
    const [route] = result.results;
    expect(route?.finalStatus).toBe("DryRun");
    expect(route?.summary.join("\n")).toMatch(/Lock 0\.0005 BTC in a Taproot HTLC/);
    expect(route?.statuses).toEqual([]);
    // Intents are scoped to the partner (API key) that created them: read it back with the demo's key.
    const status = await fetch(`${sandbox.url}/affiliate/v1/intents/${route?.intentId}/status`, {
      headers: { "x-api-key": "dry-run-partner" },
    });
    expect(((await status.json()) as { status: string }).status).toBe("Initiated");
    const stranger = await fetch(`${sandbox.url}/affiliate/v1/intents/${route?.intentId}/status`, {
      headers: { "x-api-key": "another-partner" },
    });
    expect(stranger.status).toBe(404);
  });

  it("the CLI's --json output is one parseable document, and keys given in the environment never appear", async () => {
    const evmKey = `0x${"3c".repeat(32)}`;
    const apiKey = "demo-secret-api-key-0123456789";
    const cli = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--conditions=swapintent-source",
        cli,
        "--json",
        "--base-url",
        sandbox.url,
        "--from",
        "ethereum:USDC",
        "--to",
        "tron:USDT",
        "--amount",
        "7.5",
        "--slippage",
        "100",
      ],
      {
        cwd: fileURLToPath(new URL("..", import.meta.url)),
        env: { ...process.env, SWAPINTENT_EVM_PRIVATE_KEY: evmKey, SWAPINTENT_API_KEY: apiKey },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));

    expect(stderr).not.toContain(evmKey.slice(2));
    expect(stdout).not.toContain(evmKey.slice(2));
    expect(stdout + stderr).not.toContain(apiKey);
    const doc = JSON.parse(stdout) as {
      ok: boolean;
      routes: { from: string; to: string; finalStatus: string; sourceAmountLots: string; amount: string }[];
    };
    expect(code).toBe(0);
    expect(doc.ok).toBe(true);
    expect(doc.routes).toHaveLength(1);
    expect(doc.routes[0]).toMatchObject({
      finalStatus: "Fulfilled",
      amount: "7.5",
      sourceAmountLots: "7500000",
    });
  });
});
