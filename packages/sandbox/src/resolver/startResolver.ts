import type { IntentRow } from "../db/intentRow.js";
import { CLOSE_GRACE_MS } from "../net/closeGracefully.js";
import type { Core } from "../service/core.js";
import { advanceIntent } from "./advanceIntent.js";

/** A running resolver loop. */
export interface Resolver {
  /** One pass: the expiry sweep, then up to one batch of intents with work left; resolves when the pass is done. */
  runOnce(): Promise<void>;
  /**
   * Stop the loop and wait for the pass in progress, at most {@link CLOSE_GRACE_MS}: a step whose engine never
   * answers is left behind, as a crash would leave it (a recorded step is resumed at the next start). Idempotent.
   */
  stop(): Promise<void>;
}

/** Intents taken per pass (the pass's budget): the next pass starts at once when a batch was full. */
const BATCH = 200;
const PARALLEL = 8;
/** A pass starts no new intent after this long, ms (see {@link runOnePass}). */
export const PASS_BUDGET_MS = 1_000;

/** Expired quotes no intent used, deleted per pass at most (bounded work; the pass's budget for pruning). */
export const QUOTE_PRUNE_BATCH = 500;
/**
 * How long an expired quote is kept, ms: a late intent from it is still told QUOTE_EXPIRED (422) for this long;
 * after it the row is gone, and the quote's id alone still tells its partner QUOTE_EXPIRED (see `createQuoteIds`).
 */
export const QUOTE_KEEP_AFTER_EXPIRY_MS = 60_000;

/** Statuses in which the resolver (not the user) has the next move. */
const RESOLVER_STATUSES = new Set<IntentRow["status"]>([
  "ApprovalAdded",
  "Accepted",
  "UserDeposited",
  "RefundRquested",
]);

/** Most resolver work run in one turn of the event loop: this long, ms... */
const SLICE_MS = 5;
/** ...and at most this many steps started (a step that starts runs to its first real I/O, if any). */
const SLICE_STEPS = 4;

/**
 * Bounds the resolver's synchronous stretches: awaited before every step, it lets the step start while the turn's
 * slice ({@link SLICE_MS}, {@link SLICE_STEPS}) lasts, and otherwise waits for the next turn of the event loop (after
 * sockets and timers were served), where the first waiter opens a new slice. Test legs and in-process engines
 * (litesvm, bitcore's interpreter, PGlite) answer without any I/O, so without it a whole pass (up to BATCH intents
 * times `stepsPerPass` steps) would run as one stretch of microtasks while every request waits.
 */
function createTimeSlicer(): () => Promise<void> {
  let sliceStart = performance.now();
  let stepsStarted = 0;
  let nextTurn: Promise<void> | undefined;
  const waitForNextTurn = () => {
    nextTurn ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        nextTurn = undefined;
        sliceStart = performance.now();
        stepsStarted = 0;
        resolve();
      }),
    );
    return nextTurn;
  };
  return async () => {
    while (stepsStarted >= SLICE_STEPS || performance.now() - sliceStart >= SLICE_MS) await waitForNextTurn();
    stepsStarted++;
  };
}

const hasWork = (row: IntentRow) => row.pendingStep !== null || RESOLVER_STATUSES.has(row.status);

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Log an error that escaped {@link followIntent}; the intent counts as not moved and stuck. */
const logFailure =
  (core: Core) =>
  (error: unknown): Followed => {
    core.log(`resolver: ${describe(error)}`);
    return { moved: false, stuck: true };
  };

/** What following an intent needs from its resolver. */
interface FollowContext {
  core: Core;
  stepsPerPass: number;
  isStopped(): boolean;
  nextSlice(): Promise<void>;
}

/** What following an intent did: whether it took a step, and whether it still has work it could not do. */
interface Followed {
  moved: boolean;
  stuck: boolean;
}

/** Follow one intent through the steps that are ready; says whether it moved and whether it is stuck. */
async function followIntent(ctx: FollowContext, first: IntentRow): Promise<Followed> {
  const { core } = ctx;
  let row: IntentRow | undefined = first;
  let stuck = false;
  let moved = false;
  try {
    for (let steps = 0; row && steps < ctx.stepsPerPass && !ctx.isStopped(); steps++) {
      await ctx.nextSlice();
      if (ctx.isStopped()) break;
      // The row the database returned for the change: no re-read between steps.
      const next: IntentRow | undefined = await advanceIntent({ core, row });
      if (!next) {
        stuck = hasWork(row);
        break;
      }
      row = next;
      moved = true;
    }
  } catch (error) {
    stuck = true;
    core.log(`resolver: intent ${first.id}: ${describe(error)}`);
  }
  return { moved, stuck };
}

/** What a pass did: `more` when the next should start at once. */
interface PassOutcome {
  more: boolean;
}

const IDLE: PassOutcome = { more: false };

/**
 * One pass. `more` when it moved something and its batch was full or it was cut short (more work may be waiting):
 * a pass in which nothing moved (every intent stuck on an engine that stays down) waits the interval, as the next
 * pass would only retry the same intents (running it at once made the resolver spin while the engine was down).
 * No intent is started after `budgetMs` ({@link PASS_BUDGET_MS} in the background loop): the next pass reads the work
 * list again, so an approval made meanwhile does not wait behind a whole batch of intents stuck on a slow engine.
 */
async function runOnePass(follow: FollowContext, budgetMs: number): Promise<PassOutcome> {
  const { core, isStopped } = follow;
  const expired = await core.store.expireOverdue(core.clock.nowMs());
  if (expired > 0) core.log(`resolver: ${expired} intent(s) expired`);
  await core.store.pruneQuotes(core.clock.nowMs() - QUOTE_KEEP_AFTER_EXPIRY_MS, QUOTE_PRUNE_BATCH);
  const rows = await core.store.listWork(BATCH);
  const started = performance.now();
  let next = 0;
  let moved = false;
  const stuck: string[] = [];
  const worker = async () => {
    while (!isStopped() && next < rows.length && performance.now() - started < budgetMs) {
      const row = rows[next++]!;
      const followed = await followIntent(follow, row).catch(logFailure(core));
      if (followed.moved) moved = true;
      if (followed.stuck) stuck.push(row.id);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, rows.length) }, worker));
  const cut = !isStopped() && next < rows.length;
  const full = rows.length === BATCH;
  // The stuck intents go behind the others. When the whole work list was taken in this pass, only those stuck for the
  // first time are written (so they stay behind newer approvals once the list grows): the next pass takes them all
  // again whatever their order, and rewriting every stuck row every pass (a dead row version and an index entry each
  // on PGlite, which has no autovacuum) changed nothing.
  if (stuck.length > 0)
    await core.store.deferIntents({ ids: stuck, nowMs: core.clock.nowMs(), firstTimeOnly: !full && !cut });
  return { more: moved && (full || cut) };
}

/**
 * Start the background resolver: every `intervalMs` (after the previous pass ends, so passes never overlap;
 * at once when the previous pass had a full batch and moved something, or was cut short by its time budget) it runs
 * one pass ({@link runOnePass}):
 *
 * 1. the expiry sweep, one UPDATE: `Initiated` and `ApprovalAdded` intents past their deadline become `Expired`,
 *    however many there are, so abandoned intents never reach the work list; then at most
 *    {@link QUOTE_PRUNE_BATCH} quotes no intent used, expired {@link QUOTE_KEEP_AFTER_EXPIRY_MS} ago, are deleted
 *    (a client asking for quotes in a loop no longer grows the database without bound);
 * 2. up to {@link BATCH} intents the resolver can move (approved or with a recorded step; never `Initiated`),
 *    those not tried for longest first, {@link PARALLEL} at a time, each followed through up to `stepsPerPass`
 *    ready steps, starting none after {@link PASS_BUDGET_MS}. When the work list did not fit in the pass, the intents that could not be advanced (a leg error,
 *    a refused retry) are moved behind the others, so failing intents never hold back the rest of the queue; when
 *    it fitted, only those stuck for the first time are (the next pass takes them all again).
 */
export function startResolver({
  core,
  intervalMs,
  stepsPerPass = 8,
}: {
  core: Core;
  intervalMs: number;
  stepsPerPass?: number;
}): Resolver {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<PassOutcome> = Promise.resolve(IDLE);

  const follow: FollowContext = {
    core,
    stepsPerPass,
    isStopped: () => stopped,
    nextSlice: createTimeSlicer(),
  };

  const runPass = (budgetMs: number) => {
    const pass = () => runOnePass(follow, budgetMs);
    running = running.then(pass, pass).catch((error: unknown): PassOutcome => {
      core.log(`resolver pass failed: ${describe(error)}`);
      return IDLE;
    });
    return running;
  };

  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      void runPass(PASS_BUDGET_MS).then((outcome) => schedule(outcome.more ? 0 : intervalMs));
    }, delayMs);
  };
  schedule(intervalMs);

  return {
    runOnce: async () => {
      // Tests and tools that run one pass get its whole batch, as before the budget.
      await runPass(Number.POSITIVE_INFINITY);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      let grace: NodeJS.Timeout | undefined;
      const overdue = new Promise<boolean>((resolve) => {
        grace = setTimeout(() => resolve(true), CLOSE_GRACE_MS);
      });
      const left = await Promise.race([running.then(() => false), overdue]);
      clearTimeout(grace);
      if (left)
        core.log(
          `resolver: a pass still running after ${CLOSE_GRACE_MS} ms is left behind (a leg not answering)`,
        );
    },
  };
}
