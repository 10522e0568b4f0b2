import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { intentId, statusWire } from "../../test/fixtures.js";
import { rejection, testClient } from "../../test/helpers.js";
import { startTestServer, type TestServer } from "../../test/startTestServer.js";
import type { SwapStatus } from "../types.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** Answers each poll with the next status of `sequence`, repeating the last one. */
function serveSequence(sequence: string[]) {
  server.handle(() => {
    const index = Math.min(server.requests.length - 1, sequence.length - 1);
    return { body: statusWire(sequence[index] ?? "Initiated") };
  });
}

describe("watchIntent", () => {
  it("yields each status change exactly once and ends after the terminal status", async () => {
    serveSequence([
      "Initiated",
      "Initiated",
      "Initiated",
      "ApprovalAdded",
      "Accepted",
      "Accepted",
      "UserDeposited",
      "RefundRquested",
      "RefundRquested",
      "Refunded",
    ]);
    const seen: SwapStatus[] = [];
    for await (const status of testClient(server).watchIntent({ intentId, intervalMs: 1 })) seen.push(status);
    expect(seen.map((s) => s.status)).toEqual([
      "Initiated",
      "ApprovalAdded",
      "Accepted",
      "UserDeposited",
      "RefundRequested",
      "Refunded",
    ]);
    expect(server.requests).toHaveLength(10);
  });

  it("breaking out of the loop stops polling", async () => {
    serveSequence(["Initiated", "ApprovalAdded", "Accepted"]);
    for await (const status of testClient(server).watchIntent({ intentId, intervalMs: 1 })) {
      if (status.status === "ApprovalAdded") break;
    }
    const polls = server.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.requests.length).toBe(polls);
    expect(polls).toBe(2);
  });

  it("checks its parameters", async () => {
    const error = await rejection(testClient(server).watchIntent({ intentId: "x" }).next());
    expect(error.details.field).toBe("intentId");
    const interval = await rejection(testClient(server).watchIntent({ intentId, intervalMs: -1 }).next());
    expect(interval.details.field).toBe("intervalMs");
  });
});
