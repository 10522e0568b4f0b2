import type { IntentStatus } from "../types.js";

/** The states after which an intent never changes: Fulfilled, Declined, Expired, Refunded. */
export const terminalStatuses: readonly IntentStatus[] = ["Fulfilled", "Declined", "Expired", "Refunded"];

/**
 * True for a terminal state (Fulfilled, Declined, Expired, Refunded); `"Unknown"` is not terminal.
 *
 * @example
 * if (isTerminalStatus({ status: record.status })) console.log("done:", record.status);
 */
export function isTerminalStatus({ status }: { status: IntentStatus }): boolean {
  return terminalStatuses.includes(status);
}
