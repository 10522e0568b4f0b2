import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { intentId, statusWire } from "../../test/fixtures.js";
import { rejection, testClient } from "../../test/helpers.js";
import { startTestServer, type TestServer } from "../../test/startTestServer.js";

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

describe("waitForIntent", () => {
  for (const terminal of ["Fulfilled", "Declined", "Expired", "Refunded"]) {
    it(`resolves on ${terminal}`, async () => {
      const path =
        terminal === "Refunded"
          ? ["Initiated", "ApprovalAdded", "Accepted", "RefundRquested", "Refunded"]
          : terminal === "Declined"
            ? ["Initiated", "ApprovalAdded", "Declined"]
            : terminal === "Expired"
              ? ["Initiated", "Expired"]
              : ["Initiated", "ApprovalAdded", "Accepted", "UserDeposited", "Fulfilled"];
      serveSequence(path);
      const final = await testClient(server).waitForIntent({ intentId, intervalMs: 1 });
      expect(final.status).toBe(terminal);
      expect(server.requests).toHaveLength(path.length);
    });
  }

  it("calls onStatusChange once per change, in order", async () => {
    serveSequence([
      "Initiated",
      "Initiated",
      "ApprovalAdded",
      "ApprovalAdded",
      "Accepted",
      "UserDeposited",
      "Fulfilled",
    ]);
    const seen: string[] = [];
    await testClient(server).waitForIntent({
      intentId,
      intervalMs: 1,
      onStatusChange: (s) => seen.push(s.rawStatus),
    });
    expect(seen).toEqual(["Initiated", "ApprovalAdded", "Accepted", "UserDeposited", "Fulfilled"]);
    expect(server.requests).toHaveLength(7);
  });

  it("keeps polling through Unknown statuses", async () => {
    serveSequence(["Initiated", "KycPending", "Fulfilled"]);
    const seen: string[] = [];
    const final = await testClient(server).waitForIntent({
      intentId,
      intervalMs: 1,
      onStatusChange: (s) => seen.push(s.status),
    });
    expect(seen).toEqual(["Initiated", "Unknown", "Fulfilled"]);
    expect(final.status).toBe("Fulfilled");
  });

  it("fails with WAIT_TIMEOUT carrying the last status", async () => {
    serveSequence(["Initiated", "ApprovalAdded"]);
    const error = await rejection(
      testClient(server).waitForIntent({ intentId, intervalMs: 5, timeoutMs: 60 }),
    );
    expect(error.code).toBe("WAIT_TIMEOUT");
    expect(error.details).toMatchObject({ intentId, timeoutMs: 60, lastStatus: "ApprovalAdded" });
  });

  it("WAIT_TIMEOUT also ends a poll that hangs", async () => {
    server.handle(() => ({ hang: true }));
    const error = await rejection(
      testClient(server).waitForIntent({ intentId, intervalMs: 5, timeoutMs: 50 }),
    );
    expect(error.code).toBe("WAIT_TIMEOUT");
    expect(error.details.lastStatus).toBeNull();
  });

  it("fails with ABORTED when the signal fires, and stops polling", async () => {
    serveSequence(["Initiated"]);
    const controller = new AbortController();
    const pending = testClient(server).waitForIntent({
      intentId,
      intervalMs: 5,
      signal: controller.signal,
      onStatusChange: () => setTimeout(() => controller.abort(), 20),
    });
    const error = await rejection(pending);
    expect(error.code).toBe("ABORTED");
    // A poll already on the wire when the signal fired may still reach the server: let it land, then the count
    // must stay flat (at a 5 ms interval, polling on would add several requests in 60 ms).
    await new Promise((resolve) => setTimeout(resolve, 30));
    const polls = server.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(server.requests.length).toBe(polls);
  });

  it("an already aborted signal polls nothing", async () => {
    serveSequence(["Initiated"]);
    const error = await rejection(
      testClient(server).waitForIntent({ intentId, signal: AbortSignal.abort() }),
    );
    expect(error.code).toBe("ABORTED");
    expect(server.requests).toHaveLength(0);
  });

  it("a 404 while polling surfaces as NOT_FOUND", async () => {
    server.handle(() => ({ status: 404, body: { code: 404, message: "unknown intent", entity: "Intent" } }));
    const error = await rejection(testClient(server).waitForIntent({ intentId, intervalMs: 1 }));
    expect(error.code).toBe("NOT_FOUND");
  });
});
