import type { HexString, TypedDataField } from "@swapintent/client";
import * as AbiParameters from "ox/AbiParameters";
import * as Hash from "ox/Hash";
import * as OxHex from "ox/Hex";
import * as TypedData from "ox/TypedData";

/**
 * The EIP-712 hashing of a permit, split so that what repeats from one permit to the next (type hashes, a chain's
 * domain separator) is computed once: the same values as ox's (and ethers' and viem's) full encoders, which the
 * tests compare with, at about half the keccak calls per permit.
 */

/** A small memo that forgets everything when full (type strings and domains are few per wallet). */
function memo<T>(limit: number) {
  const entries = new Map<string, T>();
  return (key: string, compute: () => T): T => {
    const known = entries.get(key);
    if (known !== undefined) return known;
    const value = compute();
    if (entries.size >= limit) entries.clear();
    entries.set(key, value);
    return value;
  };
}

const typeHashes = memo<HexString>(32);
const domainSeparators = memo<HexString>(32);

/** keccak256 of an EIP-712 type string (`Name(type field,...)...`). */
export function hashTypeString(typeString: string): HexString {
  return typeHashes(typeString, () => Hash.keccak256(OxHex.fromString(typeString)));
}

/** The domain separator of a Permit2 domain (`name`, `chainId`, `verifyingContract`, no version). */
export function hashPermit2Domain(domain: {
  name: string;
  chainId: number;
  verifyingContract: HexString;
}): HexString {
  const key = `${domain.name}\u0000${domain.chainId}\u0000${domain.verifyingContract.toLowerCase()}`;
  return domainSeparators(key, () => TypedData.hashDomain({ domain }));
}

const TOKEN_PERMISSIONS_TYPE = "TokenPermissions(address token,uint256 amount)";

/** `hashStruct(TokenPermissions)` of the permitted token and amount. */
export function hashTokenPermissions(permitted: { token: HexString; amount: bigint }): HexString {
  return Hash.keccak256(
    AbiParameters.encode(
      [{ type: "bytes32" }, { type: "address" }, { type: "uint256" }],
      [hashTypeString(TOKEN_PERMISSIONS_TYPE), permitted.token, permitted.amount],
    ),
  );
}

const ATOMIC = new Set(["bytes32", "uint256", "string"]);

/**
 * `hashStruct` of a struct whose fields are all `bytes32`, `uint256` or `string` (the witness, once its type is
 * checked): the type hash (memoized) and each value encoded as EIP-712 does, strings as their keccak256. Any other
 * field type goes through ox's general encoder.
 */
export function hashFlatStruct(input: {
  name: string;
  fields: readonly TypedDataField[];
  types: Record<string, TypedDataField[]>;
  data: Record<string, bigint | string>;
}): HexString {
  const { name, fields, types, data } = input;
  if (!fields.every((field) => ATOMIC.has(field.type)))
    return TypedData.hashStruct({
      primaryType: name,
      types: types as unknown as TypedData.TypedData,
      data,
    });
  const typeString = `${name}(${fields.map((field) => `${field.type} ${field.name}`).join(",")})`;
  const parameters = [
    { type: "bytes32" },
    ...fields.map((field) => ({ type: field.type === "string" ? "bytes32" : field.type })),
  ];
  const values = [
    hashTypeString(typeString),
    ...fields.map((field) => {
      const value = data[field.name];
      return field.type === "string" ? Hash.keccak256(OxHex.fromString(value as string)) : value;
    }),
  ];
  return Hash.keccak256(AbiParameters.encode(parameters, values as never));
}
