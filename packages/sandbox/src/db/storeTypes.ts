/** The store's types, apart from the function that composes the store (so the query files need not import it). */
import type { Json } from "../legs/types.js";
import type { IntentRow, IntentStatusName, StatusRow } from "./intentRow.js";

/** A stored quote. */
export interface QuoteRecord {
  id: string;
  wire: Record<string, Json>;
  expiryMs: number;
  retailUserId: string | null;
  usedByIntent: string | null;
  /** The partner that asked for it (null for quotes stored before partner scoping). */
  partnerId: string | null;
}

/** Filters of the swap history. */
export interface HistoryQuery {
  /** Lower-cased wallet addresses; an intent matches when its source or destination address is one of them. */
  wallets: string[] | undefined;
  retailId: string | undefined;
  /** Only this partner's intents (and those stored before partner scoping). */
  partnerId: string;
  activeOnly: boolean;
  limit: number;
  offset: number;
}

/** The outcome of a compare-and-set update. */
export type UpdateResult = { updated: true; row: IntentRow } | { updated: false };

/** Every database access of the sandbox. Each method is one statement or one transaction. */
export interface Store {
  /** The sandbox master seed: generated on first start, then read back. Never log it. */
  loadMasterSeed(): Promise<Uint8Array>;
  /** The dev clock's offset (ms) over the base clock, kept across restarts. */
  loadClockOffsetMs(): Promise<number>;
  saveClockOffsetMs(offsetMs: number): Promise<void>;
  insertQuote(quote: QuoteRecord & { createdAtMs: number }): Promise<void>;
  /** A quote of `partnerId` (or one stored before partner scoping); undefined for anyone else's, as for an unknown id. */
  getQuote(id: string, partnerId: string): Promise<QuoteRecord | undefined>;
  /**
   * In one transaction: mark the quote used by this intent (only if no intent used it yet) and insert the intent,
   * owned by `partnerId`. Returns false, changing nothing, when another intent already used the quote.
   */
  insertIntentFromQuote(row: IntentRow, owner: { partnerId: string }): Promise<boolean>;
  /**
   * An intent by id. With `partnerId`, only that partner's (or one stored before partner scoping): the HTTP layer
   * always passes it; the resolver and the dev endpoints, which act for the operator, do not.
   */
  getIntent(id: string, partnerId?: string): Promise<IntentRow | undefined>;
  /**
   * What the status endpoint shows of `partnerId`'s intent (never the secret); undefined for anyone else's.
   * Served from a write-through cache: this store is the database's only writer and refreshes the cache with every
   * row it writes (a row's partner never changes, so the cache answers the scoping question too).
   */
  getStatus(id: string, partnerId: string): Promise<StatusRow | undefined>;
  /** Set `changes` on the intent if its status is still `expectedStatus` (and, when given, its pending step matches). */
  updateIntent(request: {
    id: string;
    expectedStatus: IntentStatusName;
    expectedPendingStep?: IntentRow["pendingStep"];
    changes: Partial<IntentRow>;
  }): Promise<UpdateResult>;
  /**
   * At most `limit` intents the resolver can move: a recorded pending step, or approved and not terminal
   * (`Initiated` intents wait for their user and are left to {@link Store.expireOverdue}). Those not tried
   * for longest come first (see {@link Store.deferIntents}); among those, a recorded step (funds in flight, e.g.
   * after a crash) before the rest; then the oldest.
   */
  listWork(limit: number): Promise<IntentRow[]>;
  /**
   * One statement: every `Initiated` or `ApprovalAdded` intent (no pending step) whose deadline is before
   * `nowMs` becomes `Expired`. Returns how many did.
   */
  expireOverdue(nowMs: number): Promise<number>;
  /**
   * Delete at most `limit` quotes that no intent used and whose expiry is before `beforeMs` (the oldest first; one
   * statement). A quote an intent references is never deleted. Returns how many were.
   */
  pruneQuotes(beforeMs: number, limit: number): Promise<number>;
  /**
   * Move intents the resolver could not advance behind the others in {@link Store.listWork}'s order (one statement);
   * with `firstTimeOnly`, only those never deferred before (the others are not written at all).
   */
  deferIntents(request: { ids: readonly string[]; nowMs: number; firstTimeOnly?: boolean }): Promise<void>;
  /**
   * Record this store's engines as the holders of every intent stored before engine identities were (one
   * statement); returns how many. Nothing without `enginesId`.
   */
  adoptUnrecordedIntents(): Promise<number>;
  /**
   * Intents the resolver would move but whose funds are on other engines (another data dir), by engines; the work
   * list leaves them out. Empty without `enginesId`.
   */
  listForeignWork(): Promise<{ enginesId: string | null; intents: number }[]>;
  listHistory(query: HistoryQuery): Promise<{ rows: StatusRow[]; total: number }>;
  /**
   * True when no other process can write this database (PGlite in this process). False on a shared server: there the
   * resolver confirms a recorded step with a write (on the lock's connection) before it calls a leg again, so a
   * sandbox that lost the lock, or holds a row another sandbox changed since, never calls the leg.
   */
  readonly exclusive: boolean;
}

/** Who may resolve: the resolver lock of a shared database (see `acquireResolverLock`). */
export interface ResolverGate {
  /** False while another sandbox may hold the database's resolver lock: the work list is empty then. */
  held(): boolean;
  /** Changes when the lock was lost and taken again: the status cache is dropped then. */
  generation(): number;
  /** True when no other process can write the database (PGlite); a server's lock is not (see {@link Store.exclusive}). */
  readonly exclusive?: boolean;
  /**
   * Run `reload` each time the lock is taken again, before this sandbox writes or resolves again: what it holds in
   * memory from the database (the dev clock's offset, the engines check) is read again, since another sandbox may
   * have written in between. A lock that is never lost (PGlite) leaves it out.
   */
  onRetaken?(reload: () => Promise<void>): void;
}

/** The gate of a database only this process uses (PGlite): always held. */
export const EXCLUSIVE_GATE: ResolverGate = { held: () => true, generation: () => 1, exclusive: true };
