/**
 * Every header that carries a credential is treated like `x-api-key`: `proxy-authorization` (a caller behind an
 * authenticating proxy passes it in `headers`) is hidden from `onRequest` and scrubbed from server echoes, and a
 * response's `set-cookie` (a session a gateway hands out) is hidden from `onResponse`. Before, both reached the
 * hooks as is, and an echoed proxy credential reached error text.
 */
import { describe, expect, it } from "vitest";
import { rejection } from "../../test/helpers.js";
import { createSwapIntentClient } from "./createSwapIntentClient.js";

const proxyCredential = "Basic cHJveHl1c2VyOnByb3h5UGFzc3dvcmQ5OQ==";
const session = "gw_session=Sess10nT0ken0123456789; Path=/; HttpOnly";

describe("credential headers beyond x-api-key and authorization", () => {
  it("proxy-authorization: redacted in onRequest, scrubbed from an echo in the error and onResponse", async () => {
    const requests: unknown[] = [];
    const responses: unknown[] = [];
    const client = createSwapIntentClient({
      baseUrl: "https://swap.example",
      apiKey: "sk_live_Headers0123456789",
      retry: false,
      headers: { "Proxy-Authorization": proxyCredential },
      hooks: { onRequest: (e) => requests.push(e), onResponse: (e) => responses.push(e) },
      fetch: async (_url, init) => {
        const sent = new Headers(init?.headers).get("proxy-authorization");
        return new Response(JSON.stringify({ code: 400, message: `bad proxy auth ${sent}` }), {
          status: 400,
          headers: { "x-echo": String(sent) },
        });
      },
    });
    const error = await rejection(client.getNetworks());
    expect(error.code).toBe("BAD_REQUEST");
    const seen = `${JSON.stringify(requests)} ${JSON.stringify(responses)} ${JSON.stringify(error.details)} ${error.shortMessage}`;
    expect(seen).not.toContain("cHJveHl1c2VyOnByb3h5UGFzc3dvcmQ5OQ");
    expect((requests[0] as { headers: Record<string, string> }).headers["proxy-authorization"]).toBe(
      "[redacted]",
    );
  });

  it("set-cookie in a response: onResponse sees it redacted", async () => {
    const responses: Array<{ headers: Record<string, string> }> = [];
    const client = createSwapIntentClient({
      baseUrl: "https://swap.example",
      apiKey: "sk_live_Headers0123456789",
      retry: false,
      hooks: { onResponse: (e) => responses.push(e) },
      fetch: async () => new Response("[]", { headers: { "set-cookie": session } }),
    });
    await client.getNetworks();
    expect(JSON.stringify(responses)).not.toContain("Sess10nT0ken0123456789");
    expect(responses[0]?.headers["set-cookie"]).toBe("[redacted]");
  });
});
