import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { intentId, networksWire, permit2IntentWire, quoteId, secretHash } from "../../test/fixtures.js";
import { rejection, testClient } from "../../test/helpers.js";
import { startTestServer, type TestServer } from "../../test/startTestServer.js";
import type { Quote } from "../types.js";
import type { CreateIntentParameters } from "./createIntent.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const now = 1_800_000_000_000;
function quote(sourceChain: number, expiryMs = now + 30_000): Quote {
  return {
    id: quoteId,
    sourceChain,
    sourceToken: "src",
    destChain: 1,
    destToken: "dst",
    intermediateToken: null,
    intermediateTokenAmountMin: null,
    intermediateTokenAmountMax: null,
    intermediateTokenDecimals: null,
    sourceAmountLots: 100n,
    sourceAmountDecimals: 8,
    minDestAmountLots: 1n,
    maxDestAmountLots: 2n,
    destAmountDecimals: 6,
    slippageBps: 50,
    expiryMs,
    swapType: "standard",
  };
}
const addresses = { refundAddress: "refund", userSourceAddress: "source", userDestinationAddress: "0xdest" };
const bitcoinKey = `02${"a1".repeat(32)}`;
const solanaKey = "b2".repeat(32);

/** Routes: networks catalogue, and intents answering with `intent`. */
function serve(intent: unknown = permit2IntentWire()) {
  server.handle((request) =>
    request.path === "/affiliate/v1/networks" ? { body: networksWire } : { status: 200, body: intent },
  );
}

describe("createIntent", () => {
  it("POSTs the spec body and parses a permit2 intent", async () => {
    serve();
    const intent = await testClient(server).createIntent({
      quote: quoteId,
      ...addresses,
      retailUserId: "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee",
    });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.path).toBe("/affiliate/v1/intents");
    expect(JSON.parse(server.requests[0]?.body ?? "")).toEqual({
      quote_id: quoteId,
      refund_address: "refund",
      retail_user_id: "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee",
      user_destination_address: "0xdest",
      user_source_address: "source",
    });
    expect(intent.intentId).toBe(intentId);
    expect(intent.deadlineSecs).toBe(4102444800);
    expect(intent.secretHash).toBe(secretHash);
    if (intent.approvalMechanism !== "permit2") throw new Error("expected permit2");
    expect(intent.paramsToSign).toEqual({
      escrowContractAddress: "0x1111111111111111111111111111111111111111",
      permit2ContractAddress: "0x000000000022D473030F116dDEE9F6B43aC78BA3",
      resolverDepositAddress: "0x2222222222222222222222222222222222222222",
      nonce: 123456789n,
      additionalData: {
        domain: {
          name: "Permit2",
          chainId: 1337001,
          verifyingContract: "0x000000000022D473030F116dDEE9F6B43aC78BA3",
        },
        types: {
          TokenPermissions: [
            { name: "token", type: "address" },
            { name: "amount", type: "uint256" },
          ],
        },
        witness: { intentId: `0x${"00".repeat(16)}9b8a7c6d5e4f4a3b9c2d1e0f2a3b4c5d`, minDestAmount: "123" },
        secretHash,
        witnessTypeString:
          "SwapWitness witness)SwapWitness(bytes32 intentId)TokenPermissions(address token,uint256 amount)",
        witnessHash: `0x${"cd".repeat(32)}`,
      },
    });
  });

  it("parses htlc and cosign intents", async () => {
    const envelope = { intent_id: intentId, deadline_secs: 1, secret_hash: secretHash };
    serve({ ...envelope, approval_mechanism: "htlc", params_to_sign: { psbt: "cHNidP8=", inputs: [0, 2] } });
    const htlc = await testClient(server).createIntent({ quote: quoteId, ...addresses });
    expect(htlc).toMatchObject({
      approvalMechanism: "htlc",
      paramsToSign: { psbt: "cHNidP8=", inputs: [0, 2] },
    });
    serve({ ...envelope, approval_mechanism: "cosign", params_to_sign: { transaction: "0a0b" } });
    const cosign = await testClient(server).createIntent({ quote: quoteId, ...addresses });
    expect(cosign).toMatchObject({ approvalMechanism: "cosign", paramsToSign: { transaction: "0a0b" } });
  });

  it("an unknown approval mechanism or a malformed params_to_sign is RESPONSE_INVALID", async () => {
    const envelope = { intent_id: intentId, deadline_secs: 1, secret_hash: secretHash };
    serve({ ...envelope, approval_mechanism: "magic", params_to_sign: {} });
    expect((await rejection(testClient(server).createIntent({ quote: quoteId, ...addresses }))).code).toBe(
      "RESPONSE_INVALID",
    );
    serve({ ...envelope, approval_mechanism: "htlc", params_to_sign: { psbt: "x", inputs: [-1] } });
    const error = await rejection(testClient(server).createIntent({ quote: quoteId, ...addresses }));
    expect(error.code).toBe("RESPONSE_INVALID");
    expect(error.details.issues).toEqual([expect.objectContaining({ path: "inputs.0" })]);
  });

  it("refuses an expired quote object locally with QUOTE_EXPIRED, sending nothing", async () => {
    serve();
    const error = await rejection(
      testClient(server).createIntent({ quote: quote(1, now - 1), ...addresses, now }),
    );
    expect(error.code).toBe("QUOTE_EXPIRED");
    expect(error.details.expiryMs).toBe(now - 1);
    expect(server.requests).toHaveLength(0);
  });

  it("requires userSourcePublicKey for a Bitcoin or Solana source, learnt from one cached GET /networks", async () => {
    serve();
    const client = testClient(server);
    const bitcoin = await rejection(client.createIntent({ quote: quote(4), ...addresses, now }));
    expect(bitcoin.code).toBe("INVALID_INPUT");
    expect(bitcoin.details.field).toBe("userSourcePublicKey");
    const solana = await rejection(client.createIntent({ quote: quote(5), ...addresses, now }));
    expect(solana.details.field).toBe("userSourcePublicKey");
    expect(server.requests.map((r) => r.path)).toEqual(["/affiliate/v1/networks"]);

    await client.createIntent({ quote: quote(4), ...addresses, userSourcePublicKey: bitcoinKey, now });
    await client.createIntent({ quote: quote(5), ...addresses, userSourcePublicKey: `0x${solanaKey}`, now });
    await client.createIntent({ quote: quote(1), ...addresses, now });
    expect(server.requests.map((r) => r.path)).toEqual([
      "/affiliate/v1/networks",
      "/affiliate/v1/intents",
      "/affiliate/v1/intents",
      "/affiliate/v1/intents",
    ]);
    expect(JSON.parse(server.requests[1]?.body ?? "").user_source_public_key).toBe(bitcoinKey);
    expect(JSON.parse(server.requests[2]?.body ?? "").user_source_public_key).toBe(solanaKey);
  });

  it("an aborted caller never sends its POST, and does not break a concurrent caller's lookup", async () => {
    serve();
    const client = testClient(server);
    const [aborted, ok] = await Promise.allSettled([
      client.createIntent({
        quote: quote(4),
        ...addresses,
        userSourcePublicKey: bitcoinKey,
        now,
        signal: AbortSignal.abort(),
      }),
      client.createIntent({ quote: quote(4), ...addresses, userSourcePublicKey: bitcoinKey, now }),
    ]);
    expect(aborted.status === "rejected" && (aborted.reason as { code: string }).code).toBe("ABORTED");
    expect(ok.status).toBe("fulfilled");
    expect(server.requests.map((r) => r.path)).toEqual(["/affiliate/v1/networks", "/affiliate/v1/intents"]);
  });

  it("checks the key's size for the network type", async () => {
    serve();
    const cases: Array<[string, string]> = [
      ["BITCOIN", solanaKey],
      ["BITCOIN", `04${"a1".repeat(32)}`],
      ["SOLANA", bitcoinKey],
      ["SOLANA", "zz"],
    ];
    for (const [sourceNetworkType, userSourcePublicKey] of cases) {
      const error = await rejection(
        testClient(server).createIntent({
          quote: quoteId,
          ...addresses,
          sourceNetworkType,
          userSourcePublicKey,
        }),
      );
      expect(error.code).toBe("INVALID_INPUT");
      expect(error.details.field).toBe("userSourcePublicKey");
    }
    expect(server.requests).toHaveLength(0);
  });

  it("an explicit sourceNetworkType skips the catalogue", async () => {
    serve();
    const error = await rejection(
      testClient(server).createIntent({ quote: quote(1), ...addresses, sourceNetworkType: "solana", now }),
    );
    expect(error.details.field).toBe("userSourcePublicKey");
    expect(server.requests).toHaveLength(0);
  });

  it("checks inputs before any request, naming the field", async () => {
    serve();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ quote: "nope" }, "quote"],
      [{ quote: { ...quote(1), id: "nope" } }, "quote"],
      [{ refundAddress: "" }, "refundAddress"],
      [{ userSourceAddress: " " }, "userSourceAddress"],
      [{ userDestinationAddress: undefined }, "userDestinationAddress"],
      [{ retailUserId: "123" }, "retailUserId"],
      [{ userSourcePublicKey: "xyz" }, "userSourcePublicKey"],
    ];
    for (const [override, field] of cases) {
      const error = await rejection(
        testClient(server).createIntent({
          quote: quoteId,
          ...addresses,
          sourceNetworkType: "EVM",
          ...override,
        } as CreateIntentParameters),
      );
      expect(error.code).toBe("INVALID_INPUT");
      expect(error.details.field).toBe(field);
    }
    expect(server.requests).toHaveLength(0);
  });

  it("422 from the service (quote already used) is UNPROCESSABLE and not retried", async () => {
    server.handle(() => ({
      status: 422,
      body: { code: 422, message: "quote already used", entity: "Quote" },
    }));
    const error = await rejection(testClient(server).createIntent({ quote: quoteId, ...addresses }));
    expect(error.code).toBe("UNPROCESSABLE");
    expect(error.details).toMatchObject({ serverMessage: "quote already used", entity: "Quote" });
    expect(server.requests).toHaveLength(1);
  });
});
