import { SYSTEM_PROGRAM_ADDRESS } from "../constants.js";
import { type InstructionEffect, involves, type ResolvedInstruction } from "./effects.js";
import { readUintLE } from "./readInt.js";

/**
 * Decode a System Program instruction (u32 little-endian index, u64 lamports) and say what it means for `user`:
 * lamports the user pays (Transfer, CreateAccount, CreateAccountWithSeed, TransferWithSeed with the user as base,
 * WithdrawNonceAccount with the user as authority) or the user's account handed to another owner (Assign,
 * AssignWithSeed, CreateAccount of the user's own address with an owner or data, AuthorizeNonceAccount).
 */
export function decodeSystemInstruction(ix: ResolvedInstruction, user: string): InstructionEffect {
  const { accounts, data } = ix;
  if (!involves(accounts, user)) return { kind: "none" };
  const tag = readUintLE(data, 0, 4);
  const lamportsAt = (offset: number, name: string): InstructionEffect => {
    const lamports = readUintLE(data, offset, 8);
    return lamports === undefined
      ? { kind: "unknown", reason: `malformed ${name}` }
      : { kind: "nativeOutflow", lamports, instruction: name };
  };
  switch (tag) {
    case 0n: {
      // CreateAccount: [from, newAccount], lamports u64, space u64, owner
      if (accounts[1] === user) {
        // Another owner takes the user's address over; data (even System-owned) leaves it unable to send
        // lamports or pay fees for good. Only a plain funding (space 0, System owner) is harmless.
        const owner = data.length >= 52 ? data.subarray(20, 52) : undefined;
        const space = readUintLE(data, 12, 8);
        if (owner === undefined || owner.some((b) => b !== 0) || space !== 0n) {
          return { kind: "authorityGrant", instruction: "CreateAccount of the user's address" };
        }
      }
      return accounts[0] === user ? lamportsAt(4, "CreateAccount") : { kind: "none" };
    }
    case 1n: // Assign: [account]
      return accounts[0] === user ? { kind: "authorityGrant", instruction: "Assign" } : { kind: "none" };
    case 2n: // Transfer: [from, to], lamports u64
      return accounts[0] === user ? lamportsAt(4, "Transfer") : { kind: "none" };
    case 3n: {
      // CreateAccountWithSeed: [from, to, (base)], base pubkey, seed (u64 length + bytes), lamports u64, ...
      if (accounts[1] === user) return { kind: "authorityGrant", instruction: "CreateAccountWithSeed" };
      if (accounts[0] !== user) return { kind: "none" };
      const seedLength = readUintLE(data, 36, 8);
      if (seedLength === undefined || seedLength > 32n)
        return { kind: "unknown", reason: "malformed CreateAccountWithSeed" };
      return lamportsAt(44 + Number(seedLength), "CreateAccountWithSeed");
    }
    case 4n: // AdvanceNonceAccount: harmless
    case 6n: // InitializeNonceAccount: harmless
    case 12n: // UpgradeNonceAccount: harmless
      return { kind: "none" };
    case 5n: // WithdrawNonceAccount: [nonce, to, recentBlockhashes, rent, authority], lamports u64
      return accounts[4] === user ? lamportsAt(4, "WithdrawNonceAccount") : { kind: "none" };
    case 7n: // AuthorizeNonceAccount: [nonce, authority]
      return accounts[1] === user
        ? { kind: "authorityGrant", instruction: "AuthorizeNonceAccount" }
        : { kind: "none" };
    case 10n: // AssignWithSeed: [account, base]
      return accounts[1] === user
        ? { kind: "authorityGrant", instruction: "AssignWithSeed" }
        : { kind: "none" };
    case 11n: // TransferWithSeed: [from, base, to], lamports u64 (from is derived from the base)
      return accounts[1] === user ? lamportsAt(4, "TransferWithSeed") : { kind: "none" };
    default:
      // Allocate / AllocateWithSeed of the user's account, or an instruction this verifier does not know.
      return {
        kind: "unknown",
        reason: `system instruction ${tag ?? "(empty)"} on ${SYSTEM_PROGRAM_ADDRESS}`,
      };
  }
}
