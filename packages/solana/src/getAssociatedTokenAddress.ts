import {
  type GetAssociatedTokenAccountAddressErrorType,
  type GetAssociatedTokenAccountAddressParameters,
  type GetAssociatedTokenAccountAddressReturnType,
  getAssociatedTokenAccountAddress,
} from "./getAssociatedTokenAccountAddress.js";

/**
 * @deprecated Use {@link getAssociatedTokenAccountAddress} (the same function; `getAssociatedTokenAddress` is also
 * `@solana/spl-token`'s name, with other parameters). Kept for one minor release.
 */
export const getAssociatedTokenAddress: typeof getAssociatedTokenAccountAddress =
  getAssociatedTokenAccountAddress;
/** @deprecated Use {@link GetAssociatedTokenAccountAddressParameters}. */
export type GetAssociatedTokenAddressParameters = GetAssociatedTokenAccountAddressParameters;
/** @deprecated Use {@link GetAssociatedTokenAccountAddressReturnType}. */
export type GetAssociatedTokenAddressReturnType = GetAssociatedTokenAccountAddressReturnType;
/** @deprecated Use {@link GetAssociatedTokenAccountAddressErrorType}. */
export type GetAssociatedTokenAddressErrorType = GetAssociatedTokenAccountAddressErrorType;
