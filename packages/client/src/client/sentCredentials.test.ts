/**
 * Credentials as the client sends them: a key fetch would trim or refuse (a trailing newline, a control character),
 * a signer's unsendable header and a baseUrl with a user name are caught before anything is sent, never quoted.
 */

import { describe, expect, it } from "vitest";
import { networksWire } from "../../test/fixtures.js";
import { rejection } from "../../test/helpers.js";
import { everything, useTestServer } from "../../test/hostileServer.js";
import { createSwapIntentClient } from "./createSwapIntentClient.js";

const apiKey = "sk_live_Hostile2Key9";

const { server, client } = useTestServer(apiKey);

describe("credentials the client sends in a form fetch changes or refuses", () => {
  it("a key with a trailing newline (read from a file): sent trimmed, and its echo is still redacted", async () => {
    server.handle((request) => ({
      status: 401,
      body: { code: 401, message: `bad ${request.headers["x-api-key"]}` },
    }));
    const error = await rejection(client({ apiKey: `${apiKey}\n` }).getNetworks());
    expect(server.requests[0]?.headers["x-api-key"]).toBe(apiKey);
    expect(error.details.serverMessage).toBe("bad [redacted]");
    expect(everything(error)).not.toContain(apiKey);
  });

  const unsendable: Array<[string, Partial<Parameters<typeof createSwapIntentClient>[0]>, string]> = [
    ["a key with a non-Latin-1 character", { apiKey: `${apiKey}\u2603` }, "apiKey"],
    ["a key with CR LF inside (header injection)", { apiKey: `${apiKey}\r\nx-evil: 1` }, "apiKey"],
    ["a custom header value with a newline inside", { headers: { "x-token": `${apiKey}\nmore` } }, "headers"],
    ["a header name that is no HTTP token", { headers: { "x token": "1" } }, "headers"],
  ];
  for (const [name, options, field] of unsendable) {
    it(`${name}: INVALID_OPTIONS at construction, the value never quoted`, async () => {
      const error = await rejection(() => client(options));
      expect(error.code).toBe("INVALID_OPTIONS");
      expect(error.details.field).toBe(field);
      expect(everything(error)).not.toContain(apiKey);
    });
  }

  it("a custom signer returning an unsendable header: INVALID_OPTIONS before anything is sent, not retried", async () => {
    server.handle(() => ({ body: networksWire }));
    let calls = 0;
    const signer = async () => {
      calls++;
      return { "x-api-key": "id", "x-api-signature": `${apiKey}\n\nsmuggled` };
    };
    const error = await rejection(client({ apiKey: undefined, requestSigning: signer }).getNetworks());
    expect(error.code).toBe("INVALID_OPTIONS");
    expect(error.details.header).toBe("x-api-signature");
    expect(everything(error)).not.toContain(apiKey);
    expect(server.requests).toHaveLength(0);
    expect(calls).toBe(1);
  });

  it("a baseUrl with a user name and password: INVALID_OPTIONS (fetch's own error quotes the password)", async () => {
    const withPassword = server.url.replace("http://", `http://user:${apiKey}@`);
    const error = await rejection(() => createSwapIntentClient({ baseUrl: withPassword, apiKey: "k" }));
    expect(error.code).toBe("INVALID_OPTIONS");
    expect(error.details.field).toBe("baseUrl");
    expect(everything(error)).not.toContain(apiKey);
  });
});
