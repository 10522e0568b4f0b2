/**
 * Numbers, dates and decimals a server can make absurd in a 2xx body, against a real node:http server: lots beyond
 * uint256, impossible timestamps and decimals no formatter takes are `RESPONSE_INVALID` naming the field; values at
 * the edges still pass.
 */
import { describe, expect, it } from "vitest";
import { intentId, statusWire } from "../../test/fixtures.js";
import { rejection } from "../../test/helpers.js";
import { useTestServer } from "../../test/hostileServer.js";

const apiKey = "sk_live_Hostile2Key9";

const { server, client } = useTestServer(apiKey);

describe("numbers and dates a server can make absurd", () => {
  const lotsCases: Array<[string, unknown]> = [
    ["6 million digits (seconds of CPU as a bigint)", "9".repeat(6_000_000)],
    ["79 digits (wider than a uint256)", "1".repeat(79)],
    ["negative", "-1"],
    ["exponent notation", "1e30"],
    ["a decimal", "1.5"],
    ["a number beyond 2^53", 2 ** 53 + 2],
    ["a negative number", -5],
  ];
  for (const [name, lots] of lotsCases) {
    it(`lots as ${name}: RESPONSE_INVALID naming the field`, async () => {
      server.handle(() => ({ body: statusWire("Initiated", { source_amount_lots: lots }) }));
      const error = await rejection(client({ retry: false }).getIntentStatus({ intentId }));
      expect(error.code).toBe("RESPONSE_INVALID");
      expect((error.details.issues as Array<{ path: string }>)[0]?.path).toBe("source_amount_lots");
    });
  }

  it("lots of exactly 78 digits (the uint256 maximum) pass, as an exact bigint", async () => {
    const max = (2n ** 256n - 1n).toString();
    expect(max).toHaveLength(78);
    server.handle(() => ({ body: statusWire("Initiated", { source_amount_lots: max }) }));
    const status = await client().getIntentStatus({ intentId });
    expect(status.sourceAmountLots).toBe(2n ** 256n - 1n);
  });

  for (const date of [
    "1",
    "-5",
    "March 7",
    "2026",
    "2026-11-22 10:00",
    "+275760-09-13T00:00:00Z",
    "2026-13-01T00:00:00Z",
    "2026-02-31T00:00:00Z",
    "2025-02-29",
  ]) {
    it(`a timestamp ${JSON.stringify(date)} is refused (Date.parse alone takes some of these)`, async () => {
      const metadata = { ...(statusWire("Initiated").swap_metadata as object), created_at: date };
      server.handle(() => ({ body: statusWire("Initiated", { swap_metadata: metadata }) }));
      const error = await rejection(client({ retry: false }).getIntentStatus({ intentId }));
      expect(error.code).toBe("RESPONSE_INVALID");
      expect((error.details.issues as Array<{ path: string }>)[0]?.path).toBe("swap_metadata.created_at");
    });
  }

  for (const date of [
    "2026-11-22T10:00:00Z",
    "2026-11-22T10:00:00.123+02:00",
    "2026-11-22",
    "2024-02-29T23:59:59Z",
  ]) {
    it(`an ISO timestamp ${date} is read`, async () => {
      const metadata = { ...(statusWire("Initiated").swap_metadata as object), created_at: date };
      server.handle(() => ({ body: statusWire("Initiated", { swap_metadata: metadata }) }));
      const status = await client().getIntentStatus({ intentId });
      expect(status.swapMetadata.createdAt?.getTime()).toBe(Date.parse(date));
    });
  }
});

describe("decimals a formatter would refuse later", () => {
  for (const field of ["source_amount_decimals", "dest_amount_decimals"]) {
    it(`${field} of 256 (formatLots takes 0..255; 2^53 would build a string of that length): RESPONSE_INVALID`, async () => {
      server.handle(() => ({ body: statusWire("Initiated", { [field]: 256 }) }));
      const error = await rejection(client({ retry: false }).getIntentStatus({ intentId }));
      expect(error.code).toBe("RESPONSE_INVALID");
      expect(error.details.issues).toEqual([{ path: field, message: "expected at most 255" }]);
    });
  }

  it("255 decimals pass", async () => {
    server.handle(() => ({ body: statusWire("Initiated", { dest_amount_decimals: 255 }) }));
    expect((await client().getIntentStatus({ intentId })).destAmountDecimals).toBe(255);
  });
});
