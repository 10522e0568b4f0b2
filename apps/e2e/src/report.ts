import type { Redactor } from "./redact.js";

/** One step of one route, as the demo reports it live. */
export interface ProgressEvent {
  route: string;
  step: string;
  /** Intent status when the step is a status change. */
  status?: string;
  elapsedMs: number;
  /** Transaction hashes known at this step, by stage. */
  txs?: Record<string, string | null>;
  /** Free text, for example the signer's summary in a dry run. */
  detail?: string[];
}

/** The outcome of one route. */
export interface RouteResult {
  route: string;
  from: string;
  to: string;
  amount: string;
  ok: boolean;
  /** Final intent status (`Fulfilled` on success), or the step that failed. */
  finalStatus: string;
  elapsedMs: number;
  intentId: string | null;
  approvalMechanism: string | null;
  sourceAmountLots: string | null;
  minDestAmountLots: string | null;
  intermediateToken: string | null;
  txs: Record<string, string | null>;
  /** Error code and message when the route failed. */
  error: { code: string; message: string } | null;
  /** What the user signed (or would sign, in a dry run), as the signer summarised it. */
  summary: string[];
  /** Status values in the order they were seen. */
  statuses: string[];
  /** Quotes that expired before use and were refreshed. */
  quoteRefreshes: number;
}

/**
 * A route's result before any step has run: not ok, nothing known yet. `finalStatus` and `error` say where it stands.
 */
export function createRouteResult(
  fields: Pick<RouteResult, "route" | "from" | "to" | "amount" | "finalStatus" | "error">,
): RouteResult {
  return {
    ...fields,
    ok: false,
    elapsedMs: 0,
    intentId: null,
    approvalMechanism: null,
    sourceAmountLots: null,
    minDestAmountLots: null,
    intermediateToken: null,
    txs: {},
    summary: [],
    statuses: [],
    quoteRefreshes: 0,
  };
}

/** Writes live progress and the final summary, as text or as one JSON document. */
export class Reporter {
  readonly #json: boolean;
  readonly #redactor: Redactor;
  readonly #out: (line: string) => void;

  constructor(options: { json: boolean; redactor: Redactor; out?: (line: string) => void }) {
    this.#json = options.json;
    this.#redactor = options.redactor;
    this.#out = options.out ?? ((line) => process.stdout.write(`${line}\n`));
  }

  /** Reports one progress event (text mode only; JSON mode prints only the final document). */
  progress(event: ProgressEvent): void {
    if (this.#json) return;
    const secs = (event.elapsedMs / 1000).toFixed(2).padStart(6);
    const status = event.status ? ` [${event.status}]` : "";
    const txs = Object.entries(event.txs ?? {})
      .filter(([, v]) => v)
      .map(([k, v]) => `${k}=${shorten(v as string)}`)
      .join(" ");
    this.#print(`${event.route.padEnd(22)} ${secs}s  ${event.step}${status}${txs ? `  ${txs}` : ""}`);
    for (const line of event.detail ?? []) this.#print(`${"".padEnd(22)}          ${line}`);
  }

  /** Prints the summary table (text) or the whole result document (JSON). */
  summary(results: RouteResult[], totalMs: number): void {
    if (this.#json) {
      const doc = { ok: results.every((r) => r.ok), totalMs, routes: results };
      this.#print(JSON.stringify(doc, null, 2));
      return;
    }
    const rows = results.map((r) => [
      r.route,
      r.ok ? "ok" : "FAILED",
      r.finalStatus,
      `${(r.elapsedMs / 1000).toFixed(2)}s`,
      shorten(r.txs.user_deposit_tx ?? "-"),
      shorten(r.txs.fulfill_tx ?? "-"),
      r.error ? `${r.error.code}: ${firstLine(r.error.message)}` : "",
    ]);
    const header = ["route", "result", "status", "time", "deposit tx", "fulfil tx", "error"];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
    const line = (cells: string[]) =>
      cells
        .map((c, i) => c.padEnd(widths[i] ?? 0))
        .join("  ")
        .trimEnd();
    this.#print("");
    this.#print(line(header));
    this.#print(line(widths.map((w) => "-".repeat(w))));
    for (const row of rows) this.#print(line(row));
    const failed = results.filter((r) => !r.ok).length;
    this.#print("");
    this.#print(
      `${results.length - failed} of ${results.length} routes fulfilled in ${(totalMs / 1000).toFixed(2)}s${
        failed ? `; ${failed} failed` : ""
      }`,
    );
  }

  /** Prints a plain line (redacted). */
  note(text: string): void {
    if (!this.#json) this.#print(text);
  }

  #print(text: string): void {
    this.#out(this.#redactor.redact(text));
  }
}

function firstLine(text: string): string {
  const line = text.split("\n")[0] ?? "";
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

function shorten(value: string): string {
  return value.length > 20 ? `${value.slice(0, 10)}…${value.slice(-6)}` : value;
}
