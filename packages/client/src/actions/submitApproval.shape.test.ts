/**
 * `signed_data` of each mechanism is checked for its kind before it is sent: a careless caller (a WIF where the
 * PSBT goes, a signature without its v, an unsigned or legacy transaction) gets `INVALID_INPUT` naming the field,
 * not a round trip and a 422. Before, any base64 passed as a PSBT, any 65 bytes as a signature and any hex as a
 * transaction.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cosignTransactionHex, intentId, solanaAddress, statusWire } from "../../test/fixtures.js";
import { rejection, testClient } from "../../test/helpers.js";
import { startTestServer, type TestServer } from "../../test/startTestServer.js";
import type { Approval } from "../types.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  server.handle(() => ({ body: statusWire("ApprovalAdded") }));
});
afterAll(() => server.close());

const rs = "ab".repeat(64);

async function refused(approval: unknown, field = "approval.signedData") {
  const before = server.requests.length;
  const error = await rejection(
    testClient(server).submitApproval({ intentId, approval: approval as Approval }),
  );
  expect(error.code).toBe("INVALID_INPUT");
  expect(error.details.field).toBe(field);
  expect(server.requests.length).toBe(before);
}

async function accepted(approval: Approval) {
  const status = await testClient(server).submitApproval({ intentId, approval });
  expect(status?.status).toBe("ApprovalAdded");
}

describe("permit2: a 65-byte ECDSA signature whose v is 27 or 28", () => {
  it.each(["00", "01", "1a", "1d", "25", "26", "ff"])(
    "v = 0x%s is refused (Permit2's ecrecover would fail)",
    async (v) => {
      await refused({ type: "permit2", signedData: `0x${rs}${v}` });
    },
  );
  it.each(["1b", "1c", "1B", "1C"])("v = 0x%s is accepted", async (v) => {
    await accepted({ type: "permit2", signedData: `0x${rs}${v}` as `0x${string}` });
  });
});

describe("permit2: a contract owner's signature (ERC-1271, ERC-6492 wrapped), 66 to 16384 bytes of 0x hex", () => {
  const wrapped = `0x${"00".repeat(31)}${"ab".repeat(300)}${"6492".repeat(16)}`;
  it.each([
    ["66 bytes", `0x${"ab".repeat(66)}`],
    ["a two-owner multisig (130 bytes)", `0x${"ab".repeat(130)}`],
    ["an ERC-6492 wrapper", wrapped],
    ["16384 bytes", `0x${"cd".repeat(16_384)}`],
  ])("%s: accepted and sent as given", async (_name, signature) => {
    await accepted({ type: "permit2", signedData: signature as `0x${string}` });
    const body = JSON.parse(server.requests.at(-1)?.body ?? "{}") as { signed_data?: string };
    expect(body.signed_data).toBe(signature);
  });
  it.each([
    ["16385 bytes", `0x${"cd".repeat(16_385)}`],
    ["an odd number of hex digits", `0x${"ab".repeat(70)}a`],
    ["no 0x", "ab".repeat(70)],
    ["a non-hex character", `0x${"ab".repeat(69)}zz`],
    ["64 bytes (a compact signature)", `0x${"ab".repeat(64)}`],
    ["empty", "0x"],
    ["whitespace inside", `0x${"ab".repeat(40)} ${"ab".repeat(40)}`],
  ])("%s: refused", async (_name, signature) => {
    await refused({ type: "permit2", signedData: signature });
  });
});

describe("psbt: base64 of a PSBT (magic 70736274ff, base64 cHNidP8), padded to whole quads", () => {
  it.each([
    ["a WIF private key", "KwDiBf89QgGbjEhKnhXJuH7LrciVrZi3qYjgd9M7rFU73sVHnoWn"],
    ["random base64", "AAAAAAAAAAAAAAAA"],
    ["the PSBT as hex (hex digits are base64 letters)", "70736274ff01007102000000"],
    ["a raw transaction as base64", "AgAAAAABAQ=="],
    ["the magic without the 0xff separator (base64 of `psbt`)", "cHNidA=="],
    ["cHNidP8 unpadded", "cHNidP8BAHECAAAAAQ"],
    ["cHNidP8 cut short", "cHNidP8"],
    ["the magic alone, less than a quad after it", "cHNidP8BA"],
    ["base64url alphabet", "cHNidP8BAHECAAAA_Q=="],
    ["a line break inside", "cHNidP8B\nAHECAAAAAQ=="],
    ["padding in the middle", "cHNidP8=cHNidP8="],
  ])("%s is refused", async (_name, psbt) => {
    await refused({ type: "psbt", signedData: psbt });
  });
  it.each([
    "cHNidP8BAHECAAAAAQ==",
    "cHNidP8BAA==",
    "cHNidP8BAHECAAAAASaBcTce3/KF6Tet7qSze3gADAVmy7OtZGQXE8pCFxv2AAAAAAD+////",
  ])("%s is accepted", async (psbt) => {
    await accepted({ type: "psbt", signedData: psbt });
  });
});

describe("cosign: a v0 transaction whose signature count matches its header", () => {
  const tx = cosignTransactionHex();
  const legacy = tx.slice(0, 2 + 128 * 2) + tx.slice(2 + 128 * 2 + 2); // the same without the 0x80 prefix
  it.each([
    ["a legacy (unversioned) transaction", legacy],
    ["no signatures", `00${tx.slice(2)}`],
    ["a count above the header's", `03${tx.slice(2)}`],
    ["a count below the header's", `01${tx.slice(2 + 128)}`],
    ["only the signatures", tx.slice(0, 2 + 256)],
    ["two bytes", "01ab"],
    ["a PSBT as hex", "70736274ff01007102000000"],
    ["a count of 128 or more (a two-byte compact-u16: more than a transaction holds)", `80${tx.slice(2)}`],
    // the layout matches (count, that many signatures, 0x80, the same count), yet no transaction is over 1232
    // bytes: before, these were accepted (the count was never bounded by the size)
    ...[0x13, 0x80, 0xff].map((count): [string, string] => {
      const hex = count.toString(16).padStart(2, "0");
      return [
        `${count} signatures and a v0 header saying so`,
        `${hex}${"ab".repeat(64 * count)}80${hex}${tx.slice(2 + 128 + 4)}`,
      ];
    }),
    ["a signed v0 transaction padded past 1232 bytes", `${tx}${"00".repeat(1233 - tx.length / 2)}`],
  ])("%s is refused", async (_name, transaction) => {
    await refused(
      { type: "cosign", signedData: { transaction, userAddress: solanaAddress } },
      "approval.signedData.transaction",
    );
  });
  it("a signed v0 transaction with 1 or 3 signers is accepted", async () => {
    for (const signers of [1, 3]) {
      await accepted({
        type: "cosign",
        signedData: { transaction: cosignTransactionHex({ signers, keys: 4 }), userAddress: solanaAddress },
      });
    }
  });
});
