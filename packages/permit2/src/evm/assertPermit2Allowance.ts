import { createPermit2Error } from "../internal/fail.js";
import { type GetPermit2AllowanceParameters, getPermit2Allowance } from "./getPermit2Allowance.js";

/**
 * Like {@link getPermit2Allowance}, but throws when the allowance does not cover the amount, so a flow can
 * stop before asking the user to sign a permit that cannot execute.
 *
 * @returns The current allowance.
 * @throws `BaseError` with code `PERMIT2_ALLOWANCE_INSUFFICIENT`; `details.approveTransaction` holds the
 * `approve` transaction request to send first (`details.allowance`, `details.required` the numbers).
 *
 * @example
 * ```ts
 * import { assertPermit2Allowance } from "@swapintent/permit2/evm";
 *
 * // Throws PERMIT2_ALLOWANCE_INSUFFICIENT (details.approveTransaction) before the user signs a permit that cannot run.
 * const allowance = await assertPermit2Allowance({ publicClient, owner, token, amount, permit2Address });
 * ```
 */
export async function assertPermit2Allowance(parameters: GetPermit2AllowanceParameters): Promise<bigint> {
  const result = await getPermit2Allowance(parameters);
  if (!result.sufficient)
    throw createPermit2Error(
      "PERMIT2_ALLOWANCE_INSUFFICIENT",
      "The token allowance to Permit2 is below the amount; send the approve transaction first.",
      {
        allowance: result.allowance,
        required: result.required,
        approveTransaction: result.approveTransaction,
      },
    );
  return result.allowance;
}
