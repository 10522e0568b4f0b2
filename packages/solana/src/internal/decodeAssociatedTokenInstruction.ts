import { TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from "../constants.js";
import type { InstructionEffect, ResolvedInstruction } from "./effects.js";
import { involves } from "./effects.js";

/** Rent-exempt minimum of an SPL Token account (165 bytes): (128 + 165) bytes at 6,960 lamports each. */
const TOKEN_ACCOUNT_RENT = 2_039_280n;
/**
 * Upper bound of the rent of a Token-2022 associated account. Its size depends on the mint's extensions (170 bytes
 * bare, 182 with a transfer fee, 195 with every account extension a mint can require today): bounded at 256 bytes,
 * (128 + 256) * 6,960 lamports.
 */
const TOKEN_2022_ACCOUNT_RENT = 2_672_640n;

/**
 * Decode an Associated Token Account instruction: Create (empty data or 0), CreateIdempotent (1), RecoverNested (2).
 * Accounts of a create: [payer, associatedAccount, owner, mint, systemProgram, tokenProgram]. A create paid by the
 * user costs the user the account's rent, counted as native outflow (an upper bound: an idempotent create of an
 * existing account costs nothing).
 */
export function decodeAssociatedTokenInstruction(ix: ResolvedInstruction, user: string): InstructionEffect {
  const { accounts, data } = ix;
  if (!involves(accounts, user)) return { kind: "none" };
  const tag = data.length === 0 ? 0 : data.length === 1 ? data[0] : undefined;
  if (tag === 0 || tag === 1) {
    if (accounts[0] !== user) return { kind: "none" };
    // The account's size (so the rent the user pays) is whatever the named token program answers to
    // GetAccountDataSize: any other program could ask for megabytes of rent into an account it owns.
    if (accounts[5] !== TOKEN_PROGRAM_ADDRESS && accounts[5] !== TOKEN_2022_PROGRAM_ADDRESS)
      return { kind: "unknown", reason: "user-paid associated account create for an unknown token program" };
    const rent = accounts[5] === TOKEN_2022_PROGRAM_ADDRESS ? TOKEN_2022_ACCOUNT_RENT : TOKEN_ACCOUNT_RENT;
    return { kind: "nativeOutflow", lamports: rent, instruction: "CreateAssociatedTokenAccount" };
  }
  // RecoverNested moves tokens stuck in a nested account back to the wallet's own account.
  if (tag === 2) return { kind: "none" };
  return { kind: "unknown", reason: "associated token instruction" };
}
