import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cosignTransactionHex, intentId, solanaAddress, statusWire } from "../../test/fixtures.js";
import { rejection, testClient } from "../../test/helpers.js";
import { startTestServer, type TestServer } from "../../test/startTestServer.js";
import type { Approval } from "../types.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const signature = `0x${"1b".repeat(65)}` as const;
const cosignTransaction = cosignTransactionHex();

describe("submitApproval", () => {
  it("POSTs {type, signed_data} for each mechanism and returns the status record", async () => {
    server.handle(() => ({ body: statusWire("ApprovalAdded") }));
    const client = testClient(server);
    const approvals: Array<[Approval, unknown]> = [
      [
        { type: "permit2", signedData: signature },
        { type: "permit2", signed_data: signature },
      ],
      [
        { type: "psbt", signedData: "cHNidP8BAHECAAAAAQ==" },
        { type: "psbt", signed_data: "cHNidP8BAHECAAAAAQ==" },
      ],
      [
        {
          type: "cosign",
          signedData: { transaction: cosignTransaction, userAddress: solanaAddress },
        },
        {
          type: "cosign",
          signed_data: { transaction: cosignTransaction, user_address: solanaAddress },
        },
      ],
    ];
    for (const [approval, wire] of approvals) {
      const status = await client.submitApproval({ intentId, approval });
      const request = server.requests.at(-1);
      expect(request?.method).toBe("POST");
      expect(request?.path).toBe(`/affiliate/v1/intents/${intentId}/approvals`);
      expect(JSON.parse(request?.body ?? "")).toEqual(wire);
      expect(status?.status).toBe("ApprovalAdded");
      expect(status?.intentId).toBe(intentId);
    }
  });

  it("tolerates an empty 200 body (returns null)", async () => {
    server.handle(() => ({ status: 200, body: "" }));
    const status = await testClient(server).submitApproval({
      intentId,
      approval: { type: "permit2", signedData: signature },
    });
    expect(status).toBeNull();
  });

  it("a rejected signature (422) is UNPROCESSABLE with the server's message", async () => {
    server.handle(() => ({
      status: 422,
      body: { code: 422, message: "signature rejected", entity: "Approval" },
    }));
    const error = await rejection(
      testClient(server).submitApproval({ intentId, approval: { type: "permit2", signedData: signature } }),
    );
    expect(error.code).toBe("UNPROCESSABLE");
    expect(error.details).toMatchObject({
      status: 422,
      serverMessage: "signature rejected",
      entity: "Approval",
    });
  });

  it("checks the approval before any request, naming the field", async () => {
    server.handle(() => ({ body: statusWire("ApprovalAdded") }));
    const cases: Array<[unknown, string]> = [
      [{ type: "permit2", signedData: "0x1234" }, "approval.signedData"],
      [{ type: "permit2", signedData: "1b".repeat(65) }, "approval.signedData"],
      [{ type: "psbt", signedData: "not base64!" }, "approval.signedData"],
      [{ type: "cosign", signedData: "01ab" }, "approval.signedData"],
      [
        { type: "cosign", signedData: { transaction: "xyz", userAddress: "a" } },
        "approval.signedData.transaction",
      ],
      [
        { type: "cosign", signedData: { transaction: cosignTransaction, userAddress: "" } },
        "approval.signedData.userAddress",
      ],
      [{ type: "htlc", signedData: "cHNidP8=" }, "approval.type"],
      [undefined, "approval.type"],
    ];
    for (const [approval, field] of cases) {
      const error = await rejection(
        testClient(server).submitApproval({ intentId, approval: approval as Approval }),
      );
      expect(error.code).toBe("INVALID_INPUT");
      expect(error.details.field).toBe(field);
    }
    const badId = await rejection(
      testClient(server).submitApproval({
        intentId: "x",
        approval: { type: "permit2", signedData: signature },
      }),
    );
    expect(badId.details.field).toBe("intentId");
    expect(server.requests).toHaveLength(0);
  });
});
