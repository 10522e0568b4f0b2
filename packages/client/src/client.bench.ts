/**
 * Client call overhead against a raw `fetch` + `JSON.parse` to the same local node:http server, in the same
 * process; and the cost of parsing a 100-token page. Run with `pnpm bench` in this package.
 *
 * On a shared machine the mean is dominated by scheduling stalls (p99 in the milliseconds); compare the `min`
 * and `p75` columns of the two rows of a group, and the "in-memory fetch" group, which isolates the client's own
 * per-call cost (headers, timeout, retry loop, hooks, schema parsing) from the network.
 */
import { afterAll, bench, describe } from "vitest";
import { networksWire, statusWire, tokensPageWire } from "../test/fixtures.js";
import { startTestServer } from "../test/startTestServer.js";
import { createSwapIntentClient } from "./client/createSwapIntentClient.js";
import { scrubText } from "./internal/scrubText.js";
import { parseTokensPage } from "./internal/wire.js";

const intentId = "9b8a7c6d-5e4f-4a3b-9c2d-1e0f2a3b4c5d";
const tokenPageText = JSON.stringify(tokensPageWire(new URLSearchParams("limit=100&offset=0"), 1000));
const statusText = JSON.stringify(statusWire("Accepted"));
const networksText = JSON.stringify(networksWire);

const server = await startTestServer();
server.handle((request) => {
  server.requests.length = 0;
  const body = request.path.endsWith("/status")
    ? statusText
    : request.path.endsWith("/networks")
      ? networksText
      : tokenPageText;
  return { status: 200, headers: { "content-type": "application/json" }, body };
});
afterAll(() => server.close());

const client = createSwapIntentClient({ baseUrl: server.url, apiKey: "sk_bench" });
const statusUrl = `${server.url}/affiliate/v1/intents/${intentId}/status`;
const tokensUrl = `${server.url}/affiliate/v1/tokens?limit=100&offset=0`;
const networksUrl = `${server.url}/affiliate/v1/networks`;

async function raw(url: string, fetchFn: typeof fetch = fetch): Promise<void> {
  const response = await fetchFn(url, { headers: { accept: "application/json", "x-api-key": "sk_bench" } });
  JSON.parse(await response.text());
}

const memoryFetch: typeof fetch = async () =>
  new Response(statusText, { status: 200, headers: { "content-type": "application/json" } });
const memoryClient = createSwapIntentClient({ baseUrl: server.url, apiKey: "sk_bench", fetch: memoryFetch });

const options = { time: 3000, warmupTime: 1000 };

describe("warm-up (not compared)", () => {
  bench("raw", () => raw(statusUrl), { time: 1000 });
  bench("client", () => client.getIntentStatus({ intentId }).then(() => undefined), { time: 1000 });
});

describe("getIntentStatus over HTTP", () => {
  bench("raw fetch + JSON.parse", () => raw(statusUrl), options);
  bench("client.getIntentStatus", () => client.getIntentStatus({ intentId }).then(() => undefined), options);
});

describe("getNetworks over HTTP", () => {
  bench("raw fetch + JSON.parse", () => raw(networksUrl), options);
  bench("client.getNetworks", () => client.getNetworks().then(() => undefined), options);
});

describe("getIntentStatus with an in-memory fetch (client's own cost)", () => {
  bench("raw Response + JSON.parse", () => raw(statusUrl, memoryFetch), options);
  bench(
    "client.getIntentStatus",
    () => memoryClient.getIntentStatus({ intentId }).then(() => undefined),
    options,
  );
});

describe("100-token page over HTTP", () => {
  bench("raw fetch + JSON.parse", () => raw(tokensUrl), options);
  bench(
    "client.getTokens({ limit: 100 })",
    () => client.getTokens({ limit: 100, offset: 0 }).then(() => undefined),
    options,
  );
});

describe("parsing a 100-token page (no HTTP)", () => {
  bench(
    "JSON.parse",
    () => {
      JSON.parse(tokenPageText);
    },
    options,
  );
  bench(
    "JSON.parse + schema + mapping",
    () => {
      parseTokensPage(JSON.parse(tokenPageText));
    },
    options,
  );
});

// scrubText's speed on 8 MiB of what a hostile or broken server may send (its unit tests bound the work, not the
// clock): each case must stay well under a second on one core
const scrubSecrets = ["sk_live_Layer5Key0123456789", "kT9+a/Zq0bX3y7+Wm1/Lp8vQ=="];
const eightMiB = (unit: string) => unit.repeat(Math.ceil((8 * 1024 * 1024) / unit.length));
describe("scrubText on 8 MiB", () => {
  for (const [name, text] of [
    ["9-letter tokens", eightMiB("abcdefghi ")],
    ["base64 lines as JSON \\n escapes in one token", eightMiB("QUJDREVGR0hJSktMTU5P\\n")],
    ["%u escapes", eightMiB("%u0041")],
    ["HTML character references", eightMiB("&#x41;&#66;")],
    ["paths glued to base64", eightMiB("/a/QUJDREVGR0hJSktMTU5PUVJTVFVWV1hZWg ")],
    ["tokens as long as the key", eightMiB("abcdefghijklmnopqrstuvwxyzabc ")],
  ] as const)
    bench(name, () => void scrubText(text, scrubSecrets), { iterations: 3, time: 0 });
});
