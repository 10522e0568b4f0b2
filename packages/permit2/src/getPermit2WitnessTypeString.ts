import type { TypedDataField } from "@swapintent/client";
import * as TypedData from "ox/TypedData";
import { PERMIT2_PRIMARY_TYPE, PERMIT2_WITNESS_TYPE_STUB } from "./constants.js";
import type { Permit2Error } from "./errors.js";
import { createPermit2Error } from "./internal/fail.js";

/** Parameters of {@link getPermit2WitnessTypeString}. */
export interface GetPermit2WitnessTypeStringParameters {
  /** EIP-712 types holding `PermitWitnessTransferFrom`, `TokenPermissions` and the witness type (`EIP712Domain` is ignored). */
  types: Readonly<Record<string, readonly TypedDataField[]>>;
}

/** What {@link getPermit2WitnessTypeString} returns. */
export type GetPermit2WitnessTypeStringReturnType = string;

/** The error {@link getPermit2WitnessTypeString} throws. */
export type GetPermit2WitnessTypeStringErrorType = Permit2Error<"PERMIT2_TYPES_INVALID">;

/**
 * Builds the `witnessTypeString` Permit2's `permitWitnessTransferFrom` needs for `types`: Permit2 appends it to
 * {@link PERMIT2_WITNESS_TYPE_STUB} and hashes the result, so it is `<WitnessType> witness)` followed by every
 * referenced struct type (the witness type, `TokenPermissions`, nested types) sorted by name, exactly as
 * EIP-712's `encodeType` orders them.
 *
 * @throws `Permit2Error` with code `PERMIT2_TYPES_INVALID` when the primary type does not start like Permit2's.
 *
 * @example
 * ```ts
 * import { getPermit2WitnessTypeString } from "@swapintent/permit2";
 *
 * const witnessTypeString = getPermit2WitnessTypeString({ types: verified.typedData.types });
 * // "SwapWitness witness)SwapWitness(bytes32 intentId,...)TokenPermissions(address token,uint256 amount)"
 * ```
 */
export function getPermit2WitnessTypeString({
  types,
}: GetPermit2WitnessTypeStringParameters): GetPermit2WitnessTypeStringReturnType {
  const structs = structsOf(types);
  if (!Object.hasOwn(structs, PERMIT2_PRIMARY_TYPE))
    throw createPermit2Error("PERMIT2_TYPES_INVALID", `types has no ${PERMIT2_PRIMARY_TYPE}.`, {
      name: PERMIT2_PRIMARY_TYPE,
    });
  let encoded: string;
  try {
    encoded = TypedData.encodeType({
      primaryType: PERMIT2_PRIMARY_TYPE,
      types: structs as TypedData.TypedData,
    });
  } catch (cause) {
    throw createPermit2Error("PERMIT2_TYPES_INVALID", "types cannot be EIP-712 encoded.", {}, cause);
  }
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

/** The longest field type read (`SomeStruct[2][]`; real ones are far shorter). */
const MAX_TYPE_LENGTH = 256;

/**
 * The struct types without `EIP712Domain`. A struct named, or a field typed, like an `Object.prototype` member
 * (`__proto__`, `constructor`, `toString`, ...) is refused: looking it up would reach the prototype, not `types`.
 */
function structsOf(types: GetPermit2WitnessTypeStringParameters["types"]): Record<string, unknown> {
  const invalid = (name: string) =>
    createPermit2Error("PERMIT2_TYPES_INVALID", "A type is named like an Object.prototype member.", { name });
  const structs: Record<string, unknown> = {};
  // `?? {}`: no types at all is refused like types without Permit2's primary type, not with a TypeError
  for (const [name, fields] of Object.entries(types ?? {})) {
    if (name === "EIP712Domain") continue;
    if (name in Object.prototype) throw invalid(name);
    if (!Array.isArray(fields))
      throw createPermit2Error("PERMIT2_TYPES_INVALID", "A struct type is not a list of fields.", { name });
    for (const field of fields as unknown[]) {
      const type = (field as { type?: unknown } | null)?.type;
      if (typeof type !== "string")
        throw createPermit2Error("PERMIT2_TYPES_INVALID", "A field has no type.", { name });
      // bounded before a pattern reads it: `(\[[0-9]*\])+$`, here and in ox, retries from every `[` (quadratic)
      if (type.length > MAX_TYPE_LENGTH)
        throw createPermit2Error("PERMIT2_TYPES_INVALID", "A field type is too long.", { name });
      const base = type.replace(/(\[[0-9]*\])+$/, "");
      if (base in Object.prototype) throw invalid(base);
    }
    structs[name] = fields;
  }
  return structs;
}
