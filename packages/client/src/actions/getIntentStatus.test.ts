import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { intentId, statusWire, swapId } from "../../test/fixtures.js";
import { rejection, testClient } from "../../test/helpers.js";
import { startTestServer, type TestServer } from "../../test/startTestServer.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe("getIntentStatus", () => {
  it("GETs the status path and parses the record (bigint lots, Date timestamps, nulls)", async () => {
    server.handle(() => ({
      body: statusWire("UserDeposited", {
        swap_metadata: {
          id: swapId,
          proxy_address: "0xproxy",
          user_deposit_tx: "0xdeposit",
          fulfill_tx: null,
          swap_tx: null,
          created_at: "2026-11-22T10:00:00Z",
          user_deposited_at: "2026-11-22T10:01:30.500Z",
          kyc_requested_at: null,
          fulfilled_at: null,
          swapped_at: null,
          refunded_at: null,
        },
      }),
    }));
    const status = await testClient(server).getIntentStatus({ intentId });
    expect(server.requests[0]?.method).toBe("GET");
    expect(server.requests[0]?.path).toBe(`/affiliate/v1/intents/${intentId}/status`);
    expect(status).toEqual({
      intentId,
      status: "UserDeposited",
      rawStatus: "UserDeposited",
      swapMetadata: {
        id: swapId,
        proxyAddress: "0xproxy",
        userDepositTx: "0xdeposit",
        fulfillTx: null,
        swapTx: null,
        createdAt: new Date(Date.UTC(2026, 10, 22, 10, 0, 0)),
        userDepositedAt: new Date(Date.UTC(2026, 10, 22, 10, 1, 30, 500)),
        kycRequestedAt: null,
        fulfilledAt: null,
        swappedAt: null,
        refundedAt: null,
      },
      sourceAmountDecimals: 6,
      sourceAmountLots: 1500000n,
      sourceChain: 1,
      sourceToken: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
      destAmountDecimals: 9,
      destChain: 5,
      destToken: "So11111111111111111111111111111111111111112",
      minDestAmountLots: 995n,
      maxDestAmountLots: 1000n,
    });
  });

  it("absent and null stage timestamps both become null", async () => {
    server.handle(() => ({
      body: statusWire("Initiated", { swap_metadata: { id: swapId, created_at: "2026-11-22T10:00:00Z" } }),
    }));
    const { swapMetadata } = await testClient(server).getIntentStatus({ intentId });
    expect(swapMetadata).toEqual({
      id: swapId,
      proxyAddress: null,
      userDepositTx: null,
      fulfillTx: null,
      swapTx: null,
      createdAt: new Date("2026-11-22T10:00:00Z"),
      userDepositedAt: null,
      kycRequestedAt: null,
      fulfilledAt: null,
      swappedAt: null,
      refundedAt: null,
    });
  });

  it("maps both refund spellings to RefundRequested and keeps rawStatus", async () => {
    for (const raw of ["RefundRquested", "RefundRequested"]) {
      server.handle(() => ({ body: statusWire(raw) }));
      const status = await testClient(server).getIntentStatus({ intentId });
      expect(status.status).toBe("RefundRequested");
      expect(status.rawStatus).toBe(raw);
    }
  });

  it("an unknown status becomes Unknown with rawStatus kept, never a crash", async () => {
    for (const raw of ["KycPending", "constructor", "toString", ""]) {
      server.handle(() => ({ body: statusWire(raw) }));
      const status = await testClient(server).getIntentStatus({ intentId });
      expect(status.status).toBe("Unknown");
      expect(status.rawStatus).toBe(raw);
    }
  });

  it("an invalid date is RESPONSE_INVALID", async () => {
    server.handle(() => ({
      body: statusWire("Initiated", { swap_metadata: { id: swapId, created_at: "yesterday" } }),
    }));
    const error = await rejection(testClient(server).getIntentStatus({ intentId }));
    expect(error.code).toBe("RESPONSE_INVALID");
    expect(error.details.issues).toEqual([expect.objectContaining({ path: "swap_metadata.created_at" })]);
  });

  it("404 is NOT_FOUND with the server's entity", async () => {
    server.handle(() => ({
      status: 404,
      body: { code: 404, message: "intent not found", entity: "Intent" },
    }));
    const error = await rejection(testClient(server).getIntentStatus({ intentId }));
    expect(error.code).toBe("NOT_FOUND");
    expect(error.details.entity).toBe("Intent");
  });

  it("refuses a non-UUID intent id before any request", async () => {
    server.handle(() => ({ body: statusWire("Initiated") }));
    const error = await rejection(testClient(server).getIntentStatus({ intentId: "../networks" }));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.details.field).toBe("intentId");
    expect(server.requests).toHaveLength(0);
  });
});
