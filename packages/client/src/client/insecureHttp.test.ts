import { describe, expect, it } from "vitest";
import { networksWire } from "../../test/fixtures.js";
import { rejection } from "../../test/helpers.js";
import { createBaseClient } from "./createBaseClient.js";
import { createSwapIntentClient } from "./createSwapIntentClient.js";
import type { ClientOptions } from "./types.js";

const apiKey = "sk_live_0123456789abcdef";

/** A fetch that records the URLs it is called with and answers the networks catalogue. */
function recordingFetch(urls: string[]): typeof fetch {
  return async (url) => {
    urls.push(String(url));
    return new Response(JSON.stringify(networksWire));
  };
}

describe("plain http: only to loopback, or with allowInsecureHttp", () => {
  // hosts the URL parser may write differently: each must stay refused in every spelling
  const remote = [
    "http://sandbox:8080",
    "http://swap.example",
    "HTTP://SWAP.EXAMPLE/",
    "http://10.0.0.1",
    "http://128.0.0.1",
    "http://126.255.255.255",
    "http://0.0.0.0",
    "http://0",
    "http://[::]",
    "http://[::7f00:1]", // IPv4-compatible ::127.0.0.1 is not loopback
    "http://[::ffff:a00:1]", // IPv4-mapped 10.0.0.1
    "http://[::ffff:127.0.0.1]", // IPv4-mapped loopback: refused, it reaches 127.0.0.1 only on a dual-stack socket
    "http://[::ffff:8000:1]", // IPv4-mapped 128.0.0.1
    "http://[fe80::1]",
    "http://[::2]",
    "http://localhost.evil.example",
    "http://localhost.example",
    "http://127.0.0.1.nip.io",
    "http://127.0.0.1x",
    "http://localhostx",
    "http://xlocalhost",
    "http://localhost..",
    "http://%6cocalhost.evil.example",
    // names Node's resolver sends to DNS (only `localhost` itself is in the hosts file): whoever answers DNS on
    // the network picks where the key goes in clear text, so none of these is loopback
    "http://localhost.:8787",
    "http://LOCALHOST.",
    "http://sandbox.LocalHost",
    "http://a.b.localhost.",
    "http://%6cocalhost.%6cocalhost",
    "http://xn--localhost-.localhost",
  ];

  it.each(remote)("%s: INVALID_OPTIONS on baseUrl, saying how to opt in", async (baseUrl) => {
    for (const credentials of [
      { apiKey },
      { auth: "none" as const },
      { requestSigning: async () => ({ "x-api-signature": "s" }) },
    ]) {
      const error = await rejection(() => createSwapIntentClient({ baseUrl, ...credentials }));
      expect(error.code).toBe("INVALID_OPTIONS");
      expect(error.details.field).toBe("baseUrl");
      expect(error.shortMessage).toContain("allowInsecureHttp: true");
      expect(error.shortMessage).not.toContain(apiKey);
    }
    // the transport alone checks the same
    expect((await rejection(() => createBaseClient({ baseUrl, apiKey }))).code).toBe("INVALID_OPTIONS");
  });

  it('allowInsecureHttp must be `true` itself (an environment string `"true"` is no opt-in)', async () => {
    for (const allowInsecureHttp of [false, "true", 1, "yes"] as unknown as boolean[]) {
      const error = await rejection(() =>
        createSwapIntentClient({ baseUrl: "http://sandbox:8080", apiKey, allowInsecureHttp }),
      );
      expect(error.code).toBe("INVALID_OPTIONS");
    }
  });

  it.each(remote)("%s with allowInsecureHttp: true is called", async (baseUrl) => {
    const urls: string[] = [];
    const options: ClientOptions = { baseUrl, apiKey, allowInsecureHttp: true, fetch: recordingFetch(urls) };
    await createSwapIntentClient(options).getNetworks();
    expect(urls).toHaveLength(1);
    expect(urls[0]).toMatch(/^http:\/\/.*\/affiliate\/v1\/networks$/);
  });

  // loopback as the URL parser writes it: 127.1, 0x7f.1, 2130706433, 0177.0.0.1 all become 127.0.0.1
  it.each([
    ["http://localhost:8787", "http://localhost:8787"],
    ["http://LOCALHOST:8787/", "http://localhost:8787"],
    ["http://127.0.0.1:8787", "http://127.0.0.1:8787"],
    ["http://127.1", "http://127.0.0.1"],
    ["http://0x7f.1", "http://127.0.0.1"],
    ["http://2130706433", "http://127.0.0.1"],
    ["http://0177.0.0.1", "http://127.0.0.1"],
    ["http://127.255.255.254", "http://127.255.255.254"],
    ["http://127.0.0.1.", "http://127.0.0.1"],
    ["http://[::1]:8787", "http://[::1]:8787"],
    ["http://[0:0:0:0:0:0:0:1]", "http://[::1]"],
    ["https://swap.example", "https://swap.example"],
    ["https://10.0.0.1:8443/prefix", "https://10.0.0.1:8443/prefix"],
  ])("%s is accepted without opting in (called as %s)", async (baseUrl, called) => {
    const urls: string[] = [];
    await createSwapIntentClient({ baseUrl, apiKey, fetch: recordingFetch(urls) }).getNetworks();
    expect(urls).toEqual([`${called}/affiliate/v1/networks`]);
  });
});
