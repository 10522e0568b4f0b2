import { SOLANA_PROGRAM_ADDRESSES } from "../constants.js";
import { disallowedSlot, type InstructionEffect, involves, type ResolvedInstruction } from "./effects.js";
import { readUintLE } from "./readInt.js";

/**
 * Per System instruction (by its u32 index): its name and the only account slots the user's key may fill. Any
 * other slot is a role the user did not agree to (a seed base, a nonce account or authority, an account to
 * allocate) and is refused as `userRole`.
 */
const SYSTEM_SLOTS: Readonly<Record<number, { name: string; user: readonly number[] }>> = {
  0: { name: "CreateAccount", user: [0, 1] }, // [from, newAccount]
  1: { name: "Assign", user: [0] }, // [account]
  2: { name: "Transfer", user: [0, 1] }, // [from, to]
  3: { name: "CreateAccountWithSeed", user: [0, 1] }, // [from, to, base]
  4: { name: "AdvanceNonceAccount", user: [] }, // [nonce, recentBlockhashes, authority]
  5: { name: "WithdrawNonceAccount", user: [1, 4] }, // [nonce, to, recentBlockhashes, rent, authority]
  6: { name: "InitializeNonceAccount", user: [] }, // [nonce, recentBlockhashes, rent]
  7: { name: "AuthorizeNonceAccount", user: [1] }, // [nonce, authority]
  8: { name: "Allocate", user: [] }, // [account]
  9: { name: "AllocateWithSeed", user: [] }, // [account, base]
  10: { name: "AssignWithSeed", user: [1] }, // [account, base]
  11: { name: "TransferWithSeed", user: [1, 2] }, // [from, base, to]
  12: { name: "UpgradeNonceAccount", user: [] }, // [nonce]
};

/**
 * Decode a System Program instruction (u32 little-endian index, u64 lamports) and say what it means for `user`:
 * lamports the user pays (Transfer, CreateAccount, CreateAccountWithSeed, TransferWithSeed with the user as base,
 * WithdrawNonceAccount with the user as authority), the user's account handed to another owner (Assign,
 * AssignWithSeed, CreateAccount of the user's own address with an owner or data, AuthorizeNonceAccount), or the
 * user in any other slot (`userRole`: the base of a resolver-funded CreateAccountWithSeed, a nonce account, an
 * account to allocate). Receiving lamports (`to`) is harmless.
 */
export function decodeSystemInstruction(ix: ResolvedInstruction, user: string): InstructionEffect {
  const { accounts, data } = ix;
  if (!involves(accounts, user)) return { kind: "none" };
  const tag = readUintLE(data, 0, 4);
  const known = tag === undefined ? undefined : SYSTEM_SLOTS[Number(tag)];
  if (known === undefined) {
    return {
      kind: "unknown",
      reason: `system instruction ${tag ?? "(empty)"} on ${SOLANA_PROGRAM_ADDRESSES.system}`,
    };
  }
  const slot = disallowedSlot(accounts, user, known.user);
  if (slot !== undefined) return { kind: "userRole", instruction: known.name, role: `account ${slot}` };
  const lamportsAt = (offset: number, to: string | undefined): InstructionEffect => {
    const lamports = readUintLE(data, offset, 8);
    return lamports === undefined
      ? { kind: "unknown", reason: `malformed ${known.name}` }
      : { kind: "nativeOutflow", lamports, instruction: known.name, to };
  };
  switch (tag) {
    case 0n: {
      // CreateAccount: lamports u64, space u64, owner
      if (accounts[1] === user) {
        // Another owner takes the user's address over; data (even System-owned) leaves it unable to send
        // lamports or pay fees for good. Only a plain funding (space 0, System owner) is harmless.
        const owner = data.length >= 52 ? data.subarray(20, 52) : undefined;
        const space = readUintLE(data, 12, 8);
        if (owner === undefined || owner.some((b) => b !== 0) || space !== 0n) {
          return { kind: "authorityGrant", instruction: "CreateAccount of the user's address" };
        }
      }
      return accounts[0] === user ? lamportsAt(4, accounts[1]) : { kind: "none" };
    }
    case 1n:
    case 10n:
    case 7n:
      // Assign / AssignWithSeed / AuthorizeNonceAccount with the user as the account or its authority.
      return { kind: "authorityGrant", instruction: known.name };
    case 2n:
      return accounts[0] === user ? lamportsAt(4, accounts[1]) : { kind: "none" };
    case 3n: {
      // base pubkey, seed (u64 length + bytes), lamports u64, space u64, owner
      if (accounts[1] === user) return { kind: "authorityGrant", instruction: known.name };
      if (accounts[0] !== user) return { kind: "none" };
      const seedLength = readUintLE(data, 36, 8);
      if (seedLength === undefined || seedLength > 32n)
        return { kind: "unknown", reason: "malformed CreateAccountWithSeed" };
      return lamportsAt(44 + Number(seedLength), accounts[1]);
    }
    case 5n:
      return accounts[4] === user ? lamportsAt(4, accounts[1]) : { kind: "none" };
    case 11n:
      // The `from` account is derived from the base: its lamports are the user's.
      return accounts[1] === user ? lamportsAt(4, accounts[2]) : { kind: "none" };
    default:
      return { kind: "none" };
  }
}
