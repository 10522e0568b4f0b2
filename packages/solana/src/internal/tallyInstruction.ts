import type { SwapIntentError } from "@swapintent/client";
import { SOLANA_PROGRAM_ADDRESSES } from "../constants.js";
import { solanaError } from "../errors.js";
import {
  associatedTokenInvokedPrograms,
  decodeAssociatedTokenInstruction,
} from "./decodeAssociatedTokenInstruction.js";
import { decodeSystemInstruction } from "./decodeSystemInstruction.js";
import { decodeTokenInstruction, tokenInstructionTarget, userAuthorizes } from "./decodeTokenInstruction.js";
import { type InstructionEffect, involves, type ResolvedInstruction } from "./effects.js";
import { readUintLE } from "./readInt.js";
import type { CheckedMintFacts } from "./readVerifyParameters.js";
import { decodeUtf8Exact, escapeUnsafe, firstUnsafeCodePoint } from "./text.js";

const MEMO_PROGRAMS: ReadonlySet<string> = new Set([
  SOLANA_PROGRAM_ADDRESSES.memo,
  SOLANA_PROGRAM_ADDRESSES.memoV1,
]);

/** What the instructions add up to so far. */
export interface InstructionTally {
  /** Every program the transaction can invoke, in order of first use (top level and through accounts). */
  programs: string[];
  memos: string[];
  /** Lamports leaving the user, each with the account credited (classified once every instruction is read). */
  lamportsOut: { to: string | undefined; lamports: bigint; instruction: number }[];
  /** Tokens the escrow receives (each Token-2022 transfer's fee taken off). */
  toEscrow: bigint;
  /** Tokens a Token-2022 transfer fee withholds from the escrow's transfers. */
  transferFee: bigint;
  destination: string | undefined;
  strangers: { destination: string; amount: bigint; instruction: number }[];
  /** Token accounts the user's own transfers debit (they are the user's, whatever their address). */
  userSources: string[];
  /**
   * Token instructions the user does not authorize (its key in no authority slot) that act on a token account (slot
   * 0): a delegate's transfer or burn, a close or freeze authority. Refused afterwards when that account is the
   * user's.
   */
  otherAuthority: {
    account: string;
    mint: string | null;
    programAddress: string;
    tag: number;
    instruction: number;
  }[];
}

/** What every instruction is checked against. */
export interface InstructionContext {
  user: string;
  userBytes: Uint8Array;
  allowed: ReadonlySet<string>;
  expectedMint: string;
  expectedDecimals: number | undefined;
  escrowOf: (program: string) => string | undefined;
  token2022Mint: CheckedMintFacts | undefined;
  /** The intent's memo (for the details of a refusal). */
  expectedMemo: string;
}

/**
 * Check one instruction and add what it does to `tally`; throws the coded refusal for anything the user did not
 * agree to.
 */
export function tallyInstruction(
  tally: InstructionTally,
  ix: ResolvedInstruction,
  index: number,
  context: InstructionContext,
): void {
  for (const program of [ix.programAddress, ...invokedPrograms(ix)]) {
    if (!context.allowed.has(program)) {
      throw solanaError("SOL_PROGRAM_NOT_ALLOWED", "The transaction calls a program that is not allowed.", {
        program,
        instruction: index,
        ...(program === ix.programAddress ? {} : { via: ix.programAddress }),
      });
    }
    if (!tally.programs.includes(program)) tally.programs.push(program);
  }
  // A program handed a memo program's account can invoke it: a memo (a transfer hook's, an allowed program's) the
  // verifier never reads, beside the intent's one.
  const handed = ix.accounts.find((account) => MEMO_PROGRAMS.has(account));
  if (handed !== undefined && !MEMO_PROGRAMS.has(ix.programAddress)) {
    throw solanaError(
      "SOL_MEMO_MISMATCH",
      "An instruction is handed a memo program: it could write another memo.",
      {
        expected: escapeUnsafe(context.expectedMemo),
        memos: [...tally.memos],
        instruction: index,
        program: handed,
        via: ix.programAddress,
      },
    );
  }
  // AdvanceNonceAccount makes a durable-nonce transaction: it never expires, so whoever holds the user's
  // signature (the resolver co-signs last) could submit it at any later time. Refused wherever it appears.
  if (ix.programAddress === SOLANA_PROGRAM_ADDRESSES.system && readUintLE(ix.data, 0, 4) === 4n) {
    throw solanaError(
      "SOL_DURABLE_NONCE",
      "The transaction uses a durable nonce: it would stay valid indefinitely.",
      { instruction: index },
    );
  }
  if (
    (ix.programAddress === SOLANA_PROGRAM_ADDRESSES.token ||
      ix.programAddress === SOLANA_PROGRAM_ADDRESSES.token2022) &&
    !userAuthorizes(ix, context.user)
  ) {
    const target = tokenInstructionTarget(ix);
    if (target !== undefined)
      tally.otherAuthority.push({ ...target, programAddress: ix.programAddress, instruction: index });
  }
  applyEffect(tally, describeInstruction(ix, context), index, context);
}

/** Programs an instruction invokes through its accounts (cross-program invocations the verifier can name). */
function invokedPrograms(ix: ResolvedInstruction): string[] {
  return ix.programAddress === SOLANA_PROGRAM_ADDRESSES.associatedToken
    ? associatedTokenInvokedPrograms(ix)
    : [];
}

function applyEffect(
  tally: InstructionTally,
  effect: InstructionEffect,
  index: number,
  context: InstructionContext,
): void {
  switch (effect.kind) {
    case "none":
      return;
    case "memo":
      tally.memos.push(effect.text);
      return;
    case "nativeOutflow":
      tally.lamportsOut.push({ to: effect.to, lamports: effect.lamports, instruction: index });
      return;
    case "tokenTransfer":
      applyTransfer(tally, effect, index, context);
      return;
    default:
      throw refusal(effect, index);
  }
}

function refusal(
  effect: Exclude<InstructionEffect, { kind: "none" | "memo" | "nativeOutflow" | "tokenTransfer" }>,
  index: number,
): SwapIntentError {
  switch (effect.kind) {
    case "unknown":
      return solanaError(
        "SOL_INSTRUCTION_UNKNOWN",
        "An instruction involving the user could not be verified.",
        { instruction: index, reason: effect.reason },
      );
    case "authorityGrant":
      return solanaError(
        "SOL_AUTHORITY_GRANT",
        "An instruction grants, changes or ends authority over the user's account.",
        { instruction: index, kind: effect.instruction },
      );
    case "userRole":
      return solanaError(
        "SOL_USER_ROLE_NOT_ALLOWED",
        "An instruction names the user in a role the user did not agree to.",
        { instruction: index, kind: effect.instruction, role: effect.role },
      );
    case "tokenBurn":
      return solanaError("SOL_EXTRA_OUTFLOW", "An instruction burns the user's tokens.", {
        instruction: index,
        mint: effect.mint,
        amount: effect.amount,
      });
  }
}

function applyTransfer(
  tally: InstructionTally,
  effect: Extract<InstructionEffect, { kind: "tokenTransfer" }>,
  index: number,
  context: InstructionContext,
): void {
  const { expectedMint, expectedDecimals, escrowOf } = context;
  if (effect.mint !== null && effect.mint !== expectedMint) {
    throw solanaError("SOL_MINT_MISMATCH", "The user's tokens are not the quote's source mint.", {
      instruction: index,
      expected: expectedMint,
      actual: effect.mint,
    });
  }
  // The quote's lots and decimals both come from the service; inflated together they still display the
  // typed amount. TransferChecked's decimals are checked on chain against the mint, so they must agree.
  if (expectedDecimals !== undefined && effect.decimals !== expectedDecimals) {
    throw solanaError(
      "SOL_DECIMALS_MISMATCH",
      effect.decimals === null
        ? "A Transfer states no decimals; the quote's decimals cannot be checked against the mint."
        : "The transfer's decimals (checked on chain against the mint) are not the quote's.",
      { instruction: index, expected: expectedDecimals, actual: effect.decimals },
    );
  }
  if (!tally.userSources.includes(effect.source)) tally.userSources.push(effect.source);
  const escrow = escrowOf(effect.programAddress);
  // A plain `Transfer` names no mint; only a known escrow account (whose mint the token program matches
  // against the source's) ties it to the quote's mint. With the escrow unchecked it could move any token.
  if (effect.mint === null && escrow === undefined) {
    throw solanaError(
      "SOL_MINT_MISMATCH",
      "A Transfer without a mint cannot be tied to the quote's source mint when the escrow is unchecked.",
      { instruction: index, expected: expectedMint, actual: null },
    );
  }
  // With the escrow unchecked, the first destination stands for it: the user's tokens go to that one account only
  // (a second destination would take part of the quoted amount while the result names the first).
  const pinned = escrow ?? tally.destination ?? effect.destination;
  if (effect.destination === pinned) {
    const fee = token2022FeeOf(tally, effect, index, context);
    tally.toEscrow += effect.amount - fee;
    tally.transferFee += fee;
    tally.destination ??= effect.destination;
  } else {
    tally.strangers.push({ destination: effect.destination, amount: effect.amount, instruction: index });
  }
}

/**
 * What a Token-2022 transfer withholds (0n through SPL Token). Its mint's extensions are not in the transaction, so
 * the wallet must have stated them (`SOL_MINT_EXTENSIONS_UNKNOWN` otherwise): the fee Token-2022 computes,
 * `min(ceil(amount * basisPoints / 10000), maximumFee)`, and the hook's programs, each allowed and listed.
 */
function token2022FeeOf(
  tally: InstructionTally,
  effect: Extract<InstructionEffect, { kind: "tokenTransfer" }>,
  index: number,
  context: InstructionContext,
): bigint {
  if (effect.programAddress !== SOLANA_PROGRAM_ADDRESSES.token2022) return 0n;
  const facts = context.token2022Mint;
  if (facts === undefined) {
    throw solanaError(
      "SOL_MINT_EXTENSIONS_UNKNOWN",
      "The user's tokens move through Token-2022, and the wallet did not state the mint's transfer fee and hook.",
      { instruction: index, program: effect.programAddress },
    );
  }
  for (const program of facts.hookPrograms) {
    if (!context.allowed.has(program)) {
      throw solanaError(
        "SOL_PROGRAM_NOT_ALLOWED",
        "The mint's transfer hook runs a program that is not allowed.",
        {
          program,
          instruction: index,
          via: effect.programAddress,
        },
      );
    }
    if (!tally.programs.includes(program)) tally.programs.push(program);
  }
  const fee = facts.transferFee;
  if (fee === null || fee.basisPoints === 0 || effect.amount === 0n) return 0n;
  const raw = (effect.amount * BigInt(fee.basisPoints) + 9_999n) / 10_000n;
  return raw < fee.maximumFeeLots ? raw : fee.maximumFeeLots;
}

/** Whether the 32 bytes of `key` occur anywhere in `data`. */
function containsKey(data: Uint8Array, key: Uint8Array): boolean {
  outer: for (let i = 0; i + key.length <= data.length; i++) {
    for (let j = 0; j < key.length; j++) if (data[i + j] !== key[j]) continue outer;
    return true;
  }
  return false;
}

function describeInstruction(ix: ResolvedInstruction, context: InstructionContext): InstructionEffect {
  const { user } = context;
  if (
    ix.programAddress === SOLANA_PROGRAM_ADDRESSES.memo ||
    ix.programAddress === SOLANA_PROGRAM_ADDRESSES.memoV1
  ) {
    return describeMemo(ix.data);
  }
  // The user's key inside instruction data is a role the accounts do not show: a seed base, a nonce or mint
  // authority, a new owner or authority. None of them is part of a swap.
  if (containsKey(ix.data, context.userBytes)) {
    return { kind: "userRole", instruction: "instruction data", role: "the user's key in the data" };
  }
  switch (ix.programAddress) {
    case SOLANA_PROGRAM_ADDRESSES.system:
      return decodeSystemInstruction(ix, user);
    case SOLANA_PROGRAM_ADDRESSES.token:
    case SOLANA_PROGRAM_ADDRESSES.token2022:
      return decodeTokenInstruction(ix, user);
    case SOLANA_PROGRAM_ADDRESSES.associatedToken:
      return decodeAssociatedTokenInstruction(ix, user);
    case SOLANA_PROGRAM_ADDRESSES.computeBudget:
      return { kind: "none" };
    default:
      // A program the caller allowed: opaque. It may run only if it cannot reach the user's accounts.
      return involves(ix.accounts, user)
        ? { kind: "unknown", reason: "instruction of a caller-allowed program that involves the user" }
        : { kind: "none" };
  }
}

/**
 * A memo's text, byte for byte as the chain records it. Invalid UTF-8 (which the memo program rejects) and text a
 * wallet must not display (controls, bidi, zero-width, a byte-order mark) are refused here.
 */
function describeMemo(data: Uint8Array): InstructionEffect {
  const text = decodeUtf8Exact(data);
  if (text === undefined) {
    throw solanaError("SOL_MEMO_NOT_UTF8", "A memo is not valid UTF-8.", { bytes: data.length });
  }
  const unsafe = firstUnsafeCodePoint(text);
  if (unsafe !== undefined) {
    throw solanaError(
      "SOL_MEMO_UNSAFE_TEXT",
      "A memo contains a control, bidi or zero-width character that could change what is displayed.",
      { character: unsafe },
    );
  }
  return { kind: "memo", text };
}
