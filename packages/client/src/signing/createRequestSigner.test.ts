import { createHash, createPublicKey, createVerify, generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  cosignTransactionHex,
  intentId,
  networksWire,
  quoteWire,
  solanaAddress,
  statusWire,
  tokensPageWire,
} from "../../test/fixtures.js";
import { rejection } from "../../test/helpers.js";
import { type ReceivedRequest, startTestServer, type TestServer } from "../../test/startTestServer.js";
import { createSwapIntentClient } from "../client/createSwapIntentClient.js";
import type { RequestEvent } from "../client/types.js";
import { createRequestSigner } from "./createRequestSigner.js";

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const privatePem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const publicPem = publicKey.export({ type: "spki", format: "pem" }).toString();
/** The key id as the service operator's published code derives it: SHA-256 over node's PKCS#1 export. */
const operatorKeyId = createHash("sha256")
  .update(createPublicKey(privateKey).export({ type: "pkcs1", format: "der" }))
  .digest("base64");

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** Verifies a received request the way a service would, with node:crypto, from the design §2 text. */
function verify(request: ReceivedRequest, canonical: string): boolean {
  return createVerify("RSA-SHA256")
    .update(canonical)
    .verify(publicKey, String(request.headers["x-api-signature"]), "base64");
}

function signingClient() {
  return createSwapIntentClient({
    baseUrl: server.url,
    requestSigning: createRequestSigner({ privateKey: privatePem, publicKey: publicPem }),
    retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 2 },
  });
}

describe("request signing", () => {
  it("x-api-key is base64 of SHA-256 over the PKCS#1 DER public key (node:crypto's pkcs1 export), not the SPKI", async () => {
    server.handle(() => ({ body: networksWire }));
    await signingClient().getNetworks();
    expect(server.requests[0]?.headers["x-api-key"]).toBe(operatorKeyId);
    const spkiHash = createHash("sha256")
      .update(publicKey.export({ type: "spki", format: "der" }))
      .digest("base64");
    expect(operatorKeyId).not.toBe(spkiHash);
  });

  it("a PKCS#1 PEM public key gives the same key id", async () => {
    server.handle(() => ({ body: networksWire }));
    const pkcs1Pem = publicKey.export({ type: "pkcs1", format: "pem" }).toString();
    await createSwapIntentClient({
      baseUrl: server.url,
      requestSigning: createRequestSigner({ privateKey: privatePem, publicKey: pkcs1Pem }),
    }).getNetworks();
    expect(server.requests[0]?.headers["x-api-key"]).toBe(operatorKeyId);
  });

  it("sends an issued keyId exactly as given, with or without the public key", async () => {
    server.handle(() => ({ body: networksWire }));
    const keyId = "partner-7f3a/issued+id=";
    await createSwapIntentClient({
      baseUrl: server.url,
      requestSigning: createRequestSigner({ privateKey: privatePem, keyId }),
    }).getNetworks();
    await createSwapIntentClient({
      baseUrl: server.url,
      requestSigning: createRequestSigner({ privateKey: privatePem, publicKey: publicPem, keyId }),
    }).getNetworks();
    expect(server.requests.map((r) => r.headers["x-api-key"])).toEqual([keyId, keyId]);
    expect(verify(server.requests[0] as ReceivedRequest, "GET:/affiliate/v1/networks::")).toBe(true);
  });

  it("refuses at construction a signing setup with neither publicKey nor keyId, or an empty keyId", () => {
    for (const [requestSigning, field] of [
      [{ privateKey: privatePem }, "requestSigning.publicKey"],
      [{ privateKey: privatePem, keyId: "" }, "requestSigning.keyId"],
      [{ privateKey: privatePem, publicKey: publicPem, keyId: "" }, "requestSigning.keyId"],
    ] as const) {
      let caught: unknown;
      try {
        createSwapIntentClient({ baseUrl: server.url, requestSigning: createRequestSigner(requestSigning) });
      } catch (error) {
        caught = error;
      }
      expect(caught).toMatchObject({ code: "INVALID_OPTIONS", details: { field } });
    }
  });

  it("a public key that is not an RSA key (EC SPKI, a PKCS#1 PEM without an RSAPublicKey) fails with INVALID_OPTIONS before anything is sent", async () => {
    server.handle(() => ({ body: networksWire }));
    const ecPem = generateKeyPairSync("ec", { namedCurve: "P-256" })
      .publicKey.export({ type: "spki", format: "pem" })
      .toString();
    const notRsaPkcs1 = "-----BEGIN RSA PUBLIC KEY-----\nMAMCAQU=\n-----END RSA PUBLIC KEY-----";
    for (const publicKey of [ecPem, notRsaPkcs1]) {
      const client = createSwapIntentClient({
        baseUrl: server.url,
        requestSigning: createRequestSigner({ privateKey: privatePem, publicKey }),
      });
      const error = await rejection(client.getNetworks());
      expect(error).toMatchObject({
        code: "INVALID_OPTIONS",
        details: { field: "requestSigning.publicKey" },
      });
    }
    expect(server.requests).toHaveLength(0);
  });

  it("signs a GET without query as GET:PATH:: with a unix-seconds timestamp and no nonce", async () => {
    server.handle(() => ({ body: networksWire }));
    // the machine's clock at a fixed instant, 999 ms into its second: the timestamp is that second, never rounded up
    vi.useFakeTimers({ toFake: ["Date"], now: 1_750_000_000_999 });
    try {
      await signingClient().getNetworks();
    } finally {
      vi.useRealTimers();
    }
    const request = server.requests[0] as ReceivedRequest;
    expect(verify(request, "GET:/affiliate/v1/networks::")).toBe(true);
    expect(verify(request, "GET:/affiliate/v1/networks:")).toBe(false);
    expect(request.headers["x-api-timestamp"]).toBe("1750000000");
    expect(request.headers["x-api-nonce"]).toBeUndefined();
  });

  it("signs the query sorted by key, whatever order the caller named the filters in", async () => {
    server.handle((request) => ({ body: tokensPageWire(request.query, 3) }));
    await signingClient().getTokens({ q: "usd coin", offset: 0, networkId: 2, limit: 5 });
    const request = server.requests[0] as ReceivedRequest;
    expect(verify(request, "GET:/affiliate/v1/tokens:limit=5&network_id=2&offset=0&q=usd%20coin:")).toBe(
      true,
    );
    expect(request.rawQuery).toBe("limit=5&network_id=2&offset=0&q=usd%20coin");
  });

  it("signs a POST over the body with sorted keys and no whitespace, with a fresh UUID nonce each time", async () => {
    server.handle(() => ({ body: quoteWire() }));
    const client = signingClient();
    const params = {
      sourceChain: 1,
      sourceToken: "0xA0b8",
      destChain: 5,
      destToken: "So11",
      amount: "1.50",
      slippageBps: 50,
    };
    await client.getBestQuote(params);
    await client.getBestQuote(params);
    const [first, second] = server.requests as [ReceivedRequest, ReceivedRequest];
    const body =
      '{"amount":1.5,"dest_chain":5,"dest_token":"So11","slippage_bps":"50","source_chain":1,"source_token":"0xA0b8","swap_type":"standard"}';
    expect(first.body).toBe(body);
    expect(verify(first, `POST:/affiliate/v1/quotes/best::${body}`)).toBe(true);
    expect(verify(second, `POST:/affiliate/v1/quotes/best::${body}`)).toBe(true);
    expect(first.headers["x-api-nonce"]).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(first.headers["x-api-nonce"]).not.toBe(second.headers["x-api-nonce"]);
  });

  it("signs a nested JSON body with keys sorted at every depth (cosign approval)", async () => {
    const transaction = cosignTransactionHex({ signers: 1 });
    server.handle(() => ({ body: statusWire("ApprovalAdded") }));
    await signingClient().submitApproval({
      intentId,
      approval: { type: "cosign", signedData: { userAddress: solanaAddress, transaction } },
    });
    const request = server.requests[0] as ReceivedRequest;
    const body = `{"signed_data":{"transaction":"${transaction}","user_address":"${solanaAddress}"},"type":"cosign"}`;
    expect(request.body).toBe(body);
    expect(verify(request, `POST:/affiliate/v1/intents/${intentId}/approvals::${body}`)).toBe(true);
  });

  it("a retried POST is signed again with a new nonce", async () => {
    server.handle(() => (server.requests.length === 1 ? { status: 503, body: "" } : { body: quoteWire() }));
    await signingClient().getBestQuote({
      sourceChain: 1,
      sourceToken: "a",
      destChain: 2,
      destToken: "b",
      amount: "1",
      slippageBps: 1,
    });
    const [first, second] = server.requests as [ReceivedRequest, ReceivedRequest];
    expect(first.headers["x-api-nonce"]).not.toBe(second.headers["x-api-nonce"]);
    expect(verify(second, `POST:/affiliate/v1/quotes/best::${second.body}`)).toBe(true);
  });

  it("a base URL path prefix is part of PATH", async () => {
    server.handle(() => ({ body: networksWire }));
    await createSwapIntentClient({
      baseUrl: `${server.url}/api`,
      requestSigning: createRequestSigner({ privateKey: privatePem, publicKey: publicPem }),
    }).getNetworks();
    expect(verify(server.requests[0] as ReceivedRequest, "GET:/api/affiliate/v1/networks::")).toBe(true);
  });

  it("accepts WebCrypto CryptoKeys", async () => {
    const pair = (await crypto.subtle.generateKey(
      {
        name: "RSASSA-PKCS1-v1_5",
        modulusLength: 2048,
        publicExponent: new Uint8Array([1, 0, 1]),
        hash: "SHA-256",
      },
      false,
      ["sign", "verify"],
    )) as CryptoKeyPair;
    server.handle(() => ({ body: statusWire("Initiated") }));
    await createSwapIntentClient({
      baseUrl: server.url,
      requestSigning: createRequestSigner(pair),
    }).getIntentStatus({
      intentId,
    });
    const request = server.requests[0] as ReceivedRequest;
    const spki = Buffer.from(await crypto.subtle.exportKey("spki", pair.publicKey));
    const pkcs1 = createPublicKey({ key: spki, format: "der", type: "spki" }).export({
      type: "pkcs1",
      format: "der",
    });
    expect(request.headers["x-api-key"]).toBe(createHash("sha256").update(pkcs1).digest("base64"));
    const ok = await crypto.subtle.verify(
      "RSASSA-PKCS1-v1_5",
      pair.publicKey,
      Buffer.from(String(request.headers["x-api-signature"]), "base64"),
      new TextEncoder().encode(`GET:/affiliate/v1/intents/${intentId}/status::`),
    );
    expect(ok).toBe(true);
  });

  it("hooks never see the key hash or the signature", async () => {
    server.handle(() => ({ body: networksWire }));
    const events: RequestEvent[] = [];
    await createSwapIntentClient({
      baseUrl: server.url,
      requestSigning: createRequestSigner({ privateKey: privatePem, publicKey: publicPem }),
      hooks: { onRequest: (e) => events.push(e) },
    }).getNetworks();
    const sent = server.requests[0] as ReceivedRequest;
    expect(events[0]?.headers["x-api-key"]).toBe("[redacted]");
    expect(events[0]?.headers["x-api-signature"]).toBe("[redacted]");
    const seen = JSON.stringify(events);
    expect(seen).not.toContain(String(sent.headers["x-api-signature"]));
    expect(seen).not.toContain(String(sent.headers["x-api-key"]));
  });

  it("refuses the former options object in place of a signer, at construction", () => {
    let caught: unknown;
    try {
      createSwapIntentClient({
        baseUrl: server.url,
        requestSigning: { privateKey: privatePem, publicKey: publicPem } as never,
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: "INVALID_OPTIONS", details: { field: "requestSigning" } });
  });

  it("takes a caller's own signer: its headers are sent, and hidden from hooks and error text", async () => {
    server.handle(() => ({ status: 401, body: { code: 401, message: "bad sig-own-7Yq" } }));
    const seen: unknown[] = [];
    const events: RequestEvent[] = [];
    const error = await rejection(
      createSwapIntentClient({
        baseUrl: `${server.url}/p`,
        requestSigning: async (request) => {
          seen.push(request);
          return { "x-api-key": "own-id", "x-api-signature": "sig-own-7Yq" };
        },
        hooks: { onRequest: (e) => events.push(e) },
        retry: false,
      }).getTokens({ q: "b", limit: 2 }),
    );
    expect(seen).toEqual([
      {
        method: "GET",
        path: "/p/affiliate/v1/tokens",
        query: [
          ["limit", "2"],
          ["q", "b"],
        ],
        body: undefined,
      },
    ]);
    expect(server.requests[0]?.headers["x-api-signature"]).toBe("sig-own-7Yq");
    expect(events[0]?.headers["x-api-signature"]).toBe("[redacted]");
    expect(error.details.serverMessage).toBe("bad [redacted]");
  });

  it("an unusable private key fails with INVALID_OPTIONS before anything is sent", async () => {
    server.handle(() => ({ body: networksWire }));
    const error = await rejection(
      createSwapIntentClient({
        baseUrl: server.url,
        requestSigning: createRequestSigner({
          privateKey: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----",
          publicKey: publicPem,
        }),
      }).getNetworks(),
    );
    expect(error.code).toBe("INVALID_OPTIONS");
    expect(error.details.field).toBe("requestSigning.privateKey");
    expect(server.requests).toHaveLength(0);
  });
});
