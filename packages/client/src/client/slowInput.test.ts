/**
 * The caller's options are read in linear time: a backtracking pattern over a long option retried from every
 * character of a run, so construction took seconds (~4 s for 50 000 slashes). The work is bounded, not timed:
 * every pattern that reads the long option must be one the ReDoS checker proves linear.
 */
import { describe, expect, it } from "vitest";
import { networksWire } from "../../test/fixtures.js";
import { readLinearly } from "../../test/linearReads.js";
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
  it("a base URL with a run of 50 000 inner slashes is read by linear patterns only (/\\/+$/ took ~4 s)", async () => {
    // `\/+$` retried from every slash of the run, each time failing at the `x` after it
    const { superLinear } = await readLinearly(() =>
      createSwapIntentClient({
        baseUrl: `https://swap.test/${"/".repeat(50_000)}x`,
        apiKey,
        fetch: recordingFetch([]),
      }),
    );
    expect(superLinear).toEqual([]);
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
