import type { IntentRow, PendingStep } from "../db/intentRow.js";
import { LegRejection } from "../legs/types.js";
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
 * A `LegRejection` is final for deposit and deliver (the intent goes to RefundRquested); any other error is
 * transient and the step is retried on the next pass.
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
  const deadlinePassed = now > row.deadlineSecs * 1000;
  const intent = toLegIntent(row);
  const describe = (error: unknown) => describeError(error, row.secret);

  const cas = async (expectedPendingStep: PendingStep | null, changes: Partial<IntentRow>) => {
    const result = await core.store.updateIntent({
      id: row.id,
      expectedStatus: row.status,
      expectedPendingStep,
      changes: { ...changes, updatedAtMs: core.clock.nowMs() },
    });
    if (result.updated) stored(result.row);
    return result.updated;
  };

  const runStep = async <T>(
    step: PendingStep,
    call: () => Promise<T>,
    done: (result: T) => Partial<IntentRow>,
    refused?: () => Partial<IntentRow>,
  ): Promise<boolean> => {
    if (row.pendingStep !== step && !(await cas(null, { pendingStep: step }))) return false;
    let result: T;
    try {
      result = await call();
    } catch (error) {
      if (error instanceof LegRejection && refused) {
        core.log(`intent ${row.id}: ${step} refused (${describe(error)})`);
        return cas(step, { pendingStep: null, lastError: `${step}: ${describe(error)}`, ...refused() });
      }
      core.log(`intent ${row.id}: ${step} failed, will retry (${describe(error)})`);
      await cas(step, { lastError: `${step}: ${describe(error)}` });
      return false;
    }
    // A success clears this step's own retry errors and keeps the reason for the status (e.g. why a refund).
    const lastError = row.lastError?.startsWith(`${step}:`) ? null : row.lastError;
    return cas(step, { pendingStep: null, lastError, ...done(result) });
  };

  const step = row.pendingStep;
  if (step !== null && STATUS_OF_STEP[step] !== row.status) {
    core.log(`intent ${row.id}: pending step ${step} does not fit status ${row.status}; cleared`);
    return cas(step, { pendingStep: null });
  }

  switch (row.status) {
    case "Initiated":
      return deadlinePassed ? cas(null, { status: "Expired" }) : false;

    case "ApprovalAdded": {
      if (deadlinePassed) return cas(null, { status: "Expired" });
      if (core.faults.decline_all)
        return cas(null, { status: "Declined", lastError: "declined by the decline_all fault" });
      let inventory: bigint;
      try {
        inventory = await dest.inventory(row.destToken);
      } catch (error) {
        core.log(`intent ${row.id}: inventory check failed, will retry (${describe(error)})`);
        return false;
      }
      if (inventory < BigInt(row.maxDestAmountLots))
        return cas(null, {
          status: "Declined",
          lastError: "the resolver's inventory is below the destination amount",
        });
      return cas(null, { status: "Accepted" });
    }

    case "Accepted":
      if (step === null && deadlinePassed)
        return cas(null, { status: "RefundRquested", lastError: "the deadline passed before the deposit" });
      return runStep(
        "deposit",
        () => source.deposit(intent, row.legData),
        ({ txHash, legData }) => ({
          status: "UserDeposited",
          userDepositTx: txHash,
          userDepositedAtMs: core.clock.nowMs(),
          legData,
        }),
        () => ({ status: "RefundRquested" }),
      );

    case "UserDeposited": {
      if (step === null && (core.faults.fail_delivery || deadlinePassed)) {
        const reason = core.faults.fail_delivery
          ? "delivery failed (fail_delivery fault)"
          : "the deadline passed before delivery";
        return cas(null, { status: "RefundRquested", lastError: reason });
      }
      const amountLots = BigInt(row.maxDestAmountLots);
      return runStep(
        "deliver",
        () =>
          dest.deliver({
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

    case "Fulfilled":
      if (step !== "claim") return false;
      return runStep(
        "claim",
        () => source.claim(intent, row.legData, Uint8Array.from(Buffer.from(row.secret, "hex"))),
        ({ txHash }) => ({ swapTx: txHash, swappedAtMs: core.clock.nowMs() }),
        () => ({}),
      );

    case "RefundRquested":
      if (step === null && row.userDepositTx === null) {
        // Nothing was taken from the user: the refund is complete without a transaction.
        return cas(null, { status: "Refunded", refundedAtMs: now });
      }
      return runStep(
        "refund",
        () => source.refund(intent, row.legData),
        ({ txHash }) => ({ status: "Refunded", refundTx: txHash, refundedAtMs: core.clock.nowMs() }),
      );

    default:
      return false;
  }
}
