/**
 * Client overhead against a raw `fetch` + `JSON.parse` to the same local node:http server, in the same process.
 * Run with `pnpm bench` in this package; compare the rows of each group (vitest prints the ratio).
 */
import { afterAll, bench, describe } from "vitest";
import { networksWire, statusWire, tokensPageWire } from "../test/fixtures.js";
import { startTestServer } from "../test/startTestServer.js";
import { createClient } from "./client/createClient.js";
import { parseTokensPage } from "./internal/wire.js";

const intentId = "9b8a7c6d-5e4f-4a3b-9c2d-1e0f2a3b4c5d";
const tokenPage = tokensPageWire(new URLSearchParams("limit=100&offset=0"), 1000);
const tokenPageText = JSON.stringify(tokenPage);
const statusText = JSON.stringify(statusWire("Accepted"));
const networksText = JSON.stringify(networksWire);

const server = await startTestServer();
server.handle((request) => {
  const body = request.path.endsWith("/status")
    ? statusText
    : request.path.endsWith("/networks")
      ? networksText
      : tokenPageText;
  server.requests.length = 0;
  return { status: 200, headers: { "content-type": "application/json" }, body };
});
afterAll(() => server.close());

const client = createClient({ baseUrl: server.url, apiKey: "sk_bench" });
const statusUrl = `${server.url}/affiliate/v1/intents/${intentId}/status`;
const tokensUrl = `${server.url}/affiliate/v1/tokens?limit=100&offset=0`;
const networksUrl = `${server.url}/affiliate/v1/networks`;

async function raw(url: string): Promise<unknown> {
  const response = await fetch(url, { headers: { accept: "application/json", "x-api-key": "sk_bench" } });
  return JSON.parse(await response.text());
}

const options = { time: 1500, warmupTime: 300 };

describe("getIntentStatus vs raw fetch + JSON.parse", () => {
  bench("raw fetch + JSON.parse", () => raw(statusUrl).then(() => undefined), options);
  bench("client.getIntentStatus", () => client.getIntentStatus({ intentId }).then(() => undefined), options);
});

describe("getNetworks vs raw fetch + JSON.parse", () => {
  bench("raw fetch + JSON.parse", () => raw(networksUrl).then(() => undefined), options);
  bench("client.getNetworks", () => client.getNetworks().then(() => undefined), options);
});

describe("100-token page over HTTP", () => {
  bench("raw fetch + JSON.parse", () => raw(tokensUrl).then(() => undefined), options);
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
