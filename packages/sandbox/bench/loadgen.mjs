// Load generator for the sandbox benchmark. Runs as its own process so the load does not share the
// sandbox's event loop. Talks to 127.0.0.1 only, over keep-alive connections, with a bounded request count
// and duration. Usage: node loadgen.mjs '<json config>'; prints one JSON line with the results.
import http from "node:http";

const config = JSON.parse(process.argv[2]);
const {
  port,
  path,
  method = "GET",
  body,
  concurrency = 16,
  maxRequests = 20000,
  maxSeconds = 5,
  headers = {},
} = config;
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const payload =
  body === undefined ? undefined : Buffer.from(typeof body === "string" ? body : JSON.stringify(body));
let sent = 0;
let ok = 0;
let failed = 0;
const statuses = {};
const latencies = [];
const deadline = performance.now() + maxSeconds * 1000;

function once() {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path,
        method,
        agent,
        headers: {
          "x-api-key": "bench",
          ...(payload ? { "content-type": "application/json", "content-length": payload.length } : {}),
          ...headers,
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => {
          statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
          if (res.statusCode === 200) ok++;
          else failed++;
          latencies.push(performance.now() - started);
          resolve();
        });
      },
    );
    req.on("error", () => {
      failed++;
      resolve();
    });
    if (payload) req.write(payload);
    req.end();
  });
}

async function worker() {
  while (sent < maxRequests && performance.now() < deadline) {
    sent++;
    await once();
  }
}

const start = performance.now();
await Promise.all(Array.from({ length: concurrency }, worker));
const seconds = (performance.now() - start) / 1000;
latencies.sort((a, b) => a - b);
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
agent.destroy();
process.stdout.write(
  `${JSON.stringify({ requests: ok + failed, ok, failed, statuses, seconds, perSecond: ok / seconds, p50Ms: pct(0.5), p99Ms: pct(0.99) })}\n`,
);
