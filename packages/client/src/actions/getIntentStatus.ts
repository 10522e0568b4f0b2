import type { BaseClient, CallOptions } from "../client/types.js";
import { assertUuid } from "../internal/assertInput.js";
import { parseSwapStatus } from "../internal/wire.js";
import type { SwapStatus } from "../types.js";

/** Parameters of {@link getIntentStatus}. */
export interface GetIntentStatusParams extends CallOptions {
  intentId: string;
}

/**
 * Reads an intent's swap status record (`GET /affiliate/v1/intents/{id}/status`).
 * `status` is one of the known states or `"Unknown"` (then `rawStatus` holds what the service sent).
 *
 * @example
 * const { status, rawStatus } = await getIntentStatus(client, { intentId: intent.intentId });
 */
export async function getIntentStatus(
  client: BaseClient,
  params: GetIntentStatusParams,
): Promise<SwapStatus> {
  assertUuid(params.intentId, "intentId");
  return client.request({
    method: "GET",
    path: `/affiliate/v1/intents/${params.intentId}/status`,
    idempotent: true,
    parse: parseSwapStatus,
    signal: params.signal,
    timeoutMs: params.timeoutMs,
  });
}
