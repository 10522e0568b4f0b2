import type { Permit2Error } from "../errors.js";
import { createPermit2Error } from "../internal/fail.js";
import { type GetPermit2AllowanceParameters, getPermit2Allowance } from "./getPermit2Allowance.js";

/** Parameters of {@link assertPermit2Allowance}: the same as {@link getPermit2Allowance}'s. */
export type AssertPermit2AllowanceParameters = GetPermit2AllowanceParameters;

/** What {@link assertPermit2Allowance} returns: the current allowance, in lots. */
export type AssertPermit2AllowanceReturnType = bigint;

/** The error {@link assertPermit2Allowance} throws (`PERMIT2_ALLOWANCE_INSUFFICIENT`, `PERMIT2_ALLOWANCE_READ_FAILED`). */
export type AssertPermit2AllowanceErrorType = Permit2Error<
  "PERMIT2_ALLOWANCE_INSUFFICIENT" | "PERMIT2_ALLOWANCE_READ_FAILED"
>;

/**
 * Like {@link getPermit2Allowance}, but throws when the allowance does not cover the amount, so a flow can
 * stop before asking the user to sign a permit that cannot execute.
 *
 * @returns The current allowance.
 * @throws `Permit2Error` with code `PERMIT2_ALLOWANCE_INSUFFICIENT`; `details.approveTransaction` holds the
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
export async function assertPermit2Allowance(
  parameters: AssertPermit2AllowanceParameters,
): Promise<AssertPermit2AllowanceReturnType> {
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
