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
  /** Lamports leave the user. */
  | { kind: "nativeOutflow"; lamports: bigint; instruction: string }
  /** Authority over one of the user's accounts is granted, changed or ended, or the user's mint/freeze authority is used. */
  | { kind: "authorityGrant"; instruction: string }
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
