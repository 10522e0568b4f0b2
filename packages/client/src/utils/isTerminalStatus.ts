import type { IntentStatus } from "../types.js";

/** The states after which an intent never changes: Fulfilled, Declined, Expired, Refunded. */
export const terminalStatuses: readonly IntentStatus[] = ["Fulfilled", "Declined", "Expired", "Refunded"];

/** Parameters of {@link isTerminalStatus}. */
export interface IsTerminalStatusParameters {
  status: IntentStatus;
}

/** What {@link isTerminalStatus} returns. */
export type IsTerminalStatusReturnType = boolean;

/** The errors {@link isTerminalStatus} can throw. */
export type IsTerminalStatusErrorType = never;

/**
 * True for a terminal state (Fulfilled, Declined, Expired, Refunded); `"Unknown"` is not terminal.
 *
 * @example
 * if (isTerminalStatus({ status: record.status })) console.log("done:", record.status);
 */
export function isTerminalStatus({ status }: IsTerminalStatusParameters): IsTerminalStatusReturnType {
  return terminalStatuses.includes(status);
}
