import { solanaError } from "../errors.js";
import { parseAddress } from "./address.js";
import type { AddressTableLookup } from "./decodeTransaction.js";
import type { ResolvedInstruction } from "./effects.js";
import type { CheckedParameters } from "./readVerifyParameters.js";
import { type InstructionContext, type InstructionTally, tallyInstruction } from "./tallyInstruction.js";

/** The user's signature slot: a required signer, and not signer 0 (the fee payer). */
export function userSignerIndexOf(
  staticKeys: readonly string[],
  user: string,
  requiredSignatures: number,
): number {
  const userSignerIndex = staticKeys.indexOf(user);
  if (userSignerIndex === 0) {
    throw solanaError(
      "SOL_USER_IS_FEE_PAYER",
      "The user would pay the fee; the resolver must be the fee payer.",
      { userAddress: user },
    );
  }
  if (userSignerIndex < 0 || userSignerIndex >= requiredSignatures) {
    throw solanaError("SOL_USER_NOT_SIGNER", "The user's key is not a required signer of the transaction.", {
      userAddress: user,
      requiredSignatures,
    });
  }
  return userSignerIndex;
}

/** Every account the transaction loads (static, then from lookup tables), each once. */
export function accountKeysOf(
  staticKeys: readonly string[],
  lookups: readonly AddressTableLookup[],
  tables: ReadonlyMap<string, string[]>,
): string[] {
  const keys = [...staticKeys, ...resolveLookups(lookups, tables)];
  if (new Set(keys).size !== keys.length) {
    throw solanaError(
      "SOL_TX_DECODE_FAILED",
      "The transaction loads an account twice (through a lookup table).",
      { reason: "account loaded twice", accounts: keys.length },
    );
  }
  return keys;
}

/** Every instruction, resolved and checked, its effects on the user added up. */
export function tallyInstructions(
  keys: readonly string[],
  instructions: ReadonlyArray<Parameters<typeof resolveInstruction>[1]>,
  checked: CheckedParameters,
): InstructionTally {
  const tally: InstructionTally = {
    programs: [],
    memos: [],
    lamportsOut: [],
    toEscrow: 0n,
    transferFee: 0n,
    destination: undefined,
    strangers: [],
    userSources: [],
    otherAuthority: [],
  };
  const context: InstructionContext = {
    user: checked.user,
    userBytes: parseAddress(checked.user, "userAddress").bytes,
    allowed: checked.allowed,
    expectedMint: checked.expectedMint,
    expectedDecimals: checked.expectedDecimals,
    escrowOf: checked.escrowOf,
    token2022Mint: checked.token2022Mint,
    expectedMemo: checked.expectedMemo,
  };
  instructions.forEach((compiled, index) => {
    tallyInstruction(tally, resolveInstruction(keys, compiled, index), index, context);
  });
  return tally;
}

function resolveLookups(
  lookups: readonly AddressTableLookup[],
  contents: ReadonlyMap<string, string[]>,
): string[] {
  if (lookups.length === 0) return [];
  const pick = (kind: "writableIndexes" | "readonlyIndexes"): string[] =>
    lookups.flatMap((lookup) => {
      const table = lookup.accountKey;
      const addresses = contents.get(table);
      return lookup[kind].map((i) => {
        const address = addresses?.[i];
        if (address === undefined) {
          throw solanaError(
            "SOL_LOOKUP_TABLE_UNRESOLVED",
            addresses === undefined
              ? "The transaction uses an address lookup table whose contents were not supplied."
              : "The transaction uses an index beyond the supplied lookup table.",
            { table, index: i },
          );
        }
        return address;
      });
    });
  return [...pick("writableIndexes"), ...pick("readonlyIndexes")];
}

function resolveInstruction(
  keys: readonly string[],
  compiled: { programIdIndex: number; accountKeyIndexes: number[]; data: Uint8Array },
  index: number,
): ResolvedInstruction {
  const at = (i: number): string => {
    const key = keys[i];
    if (key === undefined) {
      throw solanaError(
        "SOL_TX_DECODE_FAILED",
        "An instruction refers to an account index that does not exist.",
        { reason: "account index out of range", instruction: index, accountIndex: i },
      );
    }
    return key;
  };
  return {
    programAddress: at(compiled.programIdIndex),
    accounts: compiled.accountKeyIndexes.map(at),
    data: compiled.data,
  };
}
