import type { BaseClient, CallOptions } from "../client/types.js";
import type { ClientError } from "../errors/codes.js";
import { assertNonEmptyString, assertPattern, assertUuid } from "../internal/assertInput.js";
import { invalidInput } from "../internal/invalidInput.js";
import { parseSwapStatus } from "../internal/wire.js";
import type { Approval, SwapStatus } from "../types.js";

/** Parameters of {@link submitApproval}. */
export interface SubmitApprovalParameters extends CallOptions {
  intentId: string;
  /** What the user signed: a permit2 signature, a signed PSBT, or a cosigned Solana transaction. */
  approval: Approval;
}

/** What {@link submitApproval} returns (awaited). */
export type SubmitApprovalReturnType = SwapStatus | null;

/** The errors {@link submitApproval} can throw. */
export type SubmitApprovalErrorType = ClientError;

/**
 * Submits the user's signed approval (`POST /affiliate/v1/intents/{id}/approvals`, body `{type, signed_data}`;
 * cosign `signed_data` is `{transaction, user_address}`). Returns the swap status record, or `null` when the
 * service answers 200 with an empty body.
 *
 * Never retried: if the call fails with `TIMEOUT`, `NETWORK_ERROR` or a 5xx, the approval may have arrived. Read
 * `getIntentStatus({ intentId })` first: `ApprovalAdded` or any later state means it was accepted (do not submit
 * again); `Initiated` means it was not, and submitting the same signature again is safe before `deadlineSecs`.
 *
 * @example
 * const status = await submitApproval(client, { intentId: intent.intentId, approval: { type: "permit2", signedData: signature } });
 */
export async function submitApproval(
  client: BaseClient,
  parameters: SubmitApprovalParameters,
): Promise<SubmitApprovalReturnType> {
  assertUuid(parameters.intentId, "intentId");
  const approval = parameters.approval;
  let signedData: unknown;
  const data = approval?.signedData;
  const field = "approval.signedData";
  switch (approval?.type) {
    case "permit2":
      assertPattern(data, /^0x[0-9a-fA-F]{130}$/, field, "must be a 65-byte signature as 0x hex");
      signedData = data;
      break;
    case "psbt":
      assertPattern(data, /^[A-Za-z0-9+/]+={0,2}$/, field, "must be a base64 PSBT");
      signedData = data;
      break;
    case "cosign": {
      if (typeof data !== "object" || data === null)
        throw invalidInput(field, "must be `{ transaction, userAddress }`", data);
      assertPattern(data.transaction, /^([0-9a-fA-F]{2})+$/, `${field}.transaction`, "must be hex");
      assertNonEmptyString(data.userAddress, `${field}.userAddress`);
      signedData = { transaction: data.transaction, user_address: data.userAddress };
      break;
    }
    default:
      throw invalidInput(
        "approval.type",
        "must be `permit2`, `psbt` or `cosign`",
        (approval as { type?: unknown })?.type,
      );
  }
  return client.request({
    method: "POST",
    path: `/affiliate/v1/intents/${parameters.intentId}/approvals`,
    body: { type: approval.type, signed_data: signedData },
    idempotent: false,
    allowEmptyBody: true,
    parse: (json) => (json === undefined ? null : parseSwapStatus(json)),
    signal: parameters.signal,
    timeoutMs: parameters.timeoutMs,
  });
}
