import { SOLANA_PROGRAM_ADDRESSES, WRAPPED_SOL_MINT_ADDRESS } from "../constants.js";
import { solanaError } from "../errors.js";
import { getAssociatedTokenAccountAddress } from "../getAssociatedTokenAccountAddress.js";
import type { ExpectedEscrow } from "../types.js";
import type { CheckedParameters } from "./readVerifyParameters.js";
import type { InstructionTally } from "./tallyInstruction.js";
import { escapeUnsafe } from "./text.js";

const TOKEN_PROGRAMS = [SOLANA_PROGRAM_ADDRESSES.token, SOLANA_PROGRAM_ADDRESSES.token2022] as const;

/**
 * The user's tokens go to the escrow only, and exactly the quote's amount: a transfer elsewhere is a wrong
 * destination (or, besides an escrow transfer, an extra outflow).
 */
export function checkTokenOutflow(
  tally: InstructionTally,
  expectedAmount: bigint,
  escrow: ExpectedEscrow | undefined,
): void {
  const stranger = tally.strangers[0];
  if (stranger !== undefined) {
    const extra = tally.destination !== undefined;
    throw solanaError(
      extra ? "SOL_EXTRA_OUTFLOW" : "SOL_DESTINATION_NOT_ALLOWED",
      extra
        ? "Besides the escrow transfer, the user's tokens go to another account."
        : "The user's tokens go to an account that is not the escrow.",
      {
        instruction: stranger.instruction,
        destination: stranger.destination,
        amount: stranger.amount,
        ...(escrow && "owner" in escrow && typeof escrow.owner === "string"
          ? { escrowOwner: escrow.owner }
          : {}),
      },
    );
  }
  if (tally.toEscrow !== expectedAmount) {
    throw solanaError("SOL_AMOUNT_MISMATCH", "The amount the escrow receives differs from the quote.", {
      expected: expectedAmount,
      actual: tally.toEscrow,
    });
  }
}

/**
 * Where the user's lamports go. Into the escrow's wrapped SOL account they are a second payment to the escrow
 * (`SOL_AMOUNT_MISMATCH`: the escrow would receive more than the quote). Into the user's own wrapped SOL account,
 * when the quote is paid in wSOL, they are that payment, up to the amount sent to the escrow; the rest, and every
 * lamport to anyone else, counts against `maxNativeOutflowLamports`. Derivations run only when lamports leave the
 * user.
 */
export function checkNativeOutflow(
  tally: InstructionTally,
  checked: CheckedParameters,
): { outflow: bigint; wrapped: bigint } {
  if (tally.lamportsOut.length === 0) return { outflow: 0n, wrapped: 0n };
  const wsol = checked.expectedMint === WRAPPED_SOL_MINT_ADDRESS;
  const escrowAccounts = new Set<string>();
  const userWrapped = new Set<string>();
  if (wsol) {
    for (const tokenProgram of TOKEN_PROGRAMS) {
      const escrowAccount = checked.escrowOf(tokenProgram);
      if (escrowAccount) escrowAccounts.add(escrowAccount);
    }
    // Only SPL Token holds the wSOL mint: the Token-2022 derivation for it can never become a token account, so
    // lamports sent there are lost, not wrapped.
    userWrapped.add(
      getAssociatedTokenAccountAddress({
        owner: checked.user,
        mint: WRAPPED_SOL_MINT_ADDRESS,
        tokenProgram: SOLANA_PROGRAM_ADDRESSES.token,
      }),
    );
  }
  let toEscrow = 0n;
  let wrapped = 0n;
  let outflow = 0n;
  for (const { to, lamports } of tally.lamportsOut) {
    if (to !== undefined && escrowAccounts.has(to)) toEscrow += lamports;
    else if (to !== undefined && userWrapped.has(to)) wrapped += lamports;
    else outflow += lamports;
  }
  if (toEscrow > 0n) {
    throw solanaError(
      "SOL_AMOUNT_MISMATCH",
      "Besides the token transfer, the user's SOL goes to the escrow.",
      {
        expected: checked.expectedAmount,
        actual: tally.toEscrow + toEscrow,
      },
    );
  }
  // Wrapping pays the quote once: lamports wrapped beyond what the escrow receives are an outflow like any other.
  if (wrapped > tally.toEscrow) {
    outflow += wrapped - tally.toEscrow;
    wrapped = tally.toEscrow;
  }
  if (outflow > checked.cap) {
    throw solanaError("SOL_NATIVE_OUTFLOW_TOO_HIGH", "More SOL would leave the user than allowed.", {
      lamports: outflow,
      cap: checked.cap,
    });
  }
  return { outflow, wrapped };
}

/**
 * A cosign carries one memo, `swapintent:<intent_id>:<secret_hash>`, compared byte for byte (the chain records the
 * memo as it is, so no case folding, BOM stripping or normalization): it is what the service documents, and a wallet
 * shows it. Any other memo (however harmless its text reads: "refund waived", a stranger's name) or a second copy
 * is refused, and so is a missing one unless `checkMemo` is false. The intent's id and hash come from the service: a
 * character that must not be displayed in them can never match a memo (those are refused), and is never repeated.
 */
export function checkMemos(checked: CheckedParameters, memos: readonly string[]): void {
  const expected = checked.expectedMemo;
  const foreign = memos.some((memo) => memo !== expected) || memos.length > 1;
  if (foreign || (checked.checkMemo && memos.length === 0)) {
    throw solanaError(
      "SOL_MEMO_MISMATCH",
      foreign
        ? "The transaction carries a memo other than this intent's one."
        : "The transaction's memo does not name this intent.",
      { expected: escapeUnsafe(expected), memos },
    );
  }
}

/**
 * No instruction lets another authority act on a token account of the user: a delegate's or permanent delegate's
 * transfer or burn, a close, freeze or thaw by another authority, in the transaction the user signs. The user's
 * token accounts the verifier knows: its associated accounts for the quote's mint (SPL Token and Token-2022), for
 * the mint the instruction names, and every account the user's own transfers debit. Derivations run only when such
 * an instruction exists (never for the honest transaction).
 */
export function checkOtherAuthority(tally: InstructionTally, user: string, expectedMint: string): void {
  if (tally.otherAuthority.length === 0) return;
  const userAccounts = new Set(tally.userSources);
  for (const tokenProgram of TOKEN_PROGRAMS)
    userAccounts.add(getAssociatedTokenAccountAddress({ owner: user, mint: expectedMint, tokenProgram }));
  for (const action of tally.otherAuthority) {
    const own =
      userAccounts.has(action.account) ||
      (action.mint !== null &&
        action.account ===
          getAssociatedTokenAccountAddress({
            owner: user,
            mint: action.mint,
            tokenProgram: action.programAddress,
          }));
    if (own) {
      throw solanaError(
        "SOL_OTHER_AUTHORITY",
        "An instruction lets another authority (a delegate, a close or freeze authority) act on the user's token account.",
        { instruction: action.instruction, account: action.account, tokenInstruction: action.tag },
      );
    }
  }
}
