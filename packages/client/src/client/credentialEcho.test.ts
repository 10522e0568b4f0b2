/**
 * A credential a server echoes back (in an error body, as a response header name, under encodings or escapes) is
 * redacted from errors and hooks, while text around it and escapes of other characters are kept as sent.
 */

import { describe, expect, it } from "vitest";
import { networksWire } from "../../test/fixtures.js";
import { rejection } from "../../test/helpers.js";
import { everything, useTestServer } from "../../test/hostileServer.js";

const apiKey = "sk_live_Hostile2Key9";

const { server, client } = useTestServer(apiKey);

describe("a credential echoed in an encoded form is redacted", () => {
  const escapedUnicode = [...apiKey]
    .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    .join("");
  const percentAll = [...apiKey].map((c) => `%${c.charCodeAt(0).toString(16)}`).join("");
  const base64 = Buffer.from(apiKey).toString("base64");
  const echoes: Array<[string, string]> = [
    ["JSON unicode escapes in a JSON body", `{"detail":"${escapedUnicode}"}`],
    ["every character percent-encoded, lower case", `token=${percentAll}`],
    ["upper case", `KEY ${apiKey.toUpperCase()}`],
    ["lower case", `key ${apiKey.toLowerCase()}`],
    ["base64", `b64 ${base64}`],
    ["base64url", `b64url ${Buffer.from(apiKey).toString("base64url")}`],
  ];
  for (const [name, body] of echoes) {
    it(`an error body with the key as ${name}: redacted`, async () => {
      server.handle(() => ({ status: 400, headers: { "content-type": "text/plain" }, body }));
      const error = await rejection(client().getNetworks());
      expect(error.code).toBe("BAD_REQUEST");
      expect(String(error.details.body)).toContain("[redacted]");
      const text = everything(error).toLowerCase();
      for (const form of [apiKey, escapedUnicode, percentAll, base64.replace(/=+$/, "")])
        expect(text).not.toContain(form.toLowerCase());
    });
  }

  it("the key as a response header name (it arrives lower-cased) does not reach onResponse", async () => {
    server.handle(() => ({ headers: { [apiKey]: "1", "x-echo": apiKey.toUpperCase() }, body: networksWire }));
    const events: unknown[] = [];
    await client({ hooks: { onResponse: (event) => events.push(event) } }).getNetworks();
    expect(events).toHaveLength(1);
    expect(JSON.stringify(events).toLowerCase()).not.toContain(apiKey.toLowerCase());
  });

  it("escapes of characters that need them (space, quote, é, slash) are kept as sent", async () => {
    server.handle(() => ({
      status: 400,
      headers: { "content-type": "text/plain" },
      body: 'a %20 \\u0022 \\u00e9 %2F "quoted" plain',
    }));
    const error = await rejection(client().getNetworks());
    expect(error.details.body).toBe('a %20 \\u0022 \\u00e9 %2F "quoted" plain');
  });
});

it("a key that itself holds escape-like text (%41, \\u0041) is still redacted when echoed as is", async () => {
  const oddKey = "k3y%41\\u0041_rest";
  server.handle(() => ({ status: 400, headers: { "content-type": "text/plain" }, body: `echo ${oddKey}` }));
  const error = await rejection(client({ apiKey: oddKey }).getNetworks());
  expect(error.details.body).toBe("echo [redacted]");
});
