/**
 * Load generator for the sandbox benchmark, run as its own process (measureService.ts starts it with tsx's loader)
 * so the load does not share the sandbox's event loop. Sends one request over and over from `concurrency`
 * keep-alive connections, bounded by a request count and a duration. Prints one JSON line with the results.
 */
import { createHttpClient, percentile } from "./httpClient.js";

const config = JSON.parse(process.argv[2] ?? "{}") as {
  port: number;
  path: string;
  method?: string;
  body?: unknown;
  concurrency?: number;
  maxRequests?: number;
  maxSeconds?: number;
};
const { port, path, method = "GET", body, concurrency = 16, maxRequests = 20000, maxSeconds = 5 } = config;
const client = createHttpClient({ port, maxSockets: concurrency });
let sent = 0;
let ok = 0;
let failed = 0;
const statuses: Record<number, number> = {};
const latencies: number[] = [];
const deadline = performance.now() + maxSeconds * 1000;

async function worker() {
  while (sent < maxRequests && performance.now() < deadline) {
    sent++;
    try {
      const r = await client.call(method, path, body);
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      if (r.status === 200) ok++;
      else failed++;
      latencies.push(r.ms);
    } catch {
      failed++;
    }
  }
}

const start = performance.now();
await Promise.all(Array.from({ length: concurrency }, worker));
const seconds = (performance.now() - start) / 1000;
latencies.sort((a, b) => a - b);
client.close();
process.stdout.write(
  `${JSON.stringify({ requests: ok + failed, ok, failed, statuses, seconds, perSecond: ok / seconds, p50Ms: percentile(latencies, 0.5), p99Ms: percentile(latencies, 0.99) })}\n`,
);
