import { type InstructionEffect, involves, type ResolvedInstruction } from "./effects.js";
import { readUintLE } from "./readInt.js";

/** Instructions of SPL Token (and the same-numbered base instructions of Token-2022) that never harm the user. */
const HARMLESS = new Set<number>([
  0, // InitializeMint
  1, // InitializeAccount
  2, // InitializeMultisig
  5, // Revoke
  16, // InitializeAccount2
  17, // SyncNative
  18, // InitializeAccount3
  19, // InitializeMultisig2
  20, // InitializeMint2
  21, // GetAccountDataSize
  22, // InitializeImmutableOwner
  23, // AmountToUiAmount
  24, // UiAmountToAmount
]);

/**
 * Decode an SPL Token / Token-2022 instruction from its data bytes (instruction index, little-endian u64 amounts)
 * and say what it means for `user`. The authority of a token instruction is its owner/delegate account followed by
 * any multisig signer accounts; the user "authorizes" it when the user's key is among them.
 */
export function decodeTokenInstruction(ix: ResolvedInstruction, user: string): InstructionEffect {
  const { accounts, data } = ix;
  if (!involves(accounts, user)) return { kind: "none" };
  const tag = data[0];
  if (tag === undefined) return { kind: "unknown", reason: "empty token instruction" };
  if (HARMLESS.has(tag)) return { kind: "none" };
  switch (tag) {
    case 3: {
      // Transfer: [source, destination, authority, ...signers], u64 amount
      const amount = readUintLE(data, 1, 8);
      if (amount === undefined || data.length !== 9 || accounts.length < 3) {
        return { kind: "unknown", reason: "malformed Transfer" };
      }
      if (!involves(accounts, user, 2)) return { kind: "none" };
      return {
        kind: "tokenTransfer",
        programAddress: ix.programAddress,
        source: accounts[0]!,
        destination: accounts[1]!,
        mint: null,
        amount,
        decimals: null,
      };
    }
    case 12: {
      // TransferChecked: [source, mint, destination, authority, ...signers], u64 amount, u8 decimals
      const amount = readUintLE(data, 1, 8);
      if (amount === undefined || data.length !== 10 || accounts.length < 4) {
        return { kind: "unknown", reason: "malformed TransferChecked" };
      }
      if (!involves(accounts, user, 3)) return { kind: "none" };
      return {
        kind: "tokenTransfer",
        programAddress: ix.programAddress,
        source: accounts[0]!,
        destination: accounts[2]!,
        mint: accounts[1]!,
        amount,
        decimals: data[9]!,
      };
    }
    case 7: // MintTo: [mint, destination, mintAuthority, ...signers]
    case 14: // MintToChecked: same accounts
      return involves(accounts, user, 2)
        ? { kind: "authorityGrant", instruction: "MintTo under the user's mint authority" }
        : { kind: "none" };
    case 10: // FreezeAccount: [account, mint, freezeAuthority, ...signers]
    case 11: // ThawAccount: same accounts
      return involves(accounts, user, 2)
        ? { kind: "authorityGrant", instruction: "Freeze/Thaw under the user's freeze authority" }
        : { kind: "none" };
    case 4: // Approve: [source, delegate, owner, ...signers]
      return involves(accounts, user, 2)
        ? { kind: "authorityGrant", instruction: "Approve" }
        : { kind: "none" };
    case 13: // ApproveChecked: [source, mint, delegate, owner, ...signers]
      return involves(accounts, user, 3)
        ? { kind: "authorityGrant", instruction: "ApproveChecked" }
        : { kind: "none" };
    case 6: // SetAuthority: [account, currentAuthority, ...signers]
      return involves(accounts, user, 1)
        ? { kind: "authorityGrant", instruction: "SetAuthority" }
        : { kind: "none" };
    case 9: // CloseAccount: [account, destination, owner, ...signers]
      return involves(accounts, user, 2)
        ? { kind: "authorityGrant", instruction: "CloseAccount" }
        : { kind: "none" };
    case 8: // Burn: [account, mint, owner, ...signers], u64 amount
    case 15: {
      // BurnChecked: same accounts, u64 amount, u8 decimals
      const amount = readUintLE(data, 1, 8);
      if (amount === undefined || accounts.length < 3) return { kind: "unknown", reason: "malformed Burn" };
      if (!involves(accounts, user, 2)) return { kind: "none" };
      return { kind: "tokenBurn", mint: accounts[1]!, amount };
    }
    default:
      return { kind: "unknown", reason: `token instruction ${tag}` };
  }
}
