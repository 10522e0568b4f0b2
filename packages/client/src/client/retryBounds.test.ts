/**
 * Retry-After values and retry options a server or a typo can make absurd: unreadable values fall back to ordinary
 * backoff, waits beyond a timer's range are refused or not waited, a 429 storm ends after the configured retries.
 */
import { describe, expect, it } from "vitest";
import { networksWire } from "../../test/fixtures.js";
import { rejection } from "../../test/helpers.js";
import { useTestServer } from "../../test/hostileServer.js";
import type { createSwapIntentClient } from "./createSwapIntentClient.js";

const apiKey = "sk_live_Hostile2Key9";

const { server, client } = useTestServer(apiKey);

describe("Retry-After and retry numbers a server or a typo can make absurd", () => {
  for (const value of ["-5", "-1", "1e3", "NaN", "0x10", ""]) {
    it(`Retry-After ${JSON.stringify(value)} is unreadable: ordinary backoff, retries bounded`, async () => {
      server.handle(() => ({ status: 429, headers: { "retry-after": value }, body: "" }));
      const error = await rejection(client().getNetworks());
      expect(error.code).toBe("RATE_LIMITED");
      expect(error.details.retryAfterMs).toBeUndefined();
      expect(server.requests).toHaveLength(3);
    });
  }

  it("Retry-After of years, as seconds or as a date: RATE_LIMITED at once, no second request", async () => {
    for (const value of ["99999999999999", "Tue, 01 Jan 2999 00:00:00 GMT"]) {
      server.handle(() => ({ status: 429, headers: { "retry-after": value }, body: "" }));
      const error = await rejection(client().getNetworks());
      expect(error.code).toBe("RATE_LIMITED");
      expect(error.details.retryAfterMs).toBeGreaterThan(30_000);
      expect(server.requests).toHaveLength(1);
    }
  });

  it("a 429 storm with Retry-After: 0 ends after the configured retries", async () => {
    server.handle(() => ({ status: 429, headers: { "retry-after": "0" }, body: "" }));
    const error = await rejection(client({ retry: { retries: 5 } }).getNetworks());
    expect(error.code).toBe("RATE_LIMITED");
    expect(server.requests).toHaveLength(6);
  });

  const badOptions: Array<[string, Partial<Parameters<typeof createSwapIntentClient>[0]>]> = [
    ["retry.retries", { retry: { retries: Number.POSITIVE_INFINITY } }],
    ["retry.retries", { retry: { retries: 101 } }],
    ["retry.retries", { retry: { retries: -1 } }],
    ["retry.maxRetryAfterMs", { retry: { maxRetryAfterMs: 365 * 24 * 3600 * 1000 } }],
    ["retry.baseDelayMs", { retry: { baseDelayMs: Number.NaN } }],
    ["retry.maxDelayMs", { retry: { maxDelayMs: 1.5 } }],
    ["timeoutMs", { timeoutMs: 2 ** 31 }],
    ["timeoutMs", { timeoutMs: Number.POSITIVE_INFINITY }],
  ];
  for (const [field, options] of badOptions) {
    it(`${field} ${JSON.stringify(Object.values(options)[0], (_k, v) => (typeof v === "number" ? String(v) : v))}: INVALID_OPTIONS at construction (a timer above 2^31 - 1 ms fires at once)`, async () => {
      const error = await rejection(() => client(options));
      expect(error.code).toBe("INVALID_OPTIONS");
      expect(error.details.field).toBe(field);
    });
  }

  it("a per-call timeoutMs beyond a timer's range: INVALID_INPUT, nothing sent", async () => {
    server.handle(() => ({ body: networksWire }));
    const error = await rejection(client().getNetworks({ timeoutMs: 2 ** 31 }));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.details.field).toBe("timeoutMs");
    expect(server.requests).toHaveLength(0);
  });
});
