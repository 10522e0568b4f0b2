/**
 * A credential header holds more than the secret: a scheme (`Bearer`, `Basic`), cookie names, `;` and `=`. A
 * server that rejects it echoes the secret alone ("invalid token …"), which is what must be scrubbed.
 */
import { describe, expect, it } from "vitest";
import { rejection, testClient } from "../../test/helpers.js";
import { startTestServer } from "../../test/startTestServer.js";

const bearer = "tok_live_0123456789abcdef";
const session = "sess_0123456789abcdef";
const user = "partner:pw_0123456789abcdef";
const basic = btoa(user);

describe("a credential header's secret part, echoed without its scheme or cookie name", () => {
  it.each([
    ["authorization", `Bearer ${bearer}`, bearer],
    ["authorization", `Basic ${basic}`, basic],
    ["proxy-authorization", `Bearer ${bearer}`, encodeURIComponent(bearer)],
    ["cookie", `theme=dark; session=${session}`, session],
    ["cookie", `session=${session};theme=dark`, btoa(`u:${session}`)],
  ])("%s: %s echoed as %s is redacted in the error and onResponse", async (header, value, echoed) => {
    const server = await startTestServer();
    try {
      server.handle(() => ({
        status: 401,
        headers: { "content-type": "text/plain", "x-debug": `got ${echoed}` },
        body: `invalid credential ${echoed} for partner`,
      }));
      const events: unknown[] = [];
      const client = testClient(server, {
        headers: { [header]: value },
        retry: false,
        hooks: { onResponse: (event) => events.push(event) },
      });
      const error = await rejection(client.getNetworks());
      const seen = `${JSON.stringify(error.details)} ${error.shortMessage} ${JSON.stringify(events)}`;
      expect(seen).not.toContain(echoed);
      expect(seen).toContain("[redacted]");
      // the words around it stay readable
      expect(seen).toContain("for partner");
    } finally {
      await server.close();
    }
  });

  it("a parameter's name is no secret: `Signature keyId=…,signature=…` and `Digest username=…` keep those words", async () => {
    const server = await startTestServer();
    try {
      const sig = "c2lnbmF0dXJlX3ZhbHVlXzAxMjM0NTY3ODk=";
      server.handle(() => ({
        status: 401,
        headers: { "content-type": "text/plain" },
        body: `invalid signature for username partner-key-01; got ${sig}`,
      }));
      for (const value of [
        `Signature keyId="partner-key-01",algorithm="rsa-sha256",signature="${sig}"`,
        `Digest username="bob", realm="api", nonce="${sig}"`,
      ]) {
        const client = testClient(server, { headers: { authorization: value }, retry: false });
        const text = JSON.stringify((await rejection(client.getNetworks())).details);
        expect(text).toContain("invalid signature for username");
        expect(text).not.toContain(sig);
      }
    } finally {
      await server.close();
    }
  });

  it("a short cookie value or scheme word is no secret of its own: text holding it is kept", async () => {
    const server = await startTestServer();
    try {
      server.handle(() => ({
        status: 401,
        headers: { "content-type": "text/plain" },
        body: "Bearer dark mode",
      }));
      const client = testClient(server, {
        headers: { cookie: `theme=dark; session=${session}` },
        retry: false,
      });
      const error = await rejection(client.getNetworks());
      expect(JSON.stringify(error.details)).toContain("Bearer dark mode");
    } finally {
      await server.close();
    }
  });
});
