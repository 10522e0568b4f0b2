/**
 * No secret leaves in an error or a hook: a marker API key, RSA private key (PEM, JWK, CryptoKey) and request
 * signature, planted in the client's options and in the wrong places, and echoed by a hostile server in every way it
 * can echo them, never appear in any text of the refusal (String, stack, JSON, util.inspect, the cause chain), in
 * the hook events, nor on the console.
 */
import { generateKeyPairSync } from "node:crypto";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMarkerSecret, findSecret, leakOf } from "../test/expectNoSecret.js";
import { startTestServer, type TestServer } from "../test/startTestServer.js";
import { createSwapIntentClient } from "./client/createSwapIntentClient.js";
import type { ClientOptions } from "./client/types.js";
import { isSwapIntentError } from "./errors/swapIntentError.js";
import { createRequestSigner } from "./signing/createRequestSigner.js";
import { formatAmount } from "./utils/formatAmount.js";
import { parseLots } from "./utils/parseLots.js";

const apiKeyMarker = createMarkerSecret(24);
const apiKey = `sk_live_${Buffer.from(apiKeyMarker.bytes).toString("base64url")}+/=`;
const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
const privatePem = rsa.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const publicPem = rsa.publicKey.export({ type: "spki", format: "pem" }).toString();
const privateJwk = rsa.privateKey.export({ format: "jwk" });
/** The private key's body (its PEM base64 without the armour) and its private exponent: either may not appear. */
const pemBody = privatePem.replace(/-----[A-Z ]+-----|\s/g, "");
const secrets = [apiKey, pemBody.slice(200, 600), String(privateJwk.d), String(privateJwk.p)];

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

function clientWith(options: Partial<ClientOptions>, events: string[]) {
  return createSwapIntentClient({
    baseUrl: server.url,
    retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 2 },
    hooks: {
      onRequest: (event) => void events.push(inspect(event, { depth: 10 })),
      onResponse: (event) => void events.push(inspect(event, { depth: 10 })),
      onRetry: (event) => void events.push(inspect(event, { depth: 10 })),
    },
    ...options,
  } as ClientOptions);
}

async function expectNoLeak(run: () => unknown, events: string[] = [], extraSecrets: string[] = []) {
  const { error, leak } = await leakOf(run, [...secrets, ...extraSecrets]);
  expect(isSwapIntentError(error), String(error)).toBe(true);
  expect(leak, String(error)).toBeNull();
  expect(findSecret(events, [...secrets, ...extraSecrets]), events.join("\n")).toBeNull();
}

/**
 * Every way a hostile server can hand a credential back, as it would appear in a JSON string of the raw body: as
 * is, with PHP's `\/`, every character `\u`-escaped, URL-encoded, upper-cased, base64.
 */
function echoes(value: string): Record<string, string> {
  return {
    raw: value,
    phpJson: value.replace(/\//g, "\\/"),
    unicodeEscaped: [...value].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join(""),
    urlEncoded: encodeURIComponent(value),
    upper: value.toUpperCase(),
    base64: Buffer.from(value).toString("base64"),
  };
}

/** A raw JSON error body quoting `echo` (already JSON-safe) in its message and a field, and a header. */
function echoReply(status: number, echo: string) {
  return {
    status,
    headers: { "content-type": "application/json", "x-echo": echo },
    body: `{"code":${status},"message":"bad key ${echo}","entity":"Other","key":"${echo}"}`,
  };
}

describe("an API key", () => {
  it.each(Object.entries(echoes(apiKey)))(
    "echoed %s in an error body, a message and a header",
    async (_form, echo) => {
      server.handle(() => echoReply(400, echo));
      const events: string[] = [];
      await expectNoLeak(() => clientWith({ apiKey }, events).getNetworks(), events);
    },
  );
  it.each([
    ["with a newline inside", `${apiKey.slice(0, 10)}\n${apiKey.slice(10)}`],
    ["with a non-Latin-1 character", `${apiKey}\u2028`],
    ["with a NUL", `${apiKey}\u0000`],
  ])("%s: INVALID_OPTIONS, never quoting it", async (_name, bad) => {
    await expectNoLeak(() => clientWith({ apiKey: bad }, []).getNetworks());
  });
  it("in the base URL's user info or query, or in another header", async () => {
    await expectNoLeak(() =>
      clientWith({ apiKey, baseUrl: `http://x:${encodeURIComponent(apiKey)}@127.0.0.1/` }, []),
    );
    await expectNoLeak(() =>
      clientWith({ apiKey, baseUrl: `http://127.0.0.1/?key=${encodeURIComponent(apiKey)}` }, []),
    );
    await expectNoLeak(() => clientWith({ apiKey, headers: { "x-other": `${apiKey}\n` } }, []).getNetworks());
  });
  it("a server that drops the connection or answers garbage", async () => {
    server.handle(() => ({ destroy: true }));
    await expectNoLeak(() => clientWith({ apiKey }, []).getNetworks());
    server.handle(() => ({ status: 200, body: `{"networks": ${apiKey}` }));
    await expectNoLeak(() => clientWith({ apiKey }, []).getNetworks());
    server.handle(() => ({ status: 200, body: { networks: [{ network_id: apiKey }] } }));
    await expectNoLeak(() => clientWith({ apiKey }, []).getNetworks());
  });
});

describe("request signing", () => {
  it.each([
    [
      "the PEM one character off",
      { privateKey: privatePem.replace(/(\n[A-Za-z0-9+/]{20})[A-Za-z0-9+/]/, "$1!"), publicKey: publicPem },
    ],
    ["the PEM cut short", { privateKey: privatePem.slice(0, 900), publicKey: publicPem }],
    ["the PEM body without armour", { privateKey: pemBody, publicKey: publicPem }],
    ["the private PEM as the public key", { privateKey: privatePem, publicKey: privatePem }],
    ["the private PEM as the key id", { privateKey: privatePem, keyId: privatePem }],
    ["the private PEM's body as the key id", { privateKey: privatePem, keyId: pemBody }],
    ["a JWK object as the private key", { privateKey: privateJwk, publicKey: publicPem }],
    ["a JWK object as the public key", { privateKey: privatePem, publicKey: privateJwk }],
    ["a JSON JWK as the private key", { privateKey: JSON.stringify(privateJwk), publicKey: publicPem }],
  ])("%s", async (_name, requestSigning) => {
    server.handle(() => ({ status: 200, body: { networks: [] } }));
    const events: string[] = [];
    await expectNoLeak(
      async () =>
        clientWith({ requestSigning: createRequestSigner(requestSigning as never) }, events).getNetworks(),
      events,
    );
  });
  it("a non-extractable CryptoKey, and the signature echoed back in every form", async () => {
    const key = await crypto.subtle.importKey(
      "jwk",
      privateJwk as JsonWebKey,
      { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
      false,
      ["sign"],
    );
    let signature = "";
    server.handle((request) => {
      signature = String(request.headers["x-api-signature"]);
      return echoReply(401, Object.values(echoes(signature)).join(" "));
    });
    const events: string[] = [];
    const run = () =>
      clientWith(
        { requestSigning: createRequestSigner({ privateKey: key, publicKey: publicPem }) },
        events,
      ).getNetworks();
    const { error } = await leakOf(run, secrets);
    expect(isSwapIntentError(error)).toBe(true);
    expect(signature.length).toBeGreaterThan(100);
    await expectNoLeak(run, events, [signature.slice(20, 80)]);
  });
});

describe("a key or seed passed as a parameter", () => {
  const seed = createMarkerSecret();
  const forms = {
    hex: seed.hex,
    hex0x: `0x${seed.hex}`,
    oneCharOff: `${seed.hex.slice(0, 31)}g${seed.hex.slice(32)}`,
    tooLong: `${seed.hex}00`,
    base64: Buffer.from(seed.bytes).toString("base64"),
    words: Array.from({ length: 12 }, (_, i) => `${seed.hex.slice(i * 5, i * 5 + 5)}x`).join(" "),
  };
  const noLeak = (run: () => unknown) => expectNoLeak(run, [], [seed.hex, forms.base64, forms.words]);
  it.each(Object.entries(forms))(
    "as %s: amount, public key, signature, address, money helpers",
    async (_form, value) => {
      server.handle(() => ({ status: 200, body: { networks: [{ network_id: 1, type: "BITCOIN" }] } }));
      const client = clientWith({ apiKey }, []);
      const quote = "3f1c9a52-7b4e-4d2a-9c61-0e8f5b7a2d14";
      const intent = { quote, userSourceAddress: "a", userDestinationAddress: "b", refundAddress: "c" };
      await noLeak(() =>
        client.getBestQuote({
          sourceChain: 1,
          sourceToken: "t",
          destChain: 2,
          destToken: "u",
          amount: value,
          slippageBps: 50,
        } as never),
      );
      await noLeak(() =>
        client.createIntent({ ...intent, userSourcePublicKey: value, sourceNetworkType: "BITCOIN" } as never),
      );
      await noLeak(() => client.createIntent({ ...intent, quote: value } as never));
      await noLeak(() =>
        client.submitApproval({ intentId: quote, approval: { type: "permit2", signedData: value } } as never),
      );
      await noLeak(() =>
        client.submitApproval({ intentId: quote, approval: { type: value, signedData: value } } as never),
      );
      await noLeak(() =>
        client.submitApproval({
          intentId: quote,
          approval: { type: "cosign", signedData: { transaction: value, userAddress: "" } },
        } as never),
      );
      await noLeak(() => client.getIntentStatus({ intentId: value } as never));
      await noLeak(() => parseLots({ value, decimals: 6 }));
      await noLeak(() => formatAmount({ value: value as never, decimals: 6 }));
    },
  );
});
