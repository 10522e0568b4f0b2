import { createHash, createPublicKey, createSign, generateKeyPairSync } from "node:crypto";
import { request as httpRequest } from "node:http";
import { createRequestSigner, createSwapIntentClient } from "@swapintent/client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestSandbox, type TestSandbox, type Wire } from "./support/harness.js";

const partner = generateKeyPairSync("rsa", { modulusLength: 2048 });
const publicPem = partner.publicKey.export({ type: "spki", format: "pem" }).toString();
const privatePem = partner.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
/** The key id as the real service's published code derives it: base64 SHA-256 of the PKCS#1 DER (node:crypto). */
const keyId = createHash("sha256")
  .update(createPublicKey(privatePem).export({ type: "pkcs1", format: "der" }))
  .digest("base64");
/** The SPKI-DER hash earlier clients sent, accepted during the transition. */
const spkiKeyId = createHash("sha256")
  .update(partner.publicKey.export({ type: "spki", format: "der" }))
  .digest("base64");
/** A second partner, configured with a PKCS#1 PEM and a key id it was issued. */
const issued = generateKeyPairSync("rsa", { modulusLength: 2048 });
const issuedKeyId = "issued-key-id-of-partner-2";

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox({
    publicKeys: [
      publicPem,
      {
        pem: issued.publicKey.export({ type: "pkcs1", format: "pem" }).toString(),
        keyId: issuedKeyId,
      },
    ],
  });
});
afterAll(() => t?.close());

/** Sign a canonical string written out by hand from design §2 (independent of both the client and the sandbox). */
function signCanonical(canonical: string, key = partner.privateKey): string {
  return createSign("RSA-SHA256").update(canonical).sign(key, "base64");
}

async function send({
  method,
  path,
  body,
  canonical,
  timestamp = Math.floor(Date.now() / 1000),
  nonce = crypto.randomUUID(),
  signature,
  apiKey = keyId,
}: {
  method: string;
  path: string;
  body?: string;
  canonical: string;
  timestamp?: number;
  nonce?: string | null;
  signature?: string;
  apiKey?: string;
}) {
  const headers: Record<string, string> = {
    "x-api-key": apiKey,
    "x-api-signature": signature ?? signCanonical(canonical),
    "x-api-timestamp": String(timestamp),
    "content-type": "application/json",
  };
  if (nonce !== null) headers["x-api-nonce"] = nonce;
  const r = await fetch(`${t.sandbox.url}${path}`, { method, headers, body });
  return {
    status: r.status,
    body: (await r.json()) as { type?: string; code?: number } & Wire,
  };
}

describe("the key id (x-api-key of signed requests)", () => {
  const canonical = "GET:/affiliate/v1/networks::";
  test("base64 SHA-256 of the PKCS#1 DER, as node:crypto exports it, is accepted", async () => {
    expect(keyId).not.toBe(spkiKeyId);
    const r = await send({ method: "GET", path: "/affiliate/v1/networks", canonical, apiKey: keyId });
    expect(r.status).toBe(200);
  });

  test("the SPKI-DER hash of earlier clients is accepted too, as the same partner", async () => {
    expect(
      (await send({ method: "GET", path: "/affiliate/v1/networks", canonical, apiKey: spkiKeyId })).status,
    ).toBe(200);
    // a quote asked for under one id is the same partner's under the other: an intent from it gets past the quote lookup
    const usdcOn = async (network: number) => {
      const query = `network_id=${network}&q=usdc`;
      const r = await send({
        method: "GET",
        path: `/affiliate/v1/tokens?${query}`,
        canonical: `GET:/affiliate/v1/tokens:${query}:`,
        nonce: null,
      });
      return r.body.data[0].contract_address as string;
    };
    const usdc1 = await usdcOn(1);
    const usdc5 = await usdcOn(5);
    const quoteBody = JSON.stringify({
      source_chain: 1,
      source_token: usdc1,
      dest_chain: 5,
      dest_token: usdc5,
      amount: 1,
      slippage_bps: "0",
      swap_type: "standard",
    });
    const sorted = JSON.stringify(
      Object.fromEntries(Object.entries(JSON.parse(quoteBody)).sort(([a], [b]) => (a < b ? -1 : 1))),
    );
    const quote = await send({
      method: "POST",
      path: "/affiliate/v1/quotes/best",
      body: quoteBody,
      canonical: `POST:/affiliate/v1/quotes/best::${sorted}`,
      apiKey: spkiKeyId,
    });
    expect(quote.status).toBe(200);
    const intentBody = `{"quote_id":"${quote.body.id}"}`;
    const asPkcs1 = await send({
      method: "POST",
      path: "/affiliate/v1/intents",
      body: intentBody,
      canonical: `POST:/affiliate/v1/intents::${intentBody}`,
      apiKey: keyId,
    });
    expect(asPkcs1.body.type).toBe("MISSING_FIELD"); // past authentication, failing on the fields it lacks
    // the other partner, validly signed, may not see the quote: QUOTE_NOT_FOUND once its fields are complete
    const w = "0x1111111111111111111111111111111111111111";
    const full = JSON.stringify({
      quote_id: quote.body.id,
      refund_address: w,
      user_destination_address: w,
      user_source_address: w,
    });
    const otherPartner = await send({
      method: "POST",
      path: "/affiliate/v1/intents",
      body: full,
      canonical: `POST:/affiliate/v1/intents::${full}`,
      apiKey: issuedKeyId,
      signature: signCanonical(`POST:/affiliate/v1/intents::${full}`, issued.privateKey),
    });
    expect(otherPartner.status).toBe(404);
    expect(otherPartner.body.type).toBe("QUOTE_NOT_FOUND");
  });

  test("a key configured with an issued id is named by that id only", async () => {
    const sign = (c: string) => signCanonical(c, issued.privateKey);
    const ok = await send({
      method: "GET",
      path: "/affiliate/v1/networks",
      canonical,
      apiKey: issuedKeyId,
      signature: sign(canonical),
    });
    expect(ok.status).toBe(200);
    const derived = createHash("sha256")
      .update(issued.publicKey.export({ type: "pkcs1", format: "der" }))
      .digest("base64");
    const refused = await send({
      method: "GET",
      path: "/affiliate/v1/networks",
      canonical,
      apiKey: derived,
      signature: sign(canonical),
    });
    expect(refused.status).toBe(401);
    expect(refused.body.type).toBe("UNKNOWN_API_KEY");
    // a valid signature by partner 2 under partner 1's key id is refused
    const crossed = await send({
      method: "GET",
      path: "/affiliate/v1/networks",
      canonical,
      apiKey: keyId,
      signature: sign(canonical),
    });
    expect(crossed.body.type).toBe("INVALID_SIGNATURE");
  });
});

describe("request signing (design §2)", () => {
  test("the swapintent client's signed requests are accepted: GET with sorted query, POST with a JSON body", async () => {
    const client = createSwapIntentClient({
      baseUrl: t.sandbox.url,
      requestSigning: createRequestSigner({ privateKey: privatePem, publicKey: publicPem }),
      retry: false,
    });
    const networks = await client.getNetworks();
    expect(networks.map((n) => n.id)).toEqual([1, 2, 3, 4, 5]);
    const tokens = await client.getTokens({ networkId: 1, q: "usd coin", limit: 5 });
    expect(tokens.items.map((x) => x.symbol)).toEqual(["USDC"]);
    const usdc1 = tokens.items[0]!.contractAddress;
    const usdc5 = (await client.getTokens({ networkId: 5, q: "usdc" })).items[0]!.contractAddress;
    const quote = await client.getBestQuote({
      sourceChain: 1,
      sourceToken: usdc1,
      destChain: 5,
      destToken: usdc5,
      amount: "12.345678",
      slippageBps: 25,
    });
    expect(quote.sourceAmountLots).toBe(12_345678n);
    const history = await client.getSwapHistory({ wallet: ["0xb", "0xa"], limit: 3 });
    expect(history.total).toBe(0);
  });

  test("a hand-made canonical string with unsorted body keys and query params verifies", async () => {
    const body =
      '{ "swap_type":"standard", "amount": 1.50, "slippage_bps":"0", "source_chain":1, "dest_chain":2, "source_token":"x", "dest_token":"y" }';
    const canonical =
      'POST:/affiliate/v1/quotes/best::{"amount":1.50,"dest_chain":2,"dest_token":"y","slippage_bps":"0","source_chain":1,"source_token":"x","swap_type":"standard"}';
    const r = await send({ method: "POST", path: "/affiliate/v1/quotes/best", body, canonical });
    // authenticated: the request reaches validation (unknown token), not 401
    expect(r.status).toBe(400);
    expect(r.body.type).toBe("UNKNOWN_TOKEN");
    const get = await send({
      method: "GET",
      path: "/affiliate/v1/tokens?q=usd%20coin&limit=2&network_id=1",
      canonical: "GET:/affiliate/v1/tokens:limit=2&network_id=1&q=usd%20coin:",
      nonce: null,
    });
    expect(get.status).toBe(200);
  });

  test("a bad signature is 401 INVALID_SIGNATURE", async () => {
    const canonical = "GET:/affiliate/v1/networks::";
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 });
    expect(
      (
        await send({
          method: "GET",
          path: "/affiliate/v1/networks",
          canonical,
          signature: signCanonical(canonical, other.privateKey),
        })
      ).body.type,
    ).toBe("INVALID_SIGNATURE");
    // signed for another path
    const r = await send({
      method: "GET",
      path: "/affiliate/v1/networks",
      canonical: "GET:/affiliate/v1/tokens::",
    });
    expect(r.status).toBe(401);
    expect(r.body.type).toBe("INVALID_SIGNATURE");
    // body changed after signing
    const signed = 'POST:/affiliate/v1/intents::{"quote_id":"a"}';
    const changed = await send({
      method: "POST",
      path: "/affiliate/v1/intents",
      body: '{"quote_id":"b"}',
      canonical: signed,
      signature: signCanonical(signed),
    });
    expect(changed.body.type).toBe("INVALID_SIGNATURE");
  });

  test("a timestamp more than 60 s off is 401 STALE_TIMESTAMP; 59 s is fine", async () => {
    const canonical = "GET:/affiliate/v1/networks::";
    const now = Math.floor(Date.now() / 1000);
    for (const timestamp of [now - 120, now + 120]) {
      const r = await send({ method: "GET", path: "/affiliate/v1/networks", canonical, timestamp });
      expect(r.status).toBe(401);
      expect(r.body.type).toBe("STALE_TIMESTAMP");
    }
    expect(
      (await send({ method: "GET", path: "/affiliate/v1/networks", canonical, timestamp: now - 55 })).status,
    ).toBe(200);
  });

  test("a reused nonce is 401 NONCE_REUSED; a POST without a nonce is 401 NONCE_REQUIRED", async () => {
    const canonical = "GET:/affiliate/v1/networks::";
    const nonce = crypto.randomUUID();
    expect((await send({ method: "GET", path: "/affiliate/v1/networks", canonical, nonce })).status).toBe(
      200,
    );
    const again = await send({ method: "GET", path: "/affiliate/v1/networks", canonical, nonce });
    expect(again.status).toBe(401);
    expect(again.body.type).toBe("NONCE_REUSED");
    const post = await send({
      method: "POST",
      path: "/affiliate/v1/intents",
      body: "{}",
      canonical: "POST:/affiliate/v1/intents::{}",
      nonce: null,
    });
    expect(post.body.type).toBe("NONCE_REQUIRED");
  });

  test("copies of one signed POST sent together: exactly one is served, the others are 401 NONCE_REUSED", async () => {
    const body = "{}";
    const canonical = "POST:/affiliate/v1/quotes/best::{}";
    const signature = signCanonical(canonical);
    const nonce = crypto.randomUUID();
    // Headers first, the body 30 ms later (Content-Length set, so it is read from the socket as it comes): every
    // copy has passed the first nonce check before any body arrives.
    const slowCopy = () =>
      new Promise<{ status: number; body: Wire }>((resolve, reject) => {
        const req = httpRequest(
          {
            host: "127.0.0.1",
            port: t.sandbox.port,
            method: "POST",
            path: "/affiliate/v1/quotes/best",
            headers: {
              "x-api-key": keyId,
              "x-api-signature": signature,
              "x-api-timestamp": String(Math.floor(Date.now() / 1000)),
              "x-api-nonce": nonce,
              "content-type": "application/json",
              "content-length": String(body.length),
            },
          },
          (res) => {
            let text = "";
            res.on("data", (chunk) => (text += chunk));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
          },
        );
        req.on("error", reject);
        req.flushHeaders();
        setTimeout(() => req.end(body), 30);
      });
    const replies = await Promise.all(Array.from({ length: 12 }, slowCopy));
    const passed = replies.filter((r) => r.body.type !== "NONCE_REUSED");
    expect(passed).toHaveLength(1);
    expect(passed[0]?.body.type).toBe("MISSING_FIELD"); // past authentication, failing on the empty body
    expect(replies.filter((r) => r.status === 401)).toHaveLength(11);
    // the same bytes under the key's other accepted id are the same key's replay
    const alias = await send({
      method: "POST",
      path: "/affiliate/v1/quotes/best",
      body,
      canonical,
      nonce,
      signature,
      apiKey: spkiKeyId,
    });
    expect(alias.body.type).toBe("NONCE_REUSED");
  });

  test("a nonce over 128 characters is 401 NONCE_INVALID (each one is kept in memory for 10 minutes)", async () => {
    const canonical = "GET:/affiliate/v1/networks::";
    const long = await send({
      method: "GET",
      path: "/affiliate/v1/networks",
      canonical,
      nonce: "n".repeat(129),
    });
    expect(long.status).toBe(401);
    expect(long.body.type).toBe("NONCE_INVALID");
    const atLimit = await send({
      method: "GET",
      path: "/affiliate/v1/networks",
      canonical,
      nonce: `${"n".repeat(92)}${crypto.randomUUID()}`,
    });
    expect(atLimit.status).toBe(200);
  });

  test("nonces are per key: another partner's request may use a nonce this one used", async () => {
    const canonical = "GET:/affiliate/v1/networks::";
    const nonce = crypto.randomUUID();
    expect((await send({ method: "GET", path: "/affiliate/v1/networks", canonical, nonce })).status).toBe(
      200,
    );
    const other = await send({
      method: "GET",
      path: "/affiliate/v1/networks",
      canonical,
      nonce,
      apiKey: issuedKeyId,
      signature: signCanonical(canonical, issued.privateKey),
    });
    expect(other.status).toBe(200);
  });

  test("bad text in a signed request is a 400 before any signature check, never a 500", async () => {
    for (const body of ['{"a":"\\x41"}', '{"a":"\\u12"}']) {
      const r = await send({ method: "POST", path: "/affiliate/v1/quotes/best", body, canonical: "unused" });
      expect(r.status).toBe(400);
      expect(r.body.type).toBe("MALFORMED_JSON");
    }
    for (const query of ["q=%zz", "q=%E2%82", "%ZZ=1"]) {
      const r = await send({
        method: "GET",
        path: `/affiliate/v1/tokens?${query}`,
        canonical: "unused",
        nonce: null,
      });
      expect(r.status).toBe(400);
      expect(r.body.type).toBe("MALFORMED_QUERY");
    }
    const nul = await send({
      method: "GET",
      path: "/affiliate/v1/swaps/history?wallet=%00",
      canonical: "GET:/affiliate/v1/swaps/history:wallet=%00:",
      nonce: null,
    });
    expect(nul.status).toBe(400);
    expect(nul.body.type).toBe("INVALID_TEXT");
  });

  test("an unknown key id or missing signature headers are 401", async () => {
    const canonical = "GET:/affiliate/v1/networks::";
    expect(
      (await send({ method: "GET", path: "/affiliate/v1/networks", canonical, apiKey: "plain-key" })).body
        .type,
    ).toBe("UNKNOWN_API_KEY");
    const r = await fetch(`${t.sandbox.url}/affiliate/v1/networks`, { headers: { "x-api-key": keyId } });
    expect(r.status).toBe(401);
    expect(((await r.json()) as { type: string }).type).toBe("SIGNATURE_REQUIRED");
  });
});
