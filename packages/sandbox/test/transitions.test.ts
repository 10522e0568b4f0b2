import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { startTestSandbox, type TestSandbox } from "./support/harness.js";

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox({ resolverStepsPerPass: 1 });
});
afterAll(() => t?.close());
beforeEach(() => {
  t.sandbox.setFaults({ fail_delivery: false, decline_all: false });
});

/** Statuses an intent goes through, one resolver pass at a time. */
async function trace(intentId: string, passes = 12): Promise<string[]> {
  const seen = [(await t.status(intentId)).status as string];
  for (let i = 0; i < passes; i++) {
    await t.sandbox.runResolverOnce();
    const s = (await t.status(intentId)).status as string;
    if (s !== seen.at(-1)) seen.push(s);
  }
  return seen;
}

describe("happy path", () => {
  test("Initiated -> ApprovalAdded -> Accepted -> UserDeposited -> Fulfilled; funds move once, the resolver claims", async () => {
    const { intent, wallet, recipient, quote } = await t.createIntent({ amount: 250 });
    const src = t.legs.get(1)!;
    const dst = t.legs.get(5)!;
    const before = await src.balanceOf(wallet.address, quote.source_token);
    expect((await t.approve(intent, wallet)).body.status).toBe("ApprovalAdded");
    const seen = await trace(intent.intent_id);
    expect(seen).toEqual(["ApprovalAdded", "Accepted", "UserDeposited", "Fulfilled"]);
    const final = await t.status(intent.intent_id);
    expect(final.swap_metadata.user_deposit_tx).toMatch(/^0x[0-9a-f]{64}$/);
    expect(final.swap_metadata.fulfill_tx).toMatch(/^0x[0-9a-f]{64}$/);
    expect(final.swap_metadata.swap_tx).toMatch(/^0x[0-9a-f]{64}$/);
    expect(final.swap_metadata.swapped_at).not.toBeNull();
    expect(final.swap_metadata.refunded_at).toBeNull();
    expect(before - (await src.balanceOf(wallet.address, quote.source_token))).toBe(250_000000n);
    expect(await dst.balanceOf(recipient.address, quote.dest_token)).toBe(250_000000n);
    expect(src.escrow(intent.intent_id)).toEqual({ state: "claimed", amount: 250_000000n });
    expect(src.calls.deposit).toBeGreaterThanOrEqual(1);
  });

  test("the resolver loop runs by itself at its interval", async () => {
    const s = await startTestSandbox({ resolverIntervalMs: 20 });
    try {
      const { intent, wallet } = await s.createIntent();
      await s.approve(intent, wallet);
      let status = "";
      for (let i = 0; i < 200 && status !== "Fulfilled"; i++) {
        await new Promise((r) => setTimeout(r, 25));
        status = (await s.status(intent.intent_id)).status;
      }
      expect(status).toBe("Fulfilled");
    } finally {
      await s.close();
    }
  });
});

describe("expiry", () => {
  test("Initiated -> Expired when the deadline passes", async () => {
    const { intent } = await t.createIntent();
    expect(await trace(intent.intent_id, 2)).toEqual(["Initiated"]);
    await t.sandbox.advanceClock(1801);
    expect(await trace(intent.intent_id, 2)).toEqual(["Initiated", "Expired"]);
  });

  test("ApprovalAdded -> Expired when the deadline passes before the resolver accepts", async () => {
    const { intent, wallet } = await t.createIntent();
    await t.approve(intent, wallet);
    await t.sandbox.advanceClock(1801);
    expect(await trace(intent.intent_id, 2)).toEqual(["ApprovalAdded", "Expired"]);
    expect(t.legs.get(1)!.escrow(intent.intent_id)).toBeUndefined();
  });
});

describe("decline", () => {
  test("ApprovalAdded -> Declined by the decline_all fault; nothing is deposited", async () => {
    const { intent, wallet } = await t.createIntent();
    await t.approve(intent, wallet);
    expect((await t.request("POST", "/sandbox/faults", { decline_all: true })).body).toEqual({
      fail_delivery: false,
      decline_all: true,
    });
    expect(await trace(intent.intent_id, 3)).toEqual(["ApprovalAdded", "Declined"]);
    expect(t.legs.get(1)!.escrow(intent.intent_id)).toBeUndefined();
  });

  test("ApprovalAdded -> Declined when the destination inventory is below the max destination amount", async () => {
    const s = await startTestSandbox({ resolverStepsPerPass: 1 }, { inventoryLots: 50_000000n });
    try {
      const { intent, wallet } = await s.createIntent({ amount: 60 });
      await s.approve(intent, wallet);
      expect((await s.settle(intent.intent_id, ["Declined", "Fulfilled"])).status).toBe("Declined");
      const small = await s.createIntent({ amount: 40 });
      await s.approve(small.intent, small.wallet);
      expect((await s.settle(small.intent.intent_id, ["Declined", "Fulfilled"])).status).toBe("Fulfilled");
    } finally {
      await s.close();
    }
  });
});

describe("refund", () => {
  test("UserDeposited -> RefundRquested -> Refunded when delivery fails (fail_delivery fault)", async () => {
    const { intent, wallet, quote, recipient } = await t.createIntent({ amount: 70 });
    const src = t.legs.get(1)!;
    const start = await src.balanceOf(wallet.address, quote.source_token);
    await t.approve(intent, wallet);
    await t.settle(intent.intent_id, ["UserDeposited"]);
    expect(start - (await src.balanceOf(wallet.address, quote.source_token))).toBe(70_000000n);
    await t.request("POST", "/sandbox/faults", { fail_delivery: true });
    expect(await trace(intent.intent_id, 4)).toEqual(["UserDeposited", "RefundRquested", "Refunded"]);
    const final = await t.status(intent.intent_id);
    expect(final.swap_metadata.refunded_at).not.toBeNull();
    expect(final.swap_metadata.fulfill_tx).toBeNull();
    expect(await src.balanceOf(wallet.address, quote.source_token)).toBe(start);
    expect(await t.legs.get(5)!.balanceOf(recipient.address, quote.dest_token)).toBe(0n);
    expect(src.escrow(intent.intent_id)?.state).toBe("refunded");
    const debug = (await t.request("GET", `/sandbox/intents/${intent.intent_id}`)).body;
    expect(debug).toMatchObject({
      status: "Refunded",
      pending_step: null,
      refund_tx: expect.stringMatching(/^0x/),
    });
    expect(debug.last_error).toContain("fail_delivery");
    expect(JSON.stringify(debug)).not.toMatch(/secret"/);
  });

  test("UserDeposited -> RefundRquested -> Refunded when the deadline passes before delivery", async () => {
    const { intent, wallet, quote } = await t.createIntent();
    const src = t.legs.get(1)!;
    const start = await src.balanceOf(wallet.address, quote.source_token);
    await t.approve(intent, wallet);
    await t.settle(intent.intent_id, ["UserDeposited"]);
    await t.sandbox.advanceClock(1801);
    expect(await trace(intent.intent_id, 3)).toEqual(["UserDeposited", "RefundRquested", "Refunded"]);
    expect(await src.balanceOf(wallet.address, quote.source_token)).toBe(start);
  });

  test("Accepted -> RefundRquested -> Refunded (no transaction) when the deposit is refused", async () => {
    const { intent, wallet, quote } = await t.createIntent({ amount: 100 });
    await t.approve(intent, wallet);
    await t.settle(intent.intent_id, ["Accepted"], 1);
    // the user moves the funds away after approving: the deposit fails on the chain
    const src = t.legs.get(1)!;
    const all = await src.balanceOf(wallet.address, quote.source_token);
    await src.faucet({ address: wallet.address, token: quote.source_token, amountLots: -all });
    expect(await trace(intent.intent_id, 3)).toEqual(["Accepted", "RefundRquested", "Refunded"]);
    const final = await t.status(intent.intent_id);
    expect(final.swap_metadata.user_deposit_tx).toBeNull();
    expect(final.swap_metadata.refunded_at).not.toBeNull();
  });
});

describe("write-ahead steps", () => {
  test.each([["deposit"], ["deliver"], ["claim"]] as const)(
    "a %s the leg executed before a crash is resumed, not repeated: funds move once",
    async (method) => {
      const { intent, wallet, quote, recipient } = await t.createIntent({ amount: 33 });
      const src = t.legs.get(1)!;
      const dst = t.legs.get(5)!;
      const sourceSupply = src.supply(quote.source_token);
      const destSupply = dst.supply(quote.dest_token);
      const userStart = await src.balanceOf(wallet.address, quote.source_token);
      await t.approve(intent, wallet);
      (method === "deliver" ? dst : src).crashAfterNext(method);
      const before = (method === "deliver" ? dst : src).calls[method] ?? 0;
      const final = await t.settle(intent.intent_id, ["Fulfilled"], 12);
      for (let i = 0; i < 3; i++) await t.sandbox.runResolverOnce();
      expect((await t.status(intent.intent_id)).swap_metadata.swap_tx).not.toBeNull();
      expect(final.status).toBe("Fulfilled");
      // the crashed call and the resumed one; the resumed one returned the first transaction
      expect((method === "deliver" ? dst : src).calls[method]).toBe(before + 2);
      expect(userStart - (await src.balanceOf(wallet.address, quote.source_token))).toBe(33_000000n);
      expect(await dst.balanceOf(recipient.address, quote.dest_token)).toBe(33_000000n);
      expect(src.supply(quote.source_token)).toBe(sourceSupply);
      expect(dst.supply(quote.dest_token)).toBe(destSupply);
    },
  );
});

describe("secrets", () => {
  test("the secret reaches only the source leg's claim: never a response, a log line or a stored error", async () => {
    const lines: string[] = [];
    const s = await startTestSandbox({ log: (line) => lines.push(line) });
    try {
      const { intent, wallet } = await s.createIntent();
      const src = s.legs.get(1)!;
      src.failNextClaimQuotingSecret();
      const responses = [intent, (await s.approve(intent, wallet)).body];
      responses.push(await s.settle(intent.intent_id, ["Fulfilled"]));
      for (let i = 0; i < 3; i++) await s.sandbox.runResolverOnce();
      const final = await s.status(intent.intent_id);
      responses.push(final);
      expect(final.swap_metadata.swap_tx).toMatch(/^0x/);
      const secret = src.claimedSecrets[0]!;
      expect(secret).toMatch(/^[0-9a-f]{64}$/);
      // the claim was retried after the failure, with the same secret, whose hash is the intent's
      expect(src.claimedSecrets).toEqual([secret, secret]);
      const { createHash } = await import("node:crypto");
      expect(`0x${createHash("sha256").update(Buffer.from(secret, "hex")).digest("hex")}`).toBe(
        intent.secret_hash,
      );
      const seen = JSON.stringify(responses) + lines.join("\n");
      expect(lines.some((l) => l.includes("[secret]"))).toBe(true);
      expect(seen.toLowerCase()).not.toContain(secret);
    } finally {
      await s.close();
    }
  });
});
