import { LegRejection } from "../legs/types.js";
import { createServiceError, type ErrorEntity } from "./serviceError.js";

/**
 * Runs a call into a chain leg. A `LegRejection` becomes a `rejected` service error (HTTP 422) carrying the leg's code and reason
 * under `entity` (the request changes no state); any other error passes through unchanged.
 *
 * @example const { legData } = await callLeg({ entity: "Approval", call: () => leg.verifyApproval(intent, data, approval) });
 */
export async function callLeg<T>({
  entity,
  call,
}: {
  entity: ErrorEntity;
  call: () => Promise<T>;
}): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof LegRejection)
      throw createServiceError({
        kind: "rejected",
        code: error.code,
        message: error.reason,
        entity,
        cause: error,
      });
    throw error;
  }
}
