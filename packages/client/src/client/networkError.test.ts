/**
 * A request that gets no HTTP response fails with `NETWORK_ERROR` naming where it went (the origin,
 * `scheme://host:port`, never a path, credential or query) and why (refused, DNS, TLS, reset, timeout, unreachable),
 * in the message and in `details`, with the runtime's own code when it gave one.
 */

import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rejection, testClient } from "../../test/helpers.js";
import { startTestServer, type TestServer } from "../../test/startTestServer.js";
import { createSwapIntentClient } from "./createSwapIntentClient.js";

/** A port nothing listens on: one the system handed out and that was closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A client whose fetch fails as Node's does: `TypeError("fetch failed")` whose cause carries `code`. */
function failingWith(cause: unknown, baseUrl = "https://swap.example/partner") {
  return createSwapIntentClient({
    baseUrl,
    apiKey: "sk_live_NetworkError0123456789",
    retry: false,
    fetch: () => Promise.reject(new TypeError("fetch failed", { cause })),
  });
}
const coded = (code: string, message = `connect ${code} 203.0.113.7:443`) =>
  Object.assign(new Error(message), { code });

describe("NETWORK_ERROR names the origin and the cause", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("a closed port: connection refused, the origin with its port, ECONNREFUSED, in message and details", async () => {
    const port = await closedPort();
    const client = createSwapIntentClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: "k", retry: false });
    const error = await rejection(client.getNetworks());
    expect(error.code).toBe("NETWORK_ERROR");
    expect(error.details).toEqual({
      method: "GET",
      path: "/affiliate/v1/networks",
      origin: `http://127.0.0.1:${port}`,
      failure: "refused",
      causeCode: "ECONNREFUSED",
    });
    expect(error.shortMessage).toBe(
      `GET /affiliate/v1/networks: network error (refused, http://127.0.0.1:${port}, ECONNREFUSED).`,
    );
  });

  it("a connection the server drops: reset, with the runtime's code", async () => {
    server.handle(() => ({ destroy: true }));
    const error = await rejection(testClient(server, { retry: false }).getNetworks());
    expect(error.code).toBe("NETWORK_ERROR");
    expect(error.details).toMatchObject({ origin: server.url, failure: "reset" });
    expect(error.details.causeCode).toMatch(/^(UND_ERR_SOCKET|ECONNRESET)$/);
    expect(error.shortMessage).toContain(`network error (reset, ${server.url}, `);
  });

  it("https to a server that speaks plain HTTP: TLS, with the runtime's code", async () => {
    server.handle(() => ({ body: [] }));
    const https = server.url.replace("http:", "https:");
    const error = await rejection(testClient(server, { baseUrl: https, retry: false }).getNetworks());
    expect(error.code).toBe("NETWORK_ERROR");
    expect(error.details).toMatchObject({ origin: https, failure: "tls" });
    expect(error.shortMessage).toContain(`network error (tls, ${https}, `);
  });

  it.each([
    ["ENOTFOUND", "dns"],
    ["EAI_AGAIN", "dns"],
    ["ECONNREFUSED", "refused"],
    ["ECONNRESET", "reset"],
    ["EPIPE", "reset"],
    ["UND_ERR_SOCKET", "reset"],
    ["DEPTH_ZERO_SELF_SIGNED_CERT", "tls"],
    ["ERR_TLS_CERT_ALTNAME_INVALID", "tls"],
    ["UNABLE_TO_VERIFY_LEAF_SIGNATURE", "tls"],
    ["CERT_HAS_EXPIRED", "tls"],
    ["UND_ERR_CONNECT_TIMEOUT", "timeout"],
    ["ETIMEDOUT", "timeout"],
    ["EHOSTUNREACH", "unreachable"],
    ["ENETUNREACH", "unreachable"],
  ])("cause code %s: %s", async (code, failure) => {
    const error = await rejection(failingWith(coded(code)).getNetworks());
    expect(error.details).toMatchObject({ origin: "https://swap.example:443", failure, causeCode: code });
    expect(error.shortMessage).toBe(
      `GET /affiliate/v1/networks: network error (${failure}, https://swap.example:443, ${code}).`,
    );
  });

  it("finds the code where Node puts it: on an AggregateError (both addresses of localhost), or two causes down", async () => {
    const aggregate = Object.assign(new AggregateError([coded("ECONNREFUSED"), coded("ECONNREFUSED")]), {
      code: "ECONNREFUSED",
    });
    const inner = new AggregateError([coded("ENOTFOUND")]);
    const deep = new Error("wrapped", { cause: new Error("again", { cause: coded("ECONNRESET") }) });
    expect((await rejection(failingWith(aggregate).getNetworks())).details.failure).toBe("refused");
    expect((await rejection(failingWith(inner).getNetworks())).details.failure).toBe("dns");
    expect((await rejection(failingWith(deep).getNetworks())).details.failure).toBe("reset");
  });

  it("without a code (a browser's 'Failed to fetch', a thrown string): unknown, the origin still named", async () => {
    for (const cause of [undefined, "offline", { code: 42 }, coded("not a code")]) {
      const error = await rejection(failingWith(cause).getNetworks());
      expect(error.details).toEqual({
        method: "GET",
        path: "/affiliate/v1/networks",
        origin: "https://swap.example:443",
        failure: "unknown",
      });
      expect(error.shortMessage).toBe(
        "GET /affiliate/v1/networks: network error (unknown, https://swap.example:443).",
      );
    }
  });

  it("never a credential, path or runtime text: a code that is the key, or a hostile cause, adds nothing", async () => {
    const key = "SK_LIVE_NETWORKERROR0123456789";
    const hostile = {
      get code(): string {
        throw new Error("hostile getter");
      },
    };
    for (const cause of [
      coded(key),
      coded("x".repeat(500)),
      hostile,
      coded("ECONNREFUSED", `refused ${key}`),
    ]) {
      const client = createSwapIntentClient({
        baseUrl: "https://swap.example/partner-path",
        apiKey: key,
        retry: false,
        fetch: () => Promise.reject(new TypeError("fetch failed", { cause })),
      });
      const error = await rejection(client.getNetworks());
      expect(error.code).toBe("NETWORK_ERROR");
      const text = `${error.shortMessage} ${JSON.stringify(error.details)}`;
      expect(text).not.toContain(key);
      expect(text).not.toContain("partner-path");
      expect(text).not.toContain("xxxxxxxx");
      expect(error.details.origin).toBe("https://swap.example:443");
    }
  });
});
