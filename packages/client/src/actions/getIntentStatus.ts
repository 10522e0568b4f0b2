import type { BaseClient, CallOptions } from "../client/types.js";
import type { RequestError } from "../errors/codes.js";
import { assertUuid } from "../internal/assertInput.js";
import { parseStatusOf } from "../internal/parseStatusOf.js";
import type { SwapStatus } from "../types.js";

/** Parameters of {@link getIntentStatus}. */
export interface GetIntentStatusParameters extends CallOptions {
  intentId: string;
}

/** What {@link getIntentStatus} returns (awaited). */
export type GetIntentStatusReturnType = SwapStatus;

/** The errors {@link getIntentStatus} can throw. */
export type GetIntentStatusErrorType = RequestError;

/**
 * Reads an intent's swap status record (`GET /affiliate/v1/intents/{id}/status`).
 * `status` is one of the known states or `"Unknown"` (then `rawStatus` holds what the service sent).
 *
 * @example
 * const { status, rawStatus } = await getIntentStatus(client, { intentId: intent.intentId });
 */
export async function getIntentStatus(
  client: BaseClient,
  parameters: GetIntentStatusParameters,
): Promise<GetIntentStatusReturnType> {
  assertUuid(parameters.intentId, "intentId");
  return client.request({
    method: "GET",
    path: `/affiliate/v1/intents/${parameters.intentId}/status`,
    idempotent: true,
    parse: parseStatusOf(parameters.intentId),
    signal: parameters.signal,
    timeoutMs: parameters.timeoutMs,
  });
}
