/**
 * What the client puts on the wire: a query value that is not well-formed Unicode is refused before sending, and a
 * signed request's METHOD:PATH:QUERY:BODY rebuilds, from the raw request, to the text that was signed.
 */
import { createVerify, generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rejection } from "../../test/helpers.js";
import { type ReceivedRequest, startTestServer, type TestServer } from "../../test/startTestServer.js";
import { createRequestSigner } from "../signing/createRequestSigner.js";
import { createSwapIntentClient } from "./createSwapIntentClient.js";

const apiKey = "sk_live_Hostile3Key7";
const _baseUrl = "https://swap.example";
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** The timers Node holds right now. */
const _timers = () => process.getActiveResourcesInfo().filter((name) => name === "Timeout").length;

describe("a query value that is not well-formed Unicode (a search text cut inside an emoji)", () => {
  it("getTokens and getSwapHistory: INVALID_INPUT naming the parameter, nothing sent, never a raw URIError", async () => {
    server.handle(() => ({ body: { data: [], total: 0, limit: 20, offset: 0 } }));
    const client = createSwapIntentClient({ baseUrl: server.url, apiKey, retry: false });
    const calls = {
      q: () => client.getTokens({ q: "usd\ud83d" }),
      wallet: () => client.getSwapHistory({ wallet: "\udc00abc" }),
    };
    for (const [field, call] of Object.entries(calls))
      expect(await rejection(call)).toMatchObject({ code: "INVALID_INPUT", details: { field } });
    expect(server.requests).toHaveLength(0);
  });
});

describe("request signing over the raw request", () => {
  it("request signing: a verifier rebuilding METHOD:PATH:QUERY:BODY from the raw request accepts unicode, reserved characters, repeated keys, an empty body and a unicode path prefix", async () => {
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    /** An independent canonical form: URLSearchParams parses the raw query, a stable sort by key, encodeURIComponent. */
    const canonical = (request: ReceivedRequest) => {
      const pairs = [...new URLSearchParams(request.rawQuery)].sort(([a], [b]) =>
        a < b ? -1 : a > b ? 1 : 0,
      );
      const query = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
      return `${request.method}:${request.path}:${query}:${request.body}`;
    };
    const verified = (request: ReceivedRequest) =>
      createVerify("RSA-SHA256")
        .update(canonical(request), "utf8")
        .verify(publicKey, String(request.headers["x-api-signature"]), "base64");
    server.handle((request) =>
      request.path.endsWith("/quotes/best")
        ? { status: 422, body: { code: 422, message: "no route", entity: "Quote" } }
        : { body: { data: [], total: 0, limit: 20, offset: 0 } },
    );
    const client = createSwapIntentClient({
      baseUrl: `${server.url}/ä pi`,
      retry: false,
      requestSigning: createRequestSigner({
        privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
        publicKey: publicKey.export({ type: "spki", format: "pem" }).toString(),
      }),
    });
    // only what the server received matters here: the answers may not parse
    await client.getTokens({ q: "日本 €/&=?+%20😀", networkId: 7, limit: 3 }).catch(() => {});
    await client
      .getSwapHistory({ wallet: ["0xb", "0xa", "0xb"], retailId: "r&1=2", active: true })
      .catch(() => {});
    await client
      .getBestQuote({
        sourceChain: 1,
        sourceToken: "0xé",
        destChain: 2,
        destToken: "😀\u2028",
        amount: "1",
        slippageBps: 5,
      })
      .catch(() => {});
    expect(server.requests).toHaveLength(3);
    expect(server.requests[0]?.path).toBe("/%C3%A4%20pi/affiliate/v1/tokens");
    expect(server.requests[1]?.query.getAll("wallet")).toEqual(["0xb", "0xa", "0xb"]);
    for (const request of server.requests) expect(verified(request)).toBe(true);
  });
});
