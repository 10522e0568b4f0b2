import type { VerifyPermit2ApprovalParameters } from "../src/types.js";

/** The intent's `params_to_sign.additional_data`, as mutable JSON. */
export function additionalOf(parameters: {
  intent: VerifyPermit2ApprovalParameters["intent"];
}): Record<string, unknown> {
  return (parameters.intent.paramsToSign as unknown as { additionalData: Record<string, unknown> })
    .additionalData;
}
