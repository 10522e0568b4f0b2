import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { createStore } from "../src/db/createStore.js";
import { MIGRATIONS } from "../src/db/migrations.js";
import { openDatabase } from "../src/db/openDatabase.js";
import { toPartnerId } from "../src/http/createAuthenticator.js";
import { signTestApproval } from "./support/createTestLeg.js";
import { startTestSandbox, type TestSandbox } from "./support/harness.js";

const open: TestSandbox[] = [];
afterAll(() => Promise.all(open.map((t) => t.close())));

async function start(options: Parameters<typeof startTestSandbox>[0]) {
  const t = await startTestSandbox(options);
  open.push(t);
  return t;
}

/**
 * Partner A ("test-key", the harness's key) creates an intent; partner B must get exactly what an unknown id gets,
 * on every endpoint that names or finds it, while A still sees everything.
 */
async function expectIsolated(t: TestSandbox, otherKey: string) {
  const { intent, wallet, recipient, quote } = await t.createIntent();
  const asB = { "x-api-key": otherKey };
  const id = intent.intent_id as string;
  const unknownId = crypto.randomUUID();

  const statusB = await t.request("GET", `/affiliate/v1/intents/${id}/status`, undefined, asB);
  const statusUnknown = await t.request("GET", `/affiliate/v1/intents/${unknownId}/status`, undefined, asB);
  expect(statusB.status).toBe(404);
  expect(statusB.body).toEqual(statusUnknown.body);

  const approvalB = await t.request(
    "POST",
    `/affiliate/v1/intents/${id}/approvals`,
    signTestApproval({ wallet, intent }),
    asB,
  );
  expect(approvalB.status).toBe(404);
  expect(approvalB.body.type).toBe("INTENT_NOT_FOUND");

  // B cannot spend A's quote either (a fresh quote of A's, unused)
  const freshQuote = (await t.quote({})).body;
  const intentB = await t.request(
    "POST",
    "/affiliate/v1/intents",
    {
      quote_id: freshQuote.id,
      refund_address: wallet.address,
      user_destination_address: recipient.address,
      user_source_address: wallet.address,
    },
    asB,
  );
  expect(intentB.status).toBe(404);
  expect(intentB.body.type).toBe("QUOTE_NOT_FOUND");
  expect(quote.id).not.toBe(freshQuote.id);

  for (const query of [
    `wallet=${wallet.address}`,
    `wallet=${recipient.address.toUpperCase()}`,
    `retail_id=${crypto.randomUUID()}&wallet=${wallet.address}`,
  ]) {
    const historyB = await t.request("GET", `/affiliate/v1/swaps/history?${query}`, undefined, asB);
    expect(historyB.status).toBe(200);
    expect(historyB.body).toMatchObject({ items: [], total: 0 });
  }

  // A sees its own intent everywhere, and can approve it (B's attempt changed nothing)
  expect((await t.request("GET", `/affiliate/v1/intents/${id}/status`)).body.status).toBe("Initiated");
  const historyA = await t.request("GET", `/affiliate/v1/swaps/history?wallet=${wallet.address}`);
  expect(historyA.body.items.map((x: { intent_id: string }) => x.intent_id)).toEqual([id]);
  expect((await t.approve(intent, wallet)).status).toBe(200);
}

describe("who sees what: each partner sees only what it created", () => {
  test("--api-key keyA --api-key keyB: B gets 404 for A's intent, quote and approvals, and none of A's history", async () => {
    const t = await start({ apiKeys: ["test-key", "keyB"] });
    await expectIsolated(t, "keyB");
  });

  test("any-key mode: each distinct key is its own partner, isolated the same way", async () => {
    const t = await start({});
    await expectIsolated(t, "some-other-ci-job");
    // the same key string is the same partner, whichever request carries it
    const { intent } = await t.createIntent();
    expect(
      (
        await t.request("GET", `/affiliate/v1/intents/${intent.intent_id}/status`, undefined, {
          "x-api-key": "test-key",
        })
      ).status,
    ).toBe(200);
  });

  test("the partner id is a hash of the key, never the key itself", () => {
    const id = toPartnerId("api-key", "secret-key-value");
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(id).not.toContain("secret");
    expect(id).not.toBe(toPartnerId("signing-key", "secret-key-value"));
    expect(id).not.toBe(toPartnerId("api-key", "secret-key-valuE"));
  });
});

describe("a data folder from before partner scoping (migration 1 only) keeps working", () => {
  const dir = mkdtempSync(join(tmpdir(), "sandbox-migration-2-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("its rows get partner_id NULL and stay visible to every partner; new rows are scoped", async () => {
    const legacyId = crypto.randomUUID();
    const v1 = await openDatabase({ dir, migrations: MIGRATIONS.filter((m) => m.version === 1) });
    await v1.query(
      "INSERT INTO quotes (id, wire, expiry_ms, retail_user_id, used_by_intent, created_at_ms) VALUES ($1, $2, 1, NULL, NULL, 1)",
      [legacyId, JSON.stringify({ id: legacyId })],
    );
    await v1.close();

    const db = await openDatabase({ dir });
    try {
      const versions = await db.query<{ version: number }>(
        "SELECT version FROM schema_migrations ORDER BY version",
      );
      expect(versions.rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version)); // 2 and every later one
      const store = createStore({ db });
      const a = toPartnerId("api-key", "a");
      const b = toPartnerId("api-key", "b");
      for (const partner of [a, b]) expect((await store.getQuote(legacyId, partner))?.partnerId).toBeNull();
      const newId = crypto.randomUUID();
      await store.insertQuote({
        id: newId,
        wire: { id: newId },
        expiryMs: 1,
        retailUserId: null,
        usedByIntent: null,
        partnerId: a,
        createdAtMs: 1,
      });
      expect((await store.getQuote(newId, a))?.partnerId).toBe(a);
      expect(await store.getQuote(newId, b)).toBeUndefined();
      const stored = await db.query<{ partner_id: string }>("SELECT partner_id FROM quotes WHERE id = $1", [
        newId,
      ]);
      expect(stored.rows[0]?.partner_id).toBe(a);
    } finally {
      await db.close();
    }
  });
});

describe("the rate limit says what it counts", () => {
  const networks = "/affiliate/v1/networks";

  test("while any key is accepted it counts per client address: rotating keys does not get past it", async () => {
    const t = await start({ rateLimit: { requests: 5, windowSecs: 60 } });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++)
      statuses.push((await t.request("GET", networks, undefined, { "x-api-key": `rotated-${i}` })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    const limited = await t.request("GET", networks, undefined, { "x-api-key": "yet-another" });
    expect(limited.body).toMatchObject({ code: 429, type: "RATE_LIMITED", entity: "Other" });
    expect(limited.body.message).toContain("client address");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  test("with a key list it counts per partner: A over its limit does not stop B", async () => {
    const t = await start({ apiKeys: ["keyA", "keyB"], rateLimit: { requests: 3, windowSecs: 60 } });
    const as = (key: string) => t.request("GET", networks, undefined, { "x-api-key": key });
    for (let i = 0; i < 3; i++) expect((await as("keyA")).status).toBe(200);
    const limited = await as("keyA");
    expect(limited.status).toBe(429);
    expect(limited.body.message).toContain("partner");
    expect((await as("keyB")).status).toBe(200);
    // keys outside the list are 401 whatever the count
    expect((await as("keyC")).status).toBe(401);
  });
});
