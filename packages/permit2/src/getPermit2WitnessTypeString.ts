import type { TypedDataField } from "@swapintent/client";
import * as TypedData from "ox/TypedData";
import { PERMIT2_PRIMARY_TYPE, PERMIT2_WITNESS_TYPE_STUB } from "./constants.js";
import { createPermit2Error } from "./internal/fail.js";

/** Parameters of {@link getPermit2WitnessTypeString}. */
export interface GetPermit2WitnessTypeStringParameters {
  /** EIP-712 types holding `PermitWitnessTransferFrom`, `TokenPermissions` and the witness type (`EIP712Domain` is ignored). */
  types: Readonly<Record<string, readonly TypedDataField[]>>;
}

/**
 * Builds the `witnessTypeString` Permit2's `permitWitnessTransferFrom` needs for `types`: Permit2 appends it to
 * {@link PERMIT2_WITNESS_TYPE_STUB} and hashes the result, so it is `<WitnessType> witness)` followed by every
 * referenced struct type (the witness type, `TokenPermissions`, nested types) sorted by name, exactly as
 * EIP-712's `encodeType` orders them.
 *
 * @throws `BaseError` with code `PERMIT2_TYPES_INVALID` when the primary type does not start like Permit2's.
 *
 * @example
 * ```ts
 * import { getPermit2WitnessTypeString } from "@swapintent/permit2";
 *
 * const witnessTypeString = getPermit2WitnessTypeString({ types: verified.typedData.types });
 * // "SwapWitness witness)SwapWitness(bytes32 intentId,...)TokenPermissions(address token,uint256 amount)"
 * ```
 */
export function getPermit2WitnessTypeString({ types }: GetPermit2WitnessTypeStringParameters): string {
  const { EIP712Domain: _domain, ...structs } = types;
  if (!structs[PERMIT2_PRIMARY_TYPE])
    throw createPermit2Error("PERMIT2_TYPES_INVALID", `types has no ${PERMIT2_PRIMARY_TYPE}.`);
  const encoded = TypedData.encodeType({
    primaryType: PERMIT2_PRIMARY_TYPE,
    types: structs as TypedData.TypedData,
  });
  if (!encoded.startsWith(PERMIT2_WITNESS_TYPE_STUB))
    throw createPermit2Error(
      "PERMIT2_TYPES_INVALID",
      `${PERMIT2_PRIMARY_TYPE} is not Permit2's witness type.`,
      {
        encodeType: encoded,
      },
    );
  return encoded.slice(PERMIT2_WITNESS_TYPE_STUB.length);
}
