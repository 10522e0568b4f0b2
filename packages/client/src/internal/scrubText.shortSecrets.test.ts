/**
 * A credential too short to carry a secret (the sandbox accepts any key, so a newcomer types `k`) is still hidden
 * where a server echoes it as a value of its own, and never cut out of the middle of a word: the server's text stays
 * readable. A credential of 8 characters or more is hidden wherever it appears, in every form, as before.
 */
import { describe, expect, it } from "vitest";
import { rejection, testClient } from "../../test/helpers.js";
import { startTestServer } from "../../test/startTestServer.js";
import { scrubText } from "./scrubText.js";

const serverText =
  "`source_token` is not a token listed on network 1. Known networks: ethereum, bitcoin; ask the desk (abc-k).";

describe("scrubText with a short credential", () => {
  it.each(["k", "ab", "to", "net", "a1", "K"])("key %j: the server's words are kept whole", (key) => {
    expect(scrubText(serverText, [key])).toBe(serverText);
  });

  it.each([
    ["k", 'invalid key "k"', 'invalid key "[redacted]"'],
    ["k", "x-api-key: k", "x-api-key: [redacted]"],
    ["k", "api_key=k&x=1", "api_key=[redacted]&x=1"],
    ["ab", "key ab rejected", "key [redacted] rejected"],
    ["ab", "key AB rejected", "key [redacted] rejected"],
    ["a+b", "key a%2Bb rejected", "key [redacted] rejected"],
    ["a/b", 'key "a\\/b" rejected', 'key "[redacted]" rejected'],
    ["k\u00e9y", "key k\u00e9y rejected", "key [redacted] rejected"],
  ])("key %j echoed as a value of its own is redacted: %j", (key, text, clean) => {
    expect(scrubText(text, [key])).toBe(clean);
  });

  it("a short key beside a real one: the real one is hidden everywhere, even inside a word, the short one as a value", () => {
    const real = "sk_live_RealKey0123456789";
    const text = `prefix${real}suffix and ${btoa(real)} and key k; token`;
    expect(scrubText(text, [real, "k"])).toBe(
      "prefix[redacted]suffix and [redacted]== and key [redacted]; token",
    );
  });

  it("8 characters or more is no short key: hidden inside a word too", () => {
    expect(scrubText("xsk_12345y", ["sk_12345"])).toBe("x[redacted]y");
  });
});

describe("through the client: an error from a server that received a short key", () => {
  it("a 422 naming a token, with apiKey `k`, reads as the server wrote it; a 401 echoing the key hides it", async () => {
    const server = await startTestServer();
    try {
      server.handle(() => ({
        status: 422,
        body: { code: 422, message: serverText, entity: "Token" },
      }));
      const unprocessable = await rejection(testClient(server, { apiKey: "k", retry: false }).getNetworks());
      expect(unprocessable.details.serverMessage).toBe(serverText);
      expect(unprocessable.shortMessage).toContain(serverText);
      server.handle(() => ({ status: 401, body: { code: 401, message: "unknown key k", entity: "Other" } }));
      const unauthorized = await rejection(testClient(server, { apiKey: "k", retry: false }).getNetworks());
      expect(unauthorized.details.serverMessage).toBe("unknown key [redacted]");
    } finally {
      await server.close();
    }
  });
});
