import type { IntentRow, PendingStep } from "../db/intentRow.js";
import { type ChainLeg, LEG_ABSENCE_CODES, type LegIntent, LegRejection } from "../legs/types.js";
import type { Core } from "../service/core.js";
import { toLegIntent } from "../service/toLegIntent.js";

/** The status an intent is in while each step runs. */
const STATUS_OF_STEP: Record<PendingStep, IntentRow["status"]> = {
  deposit: "Accepted",
  deliver: "UserDeposited",
  claim: "Fulfilled",
  refund: "RefundRquested",
};

const MAX_ERROR_TEXT = 400;

/**
 * An error as text for the log and `last_error`: at most {@link MAX_ERROR_TEXT} characters, with the intent's secret
 * removed (an engine's error for the claim call may quote its arguments).
 */
function describeError(error: unknown, secretHex: string): string {
  const text =
    error instanceof LegRejection
      ? `${error.code}: ${error.reason}`
      : error instanceof Error
        ? error.message
        : String(error);
  return text.replace(new RegExp(secretHex, "gi"), "[secret]").slice(0, MAX_ERROR_TEXT);
}

/**
 * Move one intent one step along design §2's transitions. Every state change is one conditional UPDATE
 * (compare-and-set on status and pending step), so a concurrent writer or a replayed step never applies twice.
 *
 * Leg calls that move funds (deposit, deliver, claim, refund) are write-ahead: the step is recorded in
 * `pending_step` before the leg is called, and its result is stored in the same statement that sets the next
 * status and clears the step. After a crash a recorded step is called again first, whatever the faults or the
 * clock say, and the leg (idempotent by intent id) returns the transaction it already made instead of paying twice.
 * A `LegRejection` is final for deposit and deliver (the intent goes to RefundRquested), except `LEG_NOT_STARTED`
 * and the "not on this engine" codes (`LEG_ABSENCE_CODES`), which never end a step (a claim refused as
 * `NOT_DEPOSITED` stays recorded); any other error is transient and the step is retried on the next pass. A `LEG_NOT_STARTED` on a step's first call
 * (the leg did nothing) drops the step again, so the deadline still ends the intent while the leg stays down.
 *
 * Returns the intent as stored after the change (the row the database returned), or undefined when it did not change.
 */
export async function advanceIntent({
  core,
  row,
}: {
  core: Core;
  row: IntentRow;
}): Promise<IntentRow | undefined> {
  let latest: IntentRow | undefined;
  const changed = await advanceOnce({ core, row, stored: (next) => (latest = next) });
  return changed ? latest : undefined;
}

/** What every transition of one intent works with. */
interface Step {
  core: Core;
  row: IntentRow;
  source: ChainLeg;
  dest: ChainLeg;
  intent: LegIntent;
  now: number;
  deadlinePassed: boolean;
  /** The error as text for the log and `last_error`, the intent's secret removed. */
  describe(error: unknown): string;
  /** Compare-and-set on the row's status and `expectedPendingStep`; true when the change was stored. */
  cas(expectedPendingStep: PendingStep | null, changes: Partial<IntentRow>): Promise<boolean>;
}

/**
 * Run a write-ahead leg call: record `step` as pending (unless it already is), call the leg, and store `done`'s
 * changes with the step cleared. A `LegRejection` stores `refused`'s changes when given (final); any other error
 * is kept in `last_error` and the step stays recorded for the next pass.
 */
async function runStep<T>(
  s: Step,
  step: PendingStep,
  call: () => Promise<T>,
  done: (result: T) => Partial<IntentRow>,
  refused?: () => Partial<IntentRow>,
): Promise<boolean> {
  const { core, row } = s;
  // Record the step; a step recorded before (a crash, a retry, the claim after a delivery) is confirmed instead on a
  // shared database: a write on the lock's connection that still finds the row as read. So no leg is called by a
  // sandbox that lost the lock, or on a row another sandbox changed since it was read.
  const firstCall = row.pendingStep !== step;
  if (firstCall) {
    if (!(await s.cas(null, { pendingStep: step }))) return false;
  } else if (!core.store.exclusive && !(await s.cas(step, {}))) return false;
  let result: T;
  try {
    result = await call();
  } catch (error) {
    const notStarted = error instanceof LegRejection && error.code === "LEG_NOT_STARTED";
    // LEG_NOT_STARTED says the leg is not running, and an absence code that the engine lacks what the step needs:
    // nothing about the intent. Retried, never final.
    const notHere = error instanceof LegRejection && LEG_ABSENCE_CODES.includes(error.code);
    if (error instanceof LegRejection && !notStarted && !notHere && refused) {
      core.log(`intent ${row.id}: ${step} refused (${s.describe(error)})`);
      return s.cas(step, { pendingStep: null, lastError: `${step}: ${s.describe(error)}`, ...refused() });
    }
    // A leg that is not running did nothing, and no earlier call of this step is unfinished (it was not recorded):
    // the step is dropped again, so the next pass applies the deadline and the faults as if it never started. A step
    // recorded before stays recorded (an earlier call may have moved funds) and is resumed whatever the clock says.
    const dropStep = notStarted && firstCall;
    // An engine that stays down fails the same way every pass: only a new error is logged and stored.
    const lastError = `${step}: ${s.describe(error)}`;
    if (lastError !== row.lastError)
      core.log(`intent ${row.id}: ${step} failed, will retry (${s.describe(error)})`);
    if (lastError !== row.lastError || dropStep)
      await s.cas(step, { lastError, ...(dropStep ? { pendingStep: null } : {}) });
    return false;
  }
  // A success clears this step's own retry errors and keeps the reason for the status (e.g. why a refund).
  const lastError = row.lastError?.startsWith(`${step}:`) ? null : row.lastError;
  return s.cas(step, { pendingStep: null, lastError, ...done(result) });
}

/** ApprovalAdded: expire, decline (fault, or the resolver's inventory is short) or accept. */
async function fromApprovalAdded(s: Step): Promise<boolean> {
  const { core, row } = s;
  if (s.deadlinePassed) return s.cas(null, { status: "Expired" });
  if (core.faults.decline_all)
    return s.cas(null, { status: "Declined", lastError: "declined by the decline_all fault" });
  let inventory: bigint;
  try {
    inventory = await s.dest.inventory(row.destToken);
  } catch (error) {
    // An engine that stays down fails the same way every pass: only a new error is logged and stored (as in runStep).
    const lastError = `inventory: ${s.describe(error)}`;
    if (lastError === row.lastError) return false;
    core.log(`intent ${row.id}: inventory check failed, will retry (${s.describe(error)})`);
    await s.cas(null, { lastError });
    return false;
  }
  if (inventory < BigInt(row.maxDestAmountLots))
    return s.cas(null, {
      status: "Declined",
      lastError: "the resolver's inventory is below the destination amount",
    });
  // The check's own retry error is cleared once it passes.
  return s.cas(null, {
    status: "Accepted",
    ...(row.lastError?.startsWith("inventory:") ? { lastError: null } : {}),
  });
}

/** Accepted: take the user's deposit into escrow (a refusal asks for a refund); past the deadline, refund. */
function fromAccepted(s: Step): Promise<boolean> {
  const { core, row } = s;
  if (row.pendingStep === null && s.deadlinePassed)
    return s.cas(null, { status: "RefundRquested", lastError: "the deadline passed before the deposit" });
  return runStep(
    s,
    "deposit",
    () => s.source.deposit(s.intent, row.legData),
    ({ txHash, legData }) => ({
      status: "UserDeposited",
      userDepositTx: txHash,
      userDepositedAtMs: core.clock.nowMs(),
      legData,
    }),
    () => ({ status: "RefundRquested" }),
  );
}

/** UserDeposited: deliver to the user on the destination, then claim next; a failed delivery asks for a refund. */
function fromUserDeposited(s: Step): Promise<boolean> {
  const { core, row } = s;
  if (row.pendingStep === null && (core.faults.fail_delivery || s.deadlinePassed)) {
    const reason = core.faults.fail_delivery
      ? "delivery failed (fail_delivery fault)"
      : "the deadline passed before delivery";
    return s.cas(null, { status: "RefundRquested", lastError: reason });
  }
  const amountLots = BigInt(row.maxDestAmountLots);
  return runStep(
    s,
    "deliver",
    () =>
      s.dest.deliver({
        intentId: row.id,
        token: row.destToken,
        recipient: row.userDestinationAddress,
        amountLots,
      }),
    ({ txHash }) => ({
      status: "Fulfilled",
      fulfillTx: txHash,
      fulfilledAtMs: core.clock.nowMs(),
      deliveredAmountLots: amountLots.toString(),
      // The resolver is paid next: claim the escrow with the secret.
      pendingStep: "claim",
    }),
    () => ({ status: "RefundRquested" }),
  );
}

/** Fulfilled with the claim recorded: claim the escrow with the secret. */
function fromFulfilled(s: Step): Promise<boolean> {
  const { core, row } = s;
  if (row.pendingStep !== "claim") return Promise.resolve(false);
  return runStep(
    s,
    "claim",
    () => s.source.claim(s.intent, row.legData, Uint8Array.from(Buffer.from(row.secret, "hex"))),
    ({ txHash }) => ({ swapTx: txHash, swappedAtMs: core.clock.nowMs() }),
    () => ({}),
  );
}

/** RefundRquested: refund the escrow; with nothing deposited the refund is complete without a transaction. */
function fromRefundRequested(s: Step): Promise<boolean> {
  const { core, row } = s;
  if (row.pendingStep === null && row.userDepositTx === null)
    return s.cas(null, { status: "Refunded", refundedAtMs: s.now });
  return runStep(
    s,
    "refund",
    () => s.source.refund(s.intent, row.legData),
    ({ txHash }) => ({ status: "Refunded", refundTx: txHash, refundedAtMs: core.clock.nowMs() }),
  );
}

/** The transition out of each status the resolver moves; the other statuses wait for the user or are final. */
const ADVANCE_FROM: Partial<Record<IntentRow["status"], (s: Step) => Promise<boolean>>> = {
  Initiated: (s) => (s.deadlinePassed ? s.cas(null, { status: "Expired" }) : Promise.resolve(false)),
  ApprovalAdded: fromApprovalAdded,
  Accepted: fromAccepted,
  UserDeposited: fromUserDeposited,
  Fulfilled: fromFulfilled,
  RefundRquested: fromRefundRequested,
};

async function advanceOnce({
  core,
  row,
  stored,
}: {
  core: Core;
  row: IntentRow;
  stored: (row: IntentRow) => void;
}): Promise<boolean> {
  const source = core.legs.get(row.sourceChain);
  const dest = core.legs.get(row.destChain);
  if (!source || !dest) return false;
  const now = core.clock.nowMs();
  const s: Step = {
    core,
    row,
    source,
    dest,
    intent: toLegIntent(row),
    now,
    deadlinePassed: now > row.deadlineSecs * 1000,
    describe: (error) => describeError(error, row.secret),
    async cas(expectedPendingStep, changes) {
      const result = await core.store.updateIntent({
        id: row.id,
        expectedStatus: row.status,
        expectedPendingStep,
        changes: { ...changes, updatedAtMs: core.clock.nowMs() },
      });
      if (result.updated) stored(result.row);
      return result.updated;
    },
  };
  const step = row.pendingStep;
  if (step !== null && STATUS_OF_STEP[step] !== row.status) {
    core.log(`intent ${row.id}: pending step ${step} does not fit status ${row.status}; cleared`);
    return s.cas(step, { pendingStep: null });
  }
  const advance = ADVANCE_FROM[row.status];
  return advance ? advance(s) : false;
}
