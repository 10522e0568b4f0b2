import { disallowedSlot, type InstructionEffect, involves, type ResolvedInstruction } from "./effects.js";
import { readUintLE } from "./readInt.js";

/**
 * Per SPL Token instruction (and the same-numbered base instructions of Token-2022): the account slots the user's
 * key may fill. `from` permits every slot from that index on (the owner or authority and its multisig signers);
 * `user` lists single slots (a close's lamport destination, a revoke's owner). Instructions that initialize
 * accounts, mints or multisigs, or name a token account, never take the user's wallet key: any slot there is a
 * role the user did not agree to (`userRole`). `grant` names an instruction that, with the user among its authority
 * slots (from `from` on), grants or uses an authority of the user (`authorityGrant`).
 */
const TOKEN_SLOTS: Readonly<
  Record<number, { name: string; from?: number; user?: readonly number[]; grant?: string }>
> = {
  0: { name: "InitializeMint" },
  1: { name: "InitializeAccount" },
  2: { name: "InitializeMultisig" },
  3: { name: "Transfer", from: 2 }, // [source, destination, authority, ...signers]
  // [source, delegate, owner, ...signers]
  4: { name: "Approve", from: 2, grant: "Approve" },
  // [source, owner, ...signers]; ends a delegation the user set up elsewhere
  5: { name: "Revoke", from: 1, grant: "Revoke" },
  // [account, currentAuthority, ...signers]
  6: { name: "SetAuthority", from: 1, grant: "SetAuthority" },
  // [mint, destination, mintAuthority, ...signers]
  7: { name: "MintTo", from: 2, grant: "MintTo under the user's mint authority" },
  8: { name: "Burn", from: 2 }, // [account, mint, owner, ...signers]
  // [account, destination, owner, ...signers]
  9: { name: "CloseAccount", from: 2, user: [1], grant: "CloseAccount" },
  // [account, mint, freezeAuthority, ...signers]
  10: { name: "FreezeAccount", from: 2, grant: "Freeze/Thaw under the user's freeze authority" },
  11: { name: "ThawAccount", from: 2, grant: "Freeze/Thaw under the user's freeze authority" },
  12: { name: "TransferChecked", from: 3 }, // [source, mint, destination, authority, ...signers]
  // [source, mint, delegate, owner, ...signers]
  13: { name: "ApproveChecked", from: 3, grant: "ApproveChecked" },
  14: { name: "MintToChecked", from: 2, grant: "MintTo under the user's mint authority" },
  15: { name: "BurnChecked", from: 2 },
  16: { name: "InitializeAccount2" },
  17: { name: "SyncNative" },
  18: { name: "InitializeAccount3" },
  19: { name: "InitializeMultisig2" },
  20: { name: "InitializeMint2" },
  21: { name: "GetAccountDataSize" },
  22: { name: "InitializeImmutableOwner" },
  23: { name: "AmountToUiAmount" },
  24: { name: "UiAmountToAmount" },
};

/**
 * Decode an SPL Token / Token-2022 instruction from its data bytes (instruction index, little-endian u64 amounts)
 * and say what it means for `user`. The authority of a token instruction is its owner/delegate account followed by
 * any multisig signer accounts; the user "authorizes" it when the user's key is among them. The user's key in any
 * other slot (a token account, a mint, a delegate, a new owner) is refused as `userRole`.
 */
export function decodeTokenInstruction(ix: ResolvedInstruction, user: string): InstructionEffect {
  const { accounts, data } = ix;
  if (!involves(accounts, user)) return { kind: "none" };
  const tag = data[0];
  if (tag === undefined) return { kind: "unknown", reason: "empty token instruction" };
  const known = TOKEN_SLOTS[tag];
  if (known === undefined) return { kind: "unknown", reason: `token instruction ${tag}` };
  const slot = disallowedSlot(accounts, user, known.user ?? [], known.from);
  if (slot !== undefined) return { kind: "userRole", instruction: known.name, role: `account ${slot}` };
  if (tag === 3 || tag === 12) return decodeTransfer(ix, user, tag === 12);
  if (known.grant !== undefined) {
    return involves(accounts, user, known.from)
      ? { kind: "authorityGrant", instruction: known.grant }
      : { kind: "none" };
  }
  if (tag === 8 || tag === 15) {
    // Burn / BurnChecked: [account, mint, owner, ...signers], u64 amount (BurnChecked: then u8 decimals)
    const amount = readUintLE(data, 1, 8);
    if (amount === undefined || accounts.length < 3) return { kind: "unknown", reason: "malformed Burn" };
    if (!involves(accounts, user, 2)) return { kind: "none" };
    return { kind: "tokenBurn", mint: accounts[1]!, amount };
  }
  // CloseAccount paying its lamports to the user (slot 1), or the user as an account a known tag allows.
  return { kind: "none" };
}

/**
 * `Transfer` (`[source, destination, authority, ...signers]`, u64 amount) or `TransferChecked` (`[source, mint,
 * destination, authority, ...signers]`, u64 amount, u8 decimals): a token transfer when the user authorizes it.
 */
function decodeTransfer(ix: ResolvedInstruction, user: string, checked: boolean): InstructionEffect {
  const { accounts, data } = ix;
  const amount = readUintLE(data, 1, 8);
  if (amount === undefined || data.length !== (checked ? 10 : 9) || accounts.length < (checked ? 4 : 3)) {
    return { kind: "unknown", reason: checked ? "malformed TransferChecked" : "malformed Transfer" };
  }
  if (!involves(accounts, user, checked ? 3 : 2)) return { kind: "none" };
  return {
    kind: "tokenTransfer",
    programAddress: ix.programAddress,
    source: accounts[0]!,
    destination: accounts[checked ? 2 : 1]!,
    mint: checked ? accounts[1]! : null,
    amount,
    decimals: checked ? data[9]! : null,
  };
}

/** Token instructions whose accounts start `[account, mint, ...]`: the mint names the account's associated address. */
const ACCOUNT_THEN_MINT: ReadonlySet<number> = new Set([8, 10, 11, 12, 13, 15]);

/**
 * The token account an SPL Token / Token-2022 instruction acts on (its slot 0: the source of a transfer, the account
 * burned, closed, frozen, thawed, approved, revoked, reassigned or reconfigured), and the mint it names when its
 * layout is `[account, mint, ...]`. Undefined for `SyncNative` (it only credits the account with its own lamports)
 * and for an instruction without accounts. Used for instructions the user does not authorize: a delegate, a
 * permanent delegate, a close or freeze authority acting on the user's token account.
 */
export function tokenInstructionTarget(
  ix: ResolvedInstruction,
): { account: string; mint: string | null; tag: number } | undefined {
  const tag = ix.data[0];
  const account = ix.accounts[0];
  if (tag === undefined || tag === 17 || account === undefined) return undefined;
  // Token-2022 TransferCheckedWithFee (26, 1): [source, mint, destination, authority, ...] like TransferChecked.
  const namesMint = ACCOUNT_THEN_MINT.has(tag) || (tag === 26 && ix.data[1] === 1);
  return { account, mint: namesMint ? (ix.accounts[1] ?? null) : null, tag };
}

/**
 * Whether the user's key is among an SPL Token / Token-2022 instruction's authority slots (the owner or authority
 * and its multisig signers), or anywhere in an instruction without a slot table. The user elsewhere (a close's
 * lamport destination) does not make it the user's act.
 */
export function userAuthorizes(ix: ResolvedInstruction, user: string): boolean {
  const tag = ix.data[0];
  const from = tag === undefined ? undefined : TOKEN_SLOTS[tag]?.from;
  return involves(ix.accounts, user, from ?? 0);
}
