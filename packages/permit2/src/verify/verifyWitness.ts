import type { HexString, TypedDataField } from "@swapintent/client";
import { getPermit2WitnessTypeString } from "../getPermit2WitnessTypeString.js";
import { assertDisplayText } from "../internal/assertDisplayText.js";
import { createPermit2Error } from "../internal/fail.js";
import { hashFlatStruct } from "./hashParts.js";
import { parseUint } from "./values.js";

/** The witness values, their hash (= `witness_hash`) and the type string (= `witness_type_string`). */
export function verifyWitness(witnessTypeName: string, additional: Record<string, unknown>) {
  const types = copyTypes(additional.types as Record<string, unknown>);
  const witness = parseWitness(types[witnessTypeName]!, additional.witness as Record<string, unknown>);
  const witnessHash = hashWitness(witnessTypeName, types, witness);
  const sentWitnessHash = additional.witnessHash as string;
  if (witnessHash !== sentWitnessHash.toLowerCase())
    throw createPermit2Error(
      "PERMIT2_WITNESS_HASH_MISMATCH",
      "witness_hash is not the hash of the witness it was sent with.",
      { expected: witnessHash, actual: sentWitnessHash },
    );
  const witnessTypeString = getPermit2WitnessTypeString({ types });
  if (witnessTypeString !== additional.witnessTypeString)
    throw createPermit2Error(
      "PERMIT2_WITNESS_TYPE_STRING_MISMATCH",
      "witness_type_string does not match the witness types.",
      { expected: witnessTypeString, actual: additional.witnessTypeString },
    );
  return { types, witness, witnessHash, witnessTypeString };
}

/** A deep copy of the struct types without `EIP712Domain`. */
export function copyTypes(types: Record<string, unknown>): Record<string, TypedDataField[]> {
  const out: Record<string, TypedDataField[]> = {};
  for (const [name, fields] of Object.entries(types)) {
    if (name === "EIP712Domain") continue;
    out[name] = (fields as TypedDataField[]).map((f) => ({ name: f.name, type: f.type }));
  }
  return out;
}

/** The witness values by their declared types (uint256 as bigint, bytes32 lowercase, safe strings). */

function parseWitness(
  fields: readonly TypedDataField[],
  raw: Record<string, unknown>,
): Record<string, bigint | string> {
  const names = new Set(fields.map((f) => f.name));
  const extra = Object.keys(raw).filter((key) => !names.has(key));
  if (extra.length > 0)
    throw createPermit2Error(
      "PERMIT2_WITNESS_INVALID",
      "The witness holds values its type does not declare.",
      {
        extraKeys: extra,
      },
    );
  const out: Record<string, bigint | string> = {};
  for (const { name, type } of fields) {
    const value = raw[name];
    if (type === "uint256") {
      const parsed = parseUint(value);
      if (parsed === null)
        throw createPermit2Error("PERMIT2_WITNESS_INVALID", `witness.${name} is not a uint256.`, { value });
      out[name] = parsed;
    } else if (type === "bytes32") {
      if (typeof value !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(value))
        throw createPermit2Error("PERMIT2_WITNESS_INVALID", `witness.${name} is not 32 bytes of hex.`, {
          value,
        });
      out[name] = value.toLowerCase();
    } else {
      if (typeof value !== "string")
        throw createPermit2Error("PERMIT2_WITNESS_INVALID", `witness.${name} is not a string.`, { value });
      // Signed as text and shown by wallets' own typed-data screens and by the summary.
      assertDisplayText(value, `witness.${name}`);
      out[name] = value;
    }
  }
  return out;
}

/** The EIP-712 struct hash of the witness (`PERMIT2_WITNESS_INVALID` when it cannot be encoded). */
function hashWitness(
  witnessTypeName: string,
  types: Record<string, TypedDataField[]>,
  witness: Record<string, bigint | string>,
): HexString {
  try {
    return hashFlatStruct({
      name: witnessTypeName,
      fields: types[witnessTypeName]!,
      types,
      data: witness,
    }).toLowerCase() as HexString;
  } catch (cause) {
    throw createPermit2Error(
      "PERMIT2_WITNESS_INVALID",
      "The witness cannot be EIP-712 encoded.",
      {
        field: "witness",
      },
      cause,
    );
  }
}
