/** What one instruction means for the user, as the verifier understands it. */
export type InstructionEffect =
  /** Known and harmless for the user, or it does not involve the user at all. */
  | { kind: "none" }
  /** SPL tokens leave an account under the user's authority. `mint` is null for an unchecked `Transfer`. */
  | {
      kind: "tokenTransfer";
      programAddress: string;
      source: string;
      destination: string;
      mint: string | null;
      amount: bigint;
      /** The decimals a `TransferChecked` states (the token program checks them against the mint); null for `Transfer`. */
      decimals: number | null;
    }
  /** SPL tokens of the user are burned. */
  | { kind: "tokenBurn"; mint: string; amount: bigint }
  /** Lamports leave the user, for `to` (the account credited; undefined when the verifier cannot name one). */
  | { kind: "nativeOutflow"; lamports: bigint; instruction: string; to: string | undefined }
  /** Authority over one of the user's accounts is granted, changed or ended, or the user's mint/freeze authority is used. */
  | { kind: "authorityGrant"; instruction: string }
  /**
   * The user's key fills an account slot (or a key field of the data) the user never agreed to: a seed base, a
   * nonce authority, a new owner, a multisig signer, an account to allocate or initialize, a token account.
   */
  | { kind: "userRole"; instruction: string; role: string }
  /** The instruction involves the user and the verifier cannot tell what it does. */
  | { kind: "unknown"; reason: string }
  /** A memo. */
  | { kind: "memo"; text: string };

/** One instruction with its accounts resolved to base58 addresses. */
export interface ResolvedInstruction {
  programAddress: string;
  accounts: readonly string[];
  data: Uint8Array;
}

/** Whether `user` is one of `accounts[from..]`. */
export function involves(accounts: readonly string[], user: string, from = 0): boolean {
  for (let i = from; i < accounts.length; i++) if (accounts[i] === user) return true;
  return false;
}

/** Positions of `user` in `accounts`. */
export function slotsOf(accounts: readonly string[], user: string): number[] {
  const slots: number[] = [];
  accounts.forEach((account, i) => {
    if (account === user) slots.push(i);
  });
  return slots;
}

/**
 * The first slot of `user` that is not allowed: `allowed` lists the permitted slot indexes, and `from` (when given)
 * permits every slot from that index on (an authority followed by its multisig signers).
 */
export function disallowedSlot(
  accounts: readonly string[],
  user: string,
  allowed: readonly number[],
  from = Number.POSITIVE_INFINITY,
): number | undefined {
  return slotsOf(accounts, user).find((slot) => slot < from && !allowed.includes(slot));
}
