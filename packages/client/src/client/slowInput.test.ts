/**
 * The caller's options are read in linear time: a backtracking pattern over a long option retried from every
 * character of a run, so construction took seconds. The bound is generous (a linear pass over 50 000
 * characters takes about a millisecond); before the fix the case took ~4 s.
 */
import { describe, expect, it } from "vitest";
import { networksWire } from "../../test/fixtures.js";
import { createSwapIntentClient } from "./createSwapIntentClient.js";

const apiKey = "sk_test_0123456789abcdef";

/** A fetch that records each URL and answers the networks list. */
function recordingFetch(urls: string[]) {
  return async (url: string | URL | Request) => {
    urls.push(String(url));
    return new Response(JSON.stringify(networksWire), { headers: { "content-type": "application/json" } });
  };
}

describe("baseUrl", () => {
  it("a base URL with a run of 50 000 inner slashes is read at once (/\\/+$/ took ~4 s)", () => {
    // `\/+$` retried from every slash of the run, each time failing at the `x` after it
    const started = performance.now();
    createSwapIntentClient({
      baseUrl: `https://swap.test/${"/".repeat(50_000)}x`,
      apiKey,
      fetch: recordingFetch([]),
    });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("still drops every trailing slash, and keeps inner ones", async () => {
    const urls: string[] = [];
    for (const baseUrl of ["https://swap.test///", "https://swap.test/a//b///"])
      await createSwapIntentClient({
        baseUrl,
        apiKey,
        fetch: recordingFetch(urls),
        retry: false,
      }).getNetworks();
    expect(urls).toEqual([
      "https://swap.test/affiliate/v1/networks",
      "https://swap.test/a//b/affiliate/v1/networks",
    ]);
  });
});
