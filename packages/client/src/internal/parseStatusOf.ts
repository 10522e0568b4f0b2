import { clientError } from "../errors/codes.js";
import type { SwapStatus } from "../types.js";
import { parseSwapStatus } from "./wire.js";

/**
 * The parser of `intentId`'s status record: `RESPONSE_INVALID` at `intent_id` when the service answered about
 * another intent (a mix-up must never read as this intent's progress). UUIDs compare in any letter case.
 */
export function parseStatusOf(intentId: string): (json: unknown) => SwapStatus {
  return (json) => {
    const status = parseSwapStatus(json);
    if (status.intentId.toLowerCase() !== intentId.toLowerCase())
      throw clientError("RESPONSE_INVALID", {
        issues: [{ path: "intent_id", message: "is another intent's" }],
      });
    return status;
  };
}
