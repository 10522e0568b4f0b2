/**
 * The sandbox never repeats a credential or a secret a caller sent: a marker API key, request signature, private
 * key and preimage planted in headers, path, query and body fields of failing requests never appear in an error
 * body nor in a log line. (Preimages the HTLC protocol reveals, after the claim, are out of scope: none is revealed
 * by a refused request.)
 */
import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createMarkerSecret, findSecret } from "../../client/test/expectNoSecret.js";
import { startTestSandbox, type TestSandbox } from "./support/harness.js";

const marker = createMarkerSecret();
const markerB64 = Buffer.from(marker.bytes).toString("base64");
const secrets = [marker.bytes, marker.hex];
const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
const publicPem = rsa.publicKey.export({ type: "spki", format: "pem" }).toString();
const logs: string[] = [];

let t: TestSandbox;
let signed: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox({ apiKeys: ["test-key"], log: (line) => void logs.push(line) });
  signed = await startTestSandbox({
    publicKeys: [publicPem],
    log: (line) => void logs.push(line),
  });
});
afterAll(async () => {
  await t?.close();
  await signed?.close();
});

async function expectNoEcho(response: Promise<{ status: number; body: unknown }>) {
  const { status, body } = await response;
  expect(status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
  const text = JSON.stringify(body);
  expect(findSecret([text], secrets), text).toBeNull();
  expect(findSecret(logs, secrets), logs.join("\n")).toBeNull();
}

const forms = {
  hex: marker.hex,
  hex0x: `0x${marker.hex}`,
  base64: markerB64,
  oneCharOff: `${marker.hex.slice(0, 31)}g${marker.hex.slice(32)}`,
};

describe.each(Object.entries(forms))("a secret as %s", (_form, secret) => {
  test("as the API key (unknown, or with a space), and the signing headers", async () => {
    await expectNoEcho(t.request("GET", "/affiliate/v1/networks", undefined, { "x-api-key": secret }));
    await expectNoEcho(t.request("GET", "/affiliate/v1/networks", undefined, { "x-api-key": `${secret} x` }));
    const timestamp = String(Math.floor(Date.now() / 1000));
    for (const headers of <Record<string, string>[]>[
      { "x-api-key": secret, "x-api-signature": secret, "x-api-timestamp": timestamp },
      { "x-api-key": "unknown", "x-api-signature": secret, "x-api-timestamp": timestamp },
      { "x-api-key": secret, "x-api-signature": markerB64, "x-api-timestamp": secret, "x-api-nonce": secret },
    ])
      await expectNoEcho(signed.request("GET", "/affiliate/v1/networks", undefined, headers));
  });
  test("in the path and the query", async () => {
    await expectNoEcho(
      t.request("GET", `/affiliate/v1/intents/${encodeURIComponent(secret)}/status`, undefined, {
        "x-api-key": "test-key",
      }),
    );
    await expectNoEcho(
      t.request(
        "GET",
        `/affiliate/v1/history?wallet=${encodeURIComponent(secret)}&limit=${secret}`,
        undefined,
        { "x-api-key": "test-key" },
      ),
    );
    await expectNoEcho(
      t.request("GET", `/affiliate/v1/tokens?network_id=${secret}`, undefined, { "x-api-key": "test-key" }),
    );
  });
  test.each([
    "amount",
    "slippage_bps",
    "source_token",
    "dest_token",
    "source_chain",
    "swap_type",
    "retail_user_id",
  ])("as the quote's %s", async (field) => {
    await expectNoEcho(
      t.request(
        "POST",
        "/affiliate/v1/quotes/best",
        {
          source_chain: 1,
          source_token: await t.token(1, "USDC"),
          dest_chain: 5,
          dest_token: await t.token(5, "USDC"),
          amount: 100,
          slippage_bps: "50",
          swap_type: "standard",
          [field]: secret,
        },
        { "x-api-key": "test-key" },
      ),
    );
  });
  test("as the dev faucet's token", async () => {
    const body = {
      network_id: 1,
      address: "0x0000000000000000000000000000000000000001",
      token: secret,
      amount: 1,
    };
    await expectNoEcho(t.request("POST", "/sandbox/faucet", body, { "x-api-key": "test-key" }));
  });
  test("as an approval's signed_data, type and intent id", async () => {
    const id = "3f1c9a52-7b4e-4d2a-9c61-0e8f5b7a2d14";
    for (const body of [
      { type: "permit2", signed_data: secret },
      { type: secret, signed_data: "0x00" },
      { type: "cosign", signed_data: { transaction: secret, user_address: secret } },
      { type: "psbt", signed_data: secret },
    ])
      await expectNoEcho(
        t.request("POST", `/affiliate/v1/intents/${id}/approvals`, body, { "x-api-key": "test-key" }),
      );
  });
  test("as the fields of a new intent", async () => {
    for (const field of [
      "quote_id",
      "user_source_address",
      "user_source_public_key",
      "user_destination_address",
      "refund_address",
    ])
      await expectNoEcho(
        t.request(
          "POST",
          "/affiliate/v1/intents",
          {
            quote_id: "3f1c9a52-7b4e-4d2a-9c61-0e8f5b7a2d14",
            user_source_address: "0x0000000000000000000000000000000000000001",
            user_destination_address: "x",
            [field]: secret,
          },
          { "x-api-key": "test-key" },
        ),
      );
  });
});
