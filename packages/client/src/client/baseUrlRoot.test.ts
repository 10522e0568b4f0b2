/**
 * `baseUrl` is the service's root: the client appends `/affiliate/v1/…` itself. A `baseUrl` that already holds
 * `/affiliate/v1` would double it (every call a `NOT_FOUND`), so it is refused at construction, naming the root to
 * pass instead.
 */
import { describe, expect, it } from "vitest";
import { rejection } from "../../test/helpers.js";
import { createBaseClient } from "./createBaseClient.js";

const create = (baseUrl: string) => () => createBaseClient({ baseUrl, apiKey: "sk_test_key" });

describe("a baseUrl holding the API path", () => {
  it.each([
    ["http://127.0.0.1:8787/affiliate/v1", "http://127.0.0.1:8787"],
    ["http://127.0.0.1:8787/affiliate/v1/", "http://127.0.0.1:8787"],
    ["http://127.0.0.1:8787/affiliate/v1//", "http://127.0.0.1:8787"],
    ["https://swap.example/api/affiliate/v1", "https://swap.example/api"],
    ["https://swap.example/affiliate/v1/networks", "https://swap.example"],
    ["https://swap.example/AFFILIATE/V1", "https://swap.example"],
    ["http://[::1]:8787/affiliate/v1", "http://[::1]:8787"],
  ])("%s is refused with INVALID_OPTIONS naming the root %s", async (baseUrl, root) => {
    const error = await rejection(create(baseUrl));
    expect(error.code).toBe("INVALID_OPTIONS");
    expect(error.details.field).toBe("baseUrl");
    expect(error.shortMessage).toContain(`use ${root}`);
    expect(() => create(root)()).not.toThrow();
  });

  it("a path that only looks alike is the caller's own prefix and is kept", () => {
    for (const baseUrl of [
      "https://swap.example/affiliate",
      "https://swap.example/affiliate/v10",
      "https://swap.example/my-affiliate/v1x",
      "https://swap.example/affiliate-v1",
    ])
      expect(create(baseUrl)().baseUrl).toBe(baseUrl);
  });
});
