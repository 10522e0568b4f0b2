import { PERMIT2_PRIMARY_TYPE } from "../constants.js";
import type { Permit2ErrorDetails } from "../errors.js";
import { createPermit2Error } from "../internal/fail.js";
import { isObject } from "./values.js";

/** The witness fields a signer must be able to check, with their EIP-712 types (apps/docs/pages/reference/approvals.md). */
export const WITNESS_FIELDS: Readonly<Record<string, string>> = {
  intentId: "bytes32",
  secretHash: "bytes32",
  destChain: "uint256",
  destToken: "string",
  recipient: "string",
  minDestAmount: "uint256",
  maxDestAmount: "uint256",
};
/** The witness type the escrow hashes (`SwapEscrow.sol`, apps/docs/pages/reference/approvals.md): this name, these fields, this order. */
const SWAP_WITNESS_TYPE_NAME = "SwapWitness";
const SWAP_WITNESS_FIELDS = Object.entries(WITNESS_FIELDS).map(([name, type]) => ({ name, type }));
const SWAP_WITNESS_TYPE = `${SWAP_WITNESS_TYPE_NAME}(${SWAP_WITNESS_FIELDS.map((f) => `${f.type} ${f.name}`).join(",")})`;

/**
 * EIP-712 atomic type names. A struct named like one is ambiguous: encoders that look up structs first (ox, viem)
 * would hash `address token` or `string recipient` fields as that struct, others refuse the name.
 */
const ATOMIC_TYPE_NAME = /^(address|bool|string|bytes([0-9]+)?|u?int([0-9]+)?)$/;
/** The fields of Permit2's EIP-712 domain, in order (no `version`). */
export const DOMAIN_FIELDS = [
  { name: "name", type: "string" },
  { name: "chainId", type: "uint256" },
  { name: "verifyingContract", type: "address" },
] as const;
const TOKEN_PERMISSIONS_FIELDS = [
  { name: "token", type: "address" },
  { name: "amount", type: "uint256" },
] as const;
const PRIMARY_FIELDS_BEFORE_WITNESS = [
  { name: "permitted", type: "TokenPermissions" },
  { name: "spender", type: "address" },
  { name: "nonce", type: "uint256" },
  { name: "deadline", type: "uint256" },
] as const;

/** `actual` is exactly these `{ name, type }` fields, in this order. */
export function sameFields(actual: unknown, expected: readonly { name: string; type: string }[]): boolean {
  return (
    Array.isArray(actual) &&
    actual.length === expected.length &&
    actual.every(
      (field, i) =>
        isObject(field) &&
        Object.keys(field).length === 2 &&
        field.name === expected[i]!.name &&
        field.type === expected[i]!.type,
    )
  );
}

/** Checks the shape of `types` and returns the witness type's name. */
export function assertTypes(types: Record<string, unknown>): string {
  const invalid = (shortMessage: string, details: Permit2ErrorDetails["PERMIT2_TYPES_INVALID"]) =>
    createPermit2Error("PERMIT2_TYPES_INVALID", shortMessage, details);
  const primary = types[PERMIT2_PRIMARY_TYPE];
  if (!Array.isArray(primary) || primary.length !== 5)
    throw invalid(`${PERMIT2_PRIMARY_TYPE} must have exactly 5 fields.`, { fields: primary });
  const witnessField = primary[4];
  if (
    !sameFields(primary.slice(0, 4), PRIMARY_FIELDS_BEFORE_WITNESS) ||
    !isObject(witnessField) ||
    Object.keys(witnessField).length !== 2 ||
    witnessField.name !== "witness" ||
    typeof witnessField.type !== "string"
  )
    throw invalid(
      `${PERMIT2_PRIMARY_TYPE} must be (TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,<Witness> witness).`,
      { fields: primary },
    );
  const witnessTypeName: string = witnessField.type;
  if (
    !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(witnessTypeName) ||
    ATOMIC_TYPE_NAME.test(witnessTypeName) ||
    // `__proto__`, `constructor`, `toString`, ...: a lookup by such a key reaches Object.prototype, not `types`.
    witnessTypeName in Object.prototype ||
    [PERMIT2_PRIMARY_TYPE, "TokenPermissions", "EIP712Domain"].includes(witnessTypeName)
  )
    throw invalid("The witness type name is not a valid struct name.", { name: witnessTypeName });
  if (!sameFields(types.TokenPermissions, TOKEN_PERMISSIONS_FIELDS))
    throw invalid("TokenPermissions must be (address token,uint256 amount).", {
      fields: types.TokenPermissions,
    });
  if (types.EIP712Domain !== undefined && !sameFields(types.EIP712Domain, DOMAIN_FIELDS))
    throw invalid("EIP712Domain must be (string name,uint256 chainId,address verifyingContract).", {
      fields: types.EIP712Domain,
    });
  const known = new Set([PERMIT2_PRIMARY_TYPE, "TokenPermissions", "EIP712Domain", witnessTypeName]);
  const extra = Object.keys(types).filter((name) => !known.has(name));
  if (extra.length > 0) throw invalid("types holds types Permit2 does not use.", { extraTypes: extra });
  const witnessFields = types[witnessTypeName];
  const expectedNames = Object.keys(WITNESS_FIELDS);
  if (
    !Array.isArray(witnessFields) ||
    witnessFields.length !== expectedNames.length ||
    !witnessFields.every(
      (field) =>
        isObject(field) &&
        Object.keys(field).length === 2 &&
        typeof field.name === "string" &&
        Object.hasOwn(WITNESS_FIELDS, field.name) &&
        WITNESS_FIELDS[field.name] === field.type,
    ) ||
    new Set(witnessFields.map((field: { name: string }) => field.name)).size !== expectedNames.length
  )
    throw invalid(
      `The witness type must have exactly the fields ${expectedNames.map((n) => `${WITNESS_FIELDS[n]} ${n}`).join(", ")} (any order).`,
      { fields: witnessFields },
    );
  // Any consistent variant hashes and signs, but the escrow builds its type hash from this one string: under
  // another name or field order the permit could never execute.
  if (witnessTypeName !== SWAP_WITNESS_TYPE_NAME || !sameFields(witnessFields, SWAP_WITNESS_FIELDS))
    throw invalid(`The witness type is not the escrow's ${SWAP_WITNESS_TYPE} (its name and field order).`, {
      name: witnessTypeName,
      fields: witnessFields,
    });
  return witnessTypeName;
}
