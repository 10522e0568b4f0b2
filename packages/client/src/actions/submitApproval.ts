import type { BaseClient, CallOptions } from "../client/types.js";
import type { RequestError } from "../errors/codes.js";
import { assertNonEmptyString, assertPattern, assertUuid } from "../internal/assertInput.js";
import { invalidInput } from "../internal/invalidInput.js";
import { parseStatusOf } from "../internal/parseStatusOf.js";
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
export type SubmitApprovalErrorType = RequestError;

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
      // 65 bytes with v 27/28 (Permit2's ecrecover fails on any other), or a contract owner's ERC-1271 signature
      // (ERC-6492 wrapped before the account exists): whole bytes, 66 to 16384; whether it is valid is the signer's
      // and the service's check
      assertPattern(
        data,
        /^0x(?:[\da-f]{128}1[bc]|(?:[\da-f]{2}){66,16384})$/i,
        field,
        "must be a 65-byte (v 1b/1c) or contract signature as 0x hex",
      );
      signedData = data;
      break;
    case "psbt":
      // the magic `psbt\xff` is base64 `cHNidP8`; whole quads, so a cut or unpadded text is refused too
      assertPattern(data, /^(?=(.{4})+$)cHNidP8[A-Za-z\d+/]*={0,2}$/, field, "must be a base64 PSBT");
      signedData = data;
      break;
    case "cosign": {
      if (typeof data !== "object" || data === null)
        throw invalidInput(field, "must be `{ transaction, userAddress }`", data);
      const { transaction, userAddress } = data;
      const txField = `${field}.transaction`;
      const txReason = "must be a signed v0 transaction as hex";
      assertPattern(transaction, /^([\da-fA-F]{2})+$/, txField, txReason);
      // at most 1232 bytes (a packet); its signature count (a compact-u16: one byte below 128; a count above
      // fails here as no transaction of 1232 bytes holds 128 signatures), the signatures, the v0 prefix 0x80, then
      // the header's count of required signatures, which equals the signature count
      const count = transaction.slice(0, 2);
      const end = 2 + 128 * +`0x${count}`;
      if (end < 3 || transaction.length > 2464 || transaction.slice(end, end + 4) !== `80${count}`)
        throw invalidInput(txField, txReason, transaction);
      assertNonEmptyString(userAddress, `${field}.userAddress`);
      signedData = { transaction, user_address: userAddress };
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
    parse: (json) => (json === undefined ? null : parseStatusOf(parameters.intentId)(json)),
    signal: parameters.signal,
    timeoutMs: parameters.timeoutMs,
  });
}
