/**
 * What leaves the client and what comes back into it, against real node:http servers: no redirect is followed
 * (so no key, signature or body reaches another origin), server text in errors is bounded and scrubbed of every
 * credential, and a response body is read only up to `maxResponseBytes`.
 */
import { generateKeyPairSync } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { intentId, networksWire, permit2IntentWire, quoteId } from "../../test/fixtures.js";
import { rejection } from "../../test/helpers.js";
import { startTestServer, type TestServer } from "../../test/startTestServer.js";
import { createRequestSigner } from "../signing/createRequestSigner.js";
import { createSwapIntentClient } from "./createSwapIntentClient.js";
import type { ResponseEvent } from "./types.js";

/** A key with characters that change under URL encoding and JSON escaping. */
const apiKey = 'sk_live_7Gq/x+Y=z"9\\k';
const intentParams = {
  quote: quoteId,
  refundAddress: "0xrefund",
  userSourceAddress: "0xsource",
  userDestinationAddress: "0xdest",
};

let origin: TestServer;
let elsewhere: TestServer;
beforeAll(async () => {
  origin = await startTestServer();
  elsewhere = await startTestServer();
});
afterAll(async () => {
  await origin.close();
  await elsewhere.close();
});

function client(extra: Partial<Parameters<typeof createSwapIntentClient>[0]> = {}) {
  return createSwapIntentClient({
    baseUrl: origin.url,
    apiKey,
    retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 2 },
    ...extra,
  });
}

/** The origin answers the networks catalogue (createIntent consults it) and redirects everything else. */
function redirectTo(status: number, location: string) {
  origin.handle((request) =>
    request.path === "/affiliate/v1/networks"
      ? { body: networksWire }
      : { status, headers: { location }, body: "" },
  );
  elsewhere.handle(() => ({ body: networksWire }));
}

describe("redirects are refused, never followed", () => {
  for (const status of [301, 302, 303, 307, 308]) {
    it(`a ${status} on GET to another port: REDIRECT_REFUSED, and the other server sees nothing`, async () => {
      redirectTo(status, `${elsewhere.url}/affiliate/v1/intents/${intentId}/status`);
      const error = await rejection(client().getIntentStatus({ intentId }));
      expect(error.code).toBe("REDIRECT_REFUSED");
      expect(error.details).toMatchObject({ status, method: "GET" });
      expect(elsewhere.requests).toHaveLength(0);
      expect(origin.requests).toHaveLength(1); // not retried
    });
  }

  it("a 307 on POST /intents does not re-send the body or the key to the other host", async () => {
    redirectTo(307, `${elsewhere.url}/affiliate/v1/intents`);
    const error = await rejection(client().createIntent(intentParams));
    expect(error.code).toBe("REDIRECT_REFUSED");
    expect(origin.requests.filter((r) => r.path === "/affiliate/v1/intents")).toHaveLength(1);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it("a redirect within the same origin is refused too (the service documents none)", async () => {
    redirectTo(302, "/affiliate/v1/networks");
    const error = await rejection(client().getIntentStatus({ intentId }));
    expect(error.code).toBe("REDIRECT_REFUSED");
  });

  it("a custom fetch that follows redirects anyway: the redirected response is refused, not used", async () => {
    redirectTo(302, `${elsewhere.url}/affiliate/v1/networks`);
    origin.handle(() => ({ status: 302, headers: { location: `${elsewhere.url}/affiliate/v1/networks` } }));
    const following: typeof fetch = (input, init) => fetch(input, { ...init, redirect: "follow" });
    const error = await rejection(client({ fetch: following }).getNetworks());
    expect(error.code).toBe("REDIRECT_REFUSED");
  });

  it("a browser's opaque redirect (manual mode: type opaqueredirect, status 0) is refused", async () => {
    const opaque = {
      type: "opaqueredirect",
      status: 0,
      ok: false,
      redirected: false,
      body: null,
    } as Response;
    const error = await rejection(client({ fetch: async () => opaque }).getNetworks());
    expect(error.code).toBe("REDIRECT_REFUSED");
  });

  it("fetch is asked for redirect: manual", async () => {
    const modes: Array<RequestRedirect | undefined> = [];
    const recording: typeof fetch = (input, init) => {
      modes.push(init?.redirect);
      return fetch(input, init);
    };
    origin.handle(() => ({ body: networksWire }));
    await client({ fetch: recording }).getNetworks();
    expect(modes).toEqual(["manual"]);
  });
});

describe("server text in errors is bounded and scrubbed", () => {
  const fiveMb = 5 * 1024 * 1024;

  it("a 5 MB JSON error message that echoes the key: bounded message and details, key redacted", async () => {
    const message = `bad key ${apiKey} ${"x".repeat(fiveMb)} ${apiKey}`;
    origin.handle(() => ({ status: 401, body: { code: 401, message, type: apiKey, entity: "Other" } }));
    const error = (await rejection(client().getNetworks())) as unknown as Error & {
      details: Record<string, unknown>;
      code: string;
    };
    expect(error.code).toBe("UNAUTHORIZED");
    expect(error.message.length).toBeLessThan(4000);
    expect(JSON.stringify(error.details).length).toBeLessThan(4000);
    expect(String(error.details.serverMessage)).toMatch(/^bad key \[redacted\] x+… \(\d+ chars\)$/);
    expect(error.details.serverType).toBe("[redacted]");
    expect(JSON.stringify(error.details) + error.message).not.toContain("sk_live_7Gq");
  });

  it("a 5 MB plain-text error body with the key as is, URL-encoded and JSON-escaped: none survives", async () => {
    const forms = [apiKey, encodeURIComponent(apiKey), JSON.stringify(apiKey).slice(1, -1)];
    const body = `${forms.join(" ")} ${"y".repeat(fiveMb)}`;
    origin.handle(() => ({ status: 422, headers: { "content-type": "text/plain" }, body }));
    const error = await rejection(client().getNetworks());
    expect(error.code).toBe("UNPROCESSABLE");
    const text = String(error.details.body);
    expect(text.startsWith("[redacted] [redacted] [redacted] yyy")).toBe(true);
    expect(text.length).toBeLessThan(1100);
    expect(`${(error as unknown as Error).message}${text}`).not.toContain("sk_live_7Gq");
  });

  it("a key echoed at the cut point is scrubbed before the cut (no prefix of it is left)", async () => {
    const body = `${"z".repeat(995)}${apiKey}`;
    origin.handle(() => ({ status: 400, headers: { "content-type": "text/plain" }, body }));
    const error = await rejection(client().getNetworks());
    expect(String(error.details.body)).not.toContain("sk_l");
  });

  it("an invalid 2xx body that echoes the key: RESPONSE_INVALID with a bounded, scrubbed body", async () => {
    origin.handle(() => ({ body: { echo: apiKey, pad: "p".repeat(fiveMb) } }));
    const error = await rejection(client().getNetworks());
    expect(error.code).toBe("RESPONSE_INVALID");
    expect(String(error.details.body).length).toBeLessThan(1100);
    expect(JSON.stringify(error.details)).not.toContain("sk_live_7Gq");
  });

  it("a non-JSON 2xx body that starts with the key: neither the error nor its cause chain holds it", async () => {
    origin.handle(() => ({ headers: { "content-type": "application/json" }, body: `${apiKey} not json` }));
    const error = await rejection(client().getNetworks());
    expect(error.code).toBe("RESPONSE_INVALID");
    expect(error.details.body).toBe("[redacted] not json");
    expect(inspect(error, { depth: 10 })).not.toContain("sk_live_7Gq");
  });

  it("server-chosen field names and values quoted in a RESPONSE_INVALID are scrubbed and bounded", async () => {
    const longName = `${apiKey}${"k".repeat(5000)}`;
    origin.handle((request) =>
      request.path === "/affiliate/v1/networks"
        ? { body: networksWire }
        : {
            body: {
              ...permit2IntentWire(),
              approval_mechanism: `${apiKey}${"m".repeat(fiveMb)}`,
            },
          },
    );
    const unknownMechanism = await rejection(client().createIntent(intentParams));
    expect(unknownMechanism.code).toBe("RESPONSE_INVALID");
    expect(unknownMechanism.shortMessage.length).toBeLessThan(1100);
    expect(inspect(unknownMechanism, { depth: 10 })).not.toContain("sk_live_7Gq");

    const wire = permit2IntentWire() as { params_to_sign: { additional_data: { types: unknown } } };
    wire.params_to_sign.additional_data.types = { [longName]: "not a field list" };
    origin.handle((request) =>
      request.path === "/affiliate/v1/networks" ? { body: networksWire } : { body: wire },
    );
    const badRecord = await rejection(client().createIntent(intentParams));
    expect(badRecord.code).toBe("RESPONSE_INVALID");
    const issues = badRecord.details.issues as Array<{ path: string }>;
    expect(issues[0]?.path.startsWith("additional_data.types.[redacted]kkk")).toBe(true);
    expect(issues[0]?.path.length).toBeLessThan(260);
    expect(inspect(badRecord, { depth: 10 })).not.toContain("sk_live_7Gq");
  });

  it("the onResponse hook sees the body and the headers with the key redacted", async () => {
    origin.handle(() => ({
      status: 401,
      headers: { "x-echo": `you sent ${apiKey}` },
      body: { code: 401, message: `bad key ${apiKey}` },
    }));
    const events: ResponseEvent[] = [];
    await rejection(client({ hooks: { onResponse: (e) => events.push(e) } }).getNetworks());
    expect(events[0]?.headers["x-echo"]).toBe("you sent [redacted]");
    expect(events[0]?.body).toContain("bad key [redacted]");

    expect(JSON.stringify(events)).not.toContain("sk_live_7Gq");
  });

  it("a signing client: the echoed signature and key id are scrubbed, as are credential headers given in options", async () => {
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    origin.handle((request) => ({
      status: 401,
      body: {
        code: 401,
        message: `${request.headers["x-api-signature"]} ${request.headers["x-api-key"]} ${request.headers.authorization}`,
      },
    }));
    const signing = createSwapIntentClient({
      baseUrl: origin.url,
      requestSigning: createRequestSigner({
        privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
        publicKey: publicKey.export({ type: "spki", format: "pem" }).toString(),
      }),
      headers: { authorization: "Bearer t0ps3cret" },
      retry: false,
    });
    const error = await rejection(signing.getNetworks());
    expect(error.details.serverMessage).toBe("[redacted] [redacted] [redacted]");
  });
});

/** A server that streams `totalBytes` of JSON-ish text in 64 KiB chunks, honouring backpressure, and counts what it wrote. */
async function startStreamingServer(totalBytes: number, declareLength: boolean) {
  const state = { written: 0, closed: Promise.resolve() };
  const server: Server = createServer((_req, res) => {
    let resolveClosed: () => void = () => {};
    state.closed = new Promise((resolve) => {
      resolveClosed = resolve;
    });
    res.on("close", () => resolveClosed());
    res.writeHead(200, {
      "content-type": "application/json",
      ...(declareLength ? { "content-length": String(totalBytes) } : {}),
    });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (state.written < totalBytes && !res.destroyed) {
        state.written += chunk.length;
        if (!res.write(chunk)) {
          res.once("drain", pump);
          return;
        }
      }
      if (!res.destroyed) res.end();
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    state,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe("response size limit", () => {
  it("a 40 MB streamed body is cut off after the default 8 MiB: RESPONSE_TOO_LARGE, the rest never sent", async () => {
    const big = await startStreamingServer(40 * 1024 * 1024, false);
    try {
      const error = await rejection(
        createSwapIntentClient({ baseUrl: big.url, apiKey, retry: false }).getNetworks(),
      );
      expect(error.code).toBe("RESPONSE_TOO_LARGE");
      expect(error.details.maxResponseBytes).toBe(8 * 1024 * 1024);
      expect(error.details.receivedBytes).toBeGreaterThan(8 * 1024 * 1024);
      await big.state.closed;
      // the client stopped reading: the server could push at most the limit plus what the sockets buffer
      expect(big.state.written).toBeLessThan(20 * 1024 * 1024);
    } finally {
      await big.close();
    }
  });

  it("a declared content-length above the limit is refused before the body is read", async () => {
    const big = await startStreamingServer(2 * 1024 * 1024, true);
    try {
      const error = await rejection(
        createSwapIntentClient({
          baseUrl: big.url,
          apiKey,
          retry: false,
          maxResponseBytes: 1024 * 1024,
        }).getNetworks(),
      );
      expect(error.code).toBe("RESPONSE_TOO_LARGE");
      expect(error.details.receivedBytes).toBe(2 * 1024 * 1024);
    } finally {
      await big.close();
    }
  });

  it("the limit is configurable and counts bytes: a body of exactly the limit passes, one byte more fails", async () => {
    const text = JSON.stringify(networksWire);
    const bytes = new TextEncoder().encode(text).byteLength;
    origin.handle(() => ({ headers: { "content-type": "application/json" }, body: text }));
    const networks = await client({ maxResponseBytes: bytes }).getNetworks();
    expect(networks).toHaveLength(networksWire.length);
    const error = await rejection(client({ maxResponseBytes: bytes - 1 }).getNetworks());
    expect(error.code).toBe("RESPONSE_TOO_LARGE");
    expect(origin.requests).toHaveLength(2); // not retried
  });

  it("an oversized error body is cut off too", async () => {
    origin.handle(() => ({ status: 500, headers: { "content-type": "text/plain" }, body: "e".repeat(4096) }));
    const error = await rejection(client({ maxResponseBytes: 1024, retry: false }).getNetworks());
    expect(error.code).toBe("RESPONSE_TOO_LARGE");
    expect(error.details.status).toBe(500);
  });
});
