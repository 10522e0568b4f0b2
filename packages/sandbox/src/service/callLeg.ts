import { createApiError, type ErrorEntity } from "../http/apiError.js";
import { LegRejection } from "../legs/types.js";

/**
 * Runs a call into a chain leg. A `LegRejection` becomes a 422 API error carrying the leg's code and reason
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
      throw createApiError({ status: 422, code: error.code, message: error.reason, entity, cause: error });
    throw error;
  }
}
