import type { Json, SubmittedApproval } from "../legs/types.js";
import { callLeg } from "./callLeg.js";
import type { ServiceCall } from "./core.js";
import { createIntentNotFoundError, createRejectedError, createServiceError } from "./serviceError.js";
import { toLegIntent } from "./toLegIntent.js";
import { toStatusRecord } from "./toStatusRecord.js";

/** An approval as submitted (design §2), with `htlc` already mapped to `psbt`. */
export interface ApprovalRequest {
  intentId: string;
  type: SubmittedApproval["type"];
  signedData: Json;
  /** The partner asking: another partner's intent is "not found", as an unknown id is. */
  partnerId: string;
}

const MECHANISM_OF_TYPE: Record<SubmittedApproval["type"], string> = {
  permit2: "permit2",
  psbt: "htlc",
  cosign: "cosign",
};

/**
 * Add the user's approval to an `Initiated` intent: the source leg checks it on its engine (a `LegRejection`
 * becomes a 422 naming its reason, with no state change); on success the intent moves to `ApprovalAdded`
 * with the leg's data, and the swap status record is returned.
 */
export async function addApproval({
  core,
  request,
}: ServiceCall<ApprovalRequest>): Promise<Record<string, Json>> {
  const row = await core.store.getIntent(request.intentId, request.partnerId);
  if (!row) throw createIntentNotFoundError();
  const invalidState = (status: string) =>
    createRejectedError(
      "INVALID_STATE",
      `An approval can only be added to an Initiated intent; this one is ${status}.`,
      "Intent",
    );
  if (row.status !== "Initiated") throw invalidState(row.status);
  if (MECHANISM_OF_TYPE[request.type] !== row.approvalMechanism)
    throw createRejectedError(
      "APPROVAL_TYPE_MISMATCH",
      `This intent takes a ${row.approvalMechanism} approval, not ${request.type}.`,
      "Approval",
    );
  if (core.clock.nowMs() > row.deadlineSecs * 1000)
    throw createRejectedError("INTENT_EXPIRED", "The intent's deadline has passed.", "Intent");
  // Its deposit would be checked and made on engines that are not the intent's (another data dir's).
  if (row.enginesId !== null && row.enginesId !== core.enginesId)
    throw createServiceError({
      kind: "unavailable",
      code: "ENGINES_UNAVAILABLE",
      message:
        "This intent's funds are on engines this sandbox does not run (another data dir); the sandbox started on that data dir accepts its approval.",
      entity: "Intent",
    });
  const leg = core.legs.get(row.sourceChain);
  if (!leg) throw createRejectedError("NETWORK_UNAVAILABLE", "The source network is not served.", "Network");

  const { legData } = await callLeg({
    entity: "Approval",
    call: () =>
      leg.verifyApproval(toLegIntent(row), row.legData, {
        type: request.type,
        signedData: request.signedData,
      }),
  });
  const result = await core.store.updateIntent({
    id: row.id,
    expectedStatus: "Initiated",
    changes: { status: "ApprovalAdded", legData, updatedAtMs: core.clock.nowMs() },
  });
  if (!result.updated) {
    const now = await core.store.getIntent(row.id);
    throw invalidState(now?.status ?? "unknown");
  }
  return toStatusRecord(result.row);
}
