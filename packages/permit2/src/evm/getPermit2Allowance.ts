import { type Address, encodeFunctionData, erc20Abi, maxUint256 } from "viem";
import { CANONICAL_PERMIT2_ADDRESS } from "../constants.js";
import type { Permit2ApproveTransaction, Permit2Error } from "../errors.js";
import { createPermit2Error } from "../internal/fail.js";

/**
 * What {@link getPermit2Allowance} uses of a viem `PublicClient`, by shape: a client of any viem 2.x copy fits (the
 * app's own, wagmi's, even another version than the one this package resolves).
 */
export interface Permit2AllowanceClient {
  /** Called with the ERC-20 ABI for `allowance(owner, permit2)`. */
  readContract(parameters: {
    address: Address;
    abi: typeof erc20Abi;
    functionName: "allowance";
    args: readonly [Address, Address];
  }): Promise<bigint>;
}

/** Parameters of {@link getPermit2Allowance}. */
export interface GetPermit2AllowanceParameters {
  /** A viem public client on the source chain. */
  publicClient: Permit2AllowanceClient;
  /** The ERC-20 token to transfer (`verified.typedData.message.permitted.token`). */
  token: Address;
  /** The user's address (the Permit2 owner). */
  owner: Address;
  /** The amount the permit transfers, in lots (`verified.typedData.message.permitted.amount`). */
  amount: bigint;
  /** The Permit2 contract (`verified.typedData.domain.verifyingContract`); default the canonical one. */
  permit2Address?: Address | undefined;
  /** The amount the suggested `approve` grants Permit2; default unlimited (the usual Permit2 setup), or pass `amount`. */
  approveAmount?: bigint | undefined;
}

// Declared beside the error that carries it, so the root entry's types (errors) need no viem.
export type { Permit2ApproveTransaction } from "../errors.js";

/**
 * What {@link getPermit2Allowance} returns: the ERC-20 allowance the owner gave Permit2, and the `approve`
 * transaction when it is too small.
 */
export type GetPermit2AllowanceReturnType =
  | { sufficient: true; allowance: bigint; required: bigint; approveTransaction: null }
  | { sufficient: false; allowance: bigint; required: bigint; approveTransaction: Permit2ApproveTransaction };

/** The error {@link getPermit2Allowance} throws (`PERMIT2_ALLOWANCE_READ_FAILED`). */
export type GetPermit2AllowanceErrorType = Permit2Error<"PERMIT2_ALLOWANCE_READ_FAILED">;

/**
 * Reads `token.allowance(owner, permit2)` and tells whether it covers `amount`; when it does not, returns the
 * `approve` transaction the user must send first (a permit signed without it is refused when the service
 * executes it).
 *
 * An insufficient allowance is a result, not an error (see `assertPermit2Allowance` for the throwing form).
 *
 * @throws `Permit2Error` with code `PERMIT2_ALLOWANCE_READ_FAILED` when the RPC read fails (cause attached).
 *
 * @example
 * ```ts
 * import { getPermit2Allowance } from "@swapintent/permit2/evm";
 *
 * const result = await getPermit2Allowance({
 *   publicClient,
 *   owner: account.address,
 *   token: verified.typedData.message.permitted.token as `0x${string}`,
 *   amount: verified.typedData.message.permitted.amount,
 *   permit2Address: verified.typedData.domain.verifyingContract as `0x${string}`,
 * });
 * if (!result.sufficient) await walletClient.sendTransaction({ account, ...result.approveTransaction });
 * ```
 */
export async function getPermit2Allowance(
  parameters: GetPermit2AllowanceParameters,
): Promise<GetPermit2AllowanceReturnType> {
  const {
    publicClient,
    token,
    owner,
    amount,
    permit2Address = CANONICAL_PERMIT2_ADDRESS,
    approveAmount = maxUint256,
  } = parameters;
  let allowance: bigint;
  try {
    allowance = await publicClient.readContract({
      address: token,
      abi: erc20Abi,
      functionName: "allowance",
      args: [owner, permit2Address],
    });
  } catch (cause) {
    throw createPermit2Error(
      "PERMIT2_ALLOWANCE_READ_FAILED",
      "Could not read the token's allowance to Permit2.",
      { token, owner, permit2Address },
      cause,
    );
  }
  if (allowance >= amount) return { sufficient: true, allowance, required: amount, approveTransaction: null };
  return {
    sufficient: false,
    allowance,
    required: amount,
    approveTransaction: {
      to: token,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: "approve",
        args: [permit2Address, approveAmount],
      }),
      value: 0n,
    },
  };
}
