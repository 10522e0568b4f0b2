import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { PendingStep } from "../src/db/intentRow.js";
import type { TestLeg } from "./support/createTestLeg.js";
import { startTestSandbox, type TestSandbox } from "./support/harness.js";
import { startPostgres, type TestPostgres } from "./support/startPostgres.js";

// The writer connection (which is also the resolver lock's) killed at each point of each write-ahead step:
// recording the step (or confirming a recorded one), during the leg call, and during the write that finishes it.
// One sandbox on one database; the test drives the resolver one step per pass.

type Point = "record" | "call" | "finish";
interface Plan {
  intentId: string;
  step: PendingStep;
  point: Point;
  fired: boolean;
}

let server: TestPostgres;
let admin: pg.Client;
let rowLocker: pg.Client;
let url: string;
let t: TestSandbox;
const logLines: string[] = [];
let plan: Plan | undefined;
let pendingKill: Promise<void> | undefined;

/** The status an intent is in while each step is recorded (as the resolver's table says). */
const STATUS_OF_STEP: Record<PendingStep, string> = {
  deposit: "Accepted",
  deliver: "UserDeposited",
  claim: "Fulfilled",
  refund: "RefundRquested",
};

async function until(condition: () => Promise<boolean> | boolean, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const database = () => new URL(url).pathname.slice(1);

async function lockHolderPid(): Promise<number | undefined> {
  const r = await admin.query<{ pid: number }>(
    `SELECT l.pid FROM pg_locks l JOIN pg_database d ON d.oid = l.database
     WHERE l.locktype = 'advisory' AND l.classid = 1398227280 AND l.objid = 1 AND l.granted AND d.datname = $1`,
    [database()],
  );
  return r.rows[0]?.pid;
}

/** Terminate the writer's backend and wait until the sandbox took the lock again on a new connection. */
async function killWriter(pid?: number) {
  const victim = pid ?? (await lockHolderPid());
  const regained = logLines.filter((l) => l.includes("resolver lock taken again")).length;
  await admin.query("SELECT pg_terminate_backend($1)", [victim]);
  await until(
    () => logLines.filter((l) => l.includes("resolver lock taken again")).length > regained,
    "the lock to be taken again",
  );
}

/** Hold the intent's row lock (until {@link killWhileBlocked}), so the writer's next UPDATE of it blocks mid-statement. */
async function lockRow(intentId: string) {
  await rowLocker.query("BEGIN");
  await rowLocker.query("SELECT 1 FROM intents WHERE id = $1 FOR UPDATE", [intentId]);
}

/** Once the writer waits on the locked row, kill it mid-statement, then let go of the row. */
async function killWhileBlocked() {
  let waiting: number | undefined;
  await until(async () => {
    const r = await admin.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' AND query LIKE 'UPDATE intents%'",
      [database()],
    );
    waiting = r.rows[0]?.pid;
    return waiting !== undefined;
  }, "the writer to wait on the row");
  expect(waiting).toBe(await lockHolderPid());
  await killWriter(waiting);
  await rowLocker.query("ROLLBACK");
}

async function storedRow(intentId: string) {
  const r = await admin.query("SELECT * FROM intents WHERE id = $1", [intentId]);
  return r.rows[0] as Record<string, string | null>;
}

beforeAll(async () => {
  server = await startPostgres();
  url = await server.createDatabase("writer_kill");
  admin = new pg.Client({ connectionString: url });
  rowLocker = new pg.Client({ connectionString: url });
  await Promise.all([admin.connect(), rowLocker.connect()]);
  t = await startTestSandbox({
    databaseUrl: url,
    resolverStepsPerPass: 1,
    log: (line) => void logLines.push(line),
  });
  for (const leg of t.legs.values()) wrapLeg(leg);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await Promise.all([admin?.end(), rowLocker?.end()]);
  await server?.stop();
});

/** Wrap a test leg's write-ahead calls so the plan's "call" and "finish" points kill the writer. */
function wrapLeg(leg: TestLeg) {
  for (const step of ["deposit", "deliver", "claim", "refund"] as const) {
    const original = leg[step].bind(leg) as (...args: unknown[]) => Promise<unknown>;
    (leg as unknown as Record<string, unknown>)[step] = async (...args: unknown[]) => {
      const first = args[0] as { intentId: string };
      const p = plan;
      const mine = p && !p.fired && p.step === step && p.intentId === first.intentId;
      if (mine && p.point === "call") {
        p.fired = true;
        await killWriter();
      }
      const result = await original(...args);
      if (mine && p.point === "finish") {
        p.fired = true;
        // The finish write starts once this call returns: block it on the row, kill the writer mid-statement.
        await lockRow(p.intentId);
        pendingKill = killWhileBlocked();
      }
      return result;
    };
  }
}

describe.each<[PendingStep, Point]>([
  ["deposit", "record"],
  ["deposit", "call"],
  ["deposit", "finish"],
  ["deliver", "record"],
  ["deliver", "call"],
  ["deliver", "finish"],
  ["claim", "record"],
  ["claim", "call"],
  ["claim", "finish"],
  ["refund", "record"],
  ["refund", "call"],
  ["refund", "finish"],
])("the writer killed at the %s step's %s", (step, point) => {
  test(`${step}/${point}: the step resumes, nothing is paid twice or lost, no row is half-written`, async () => {
    const refund = step === "refund";
    await t.request("POST", "/sandbox/faults", { fail_delivery: refund });
    const { intent, wallet, recipient } = await t.createIntent({ amount: 10 });
    expect((await t.approve(intent, wallet)).status).toBe(200);
    const id = intent.intent_id as string;
    plan = { intentId: id, step, point, fired: false };
    const source = t.legs.get(1)!;
    const dest = t.legs.get(5)!;
    const usdcSource = await t.token(1, "USDC");
    const supply = source.supply(usdcSource);
    const callsBefore = (step === "deliver" ? dest : source).calls[step] ?? 0;
    for (let pass = 0; pass < 40; pass++) {
      const row = await storedRow(id);
      const terminal = ["Fulfilled", "Refunded"].includes(row.status!) && row.pending_step === null;
      if (terminal) break;
      // Every row between passes is whole: a recorded step fits its status, and each status has its transaction.
      if (row.pending_step !== null) expect(row.status).toBe(STATUS_OF_STEP[row.pending_step as PendingStep]);
      if (row.status === "UserDeposited") expect(row.user_deposit_tx).not.toBeNull();
      if (row.status === "Fulfilled") expect(row.fulfill_tx).not.toBeNull();
      const next: PendingStep | undefined =
        row.pending_step !== null
          ? (row.pending_step as PendingStep)
          : ({ Accepted: "deposit", UserDeposited: "deliver", RefundRquested: "refund" } as const)[
              row.status as "Accepted"
            ];
      if (point === "record" && !plan.fired && next === step && row.status === STATUS_OF_STEP[step]) {
        plan.fired = true;
        await lockRow(id);
        const passing = t.sandbox.runResolverOnce();
        await killWhileBlocked();
        await passing;
        expect(await storedRow(id)).toEqual(row); // the record (or confirm) write did not happen
        continue;
      }
      await t.sandbox.runResolverOnce();
      if (pendingKill) {
        await pendingKill;
        pendingKill = undefined;
      }
    }
    expect(plan.fired).toBe(true);
    const row = await storedRow(id);
    const usdcDest = await t.token(5, "USDC");
    if (refund) {
      expect([row.status, row.pending_step]).toEqual(["Refunded", null]);
      expect(source.escrow(id)?.state).toBe("refunded");
      expect(row.refund_tx).not.toBeNull();
      expect(await dest.balanceOf(recipient.address, usdcDest)).toBe(0n);
    } else {
      expect([row.status, row.pending_step]).toEqual(["Fulfilled", null]);
      expect(source.escrow(id)?.state).toBe("claimed");
      expect(row.swap_tx).not.toBeNull();
      expect(await dest.balanceOf(recipient.address, usdcDest)).toBe(BigInt(row.max_dest_amount_lots!));
    }
    expect(source.supply(usdcSource)).toBe(supply);
    // Killed before the record: the step ran once, later. Killed during the call: the lock was taken again before the
    // call returned, so its finish went to the new connection (once). Killed during the finish: the step stayed
    // recorded and was called again (resumed), and the leg returned the transaction it had made.
    const calls = ((step === "deliver" ? dest : source).calls[step] ?? 0) - callsBefore;
    expect(calls).toBe(point === "finish" ? 2 : 1);
    await t.request("POST", "/sandbox/faults", { fail_delivery: false });
  }, 60_000);
});
