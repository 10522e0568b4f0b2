import type { Intent } from "@swapintent/client";
import {
  DEFAULT_ALLOWED_PROGRAMS,
  NATIVE_SOL_ADDRESS,
  SOLANA_PROGRAM_ADDRESSES,
  WRAPPED_SOL_MINT_ADDRESS,
} from "../constants.js";
import { ownErrors, solanaError } from "../errors.js";
import { getAssociatedTokenAccountAddress } from "../getAssociatedTokenAccountAddress.js";
import type { ExpectedEscrow, Token2022MintFacts, VerifyCosignTransactionParameters } from "../types.js";
import { normalizeAddress } from "./address.js";
import { escapeUnsafe } from "./text.js";

/** The caller's parameters, checked and normalized before the transaction is decoded. */
export interface CheckedParameters {
  intent: Extract<Intent, { approvalMechanism: "cosign" }>;
  /** The intent's transaction hex, read once. */
  transaction: unknown;
  /** The memo the intent's transaction must carry (`swapintent:<intent_id>:<secret_hash>`). */
  expectedMemo: string;
  expectedAmount: bigint;
  expectedDecimals: number | undefined;
  user: string;
  expectedMint: string;
  escrowOf: (program: string) => string | undefined;
  /** The escrow as the caller gave it (read once). */
  escrow: ExpectedEscrow;
  allowed: ReadonlySet<string>;
  cap: bigint;
  /** The supplied lookup tables' contents by table address, each table once. */
  tables: ReadonlyMap<string, string[]>;
  checkMemo: boolean;
  /** The wallet's facts about a Token-2022 source mint, when it gave them. */
  token2022Mint: CheckedMintFacts | undefined;
}

/** {@link Token2022MintFacts}, checked: addresses normalized. */
export interface CheckedMintFacts {
  transferFee: { basisPoints: number; maximumFeeLots: bigint } | null;
  /** The hook's program followed by the programs its extra accounts name; empty without a hook. */
  hookPrograms: readonly string[];
}

/**
 * Read one field of an object the caller passed, once: a getter or Proxy trap that throws is
 * `SOL_INVALID_PARAMETERS` naming the field (its throw the `cause`), never a stray error.
 */
export function readField(owner: unknown, key: string, parameter: string): unknown {
  if (owner === undefined || owner === null) return undefined;
  try {
    return (owner as Record<string, unknown>)[key];
  } catch (cause) {
    if (ownErrors.has(cause as object)) throw cause;
    throw solanaError("SOL_INVALID_PARAMETERS", `${parameter} could not be read.`, { parameter }, cause);
  }
}

function invalid(parameter: string, message: string): never {
  throw solanaError("SOL_INVALID_PARAMETERS", message, { parameter });
}

/** A copy of an array the caller passed (each element read once), or undefined; anything else is refused. */
function readArray(value: unknown, parameter: string): unknown[] | undefined {
  if (value === undefined) return undefined;
  let copy: unknown[] | undefined;
  try {
    copy = Array.isArray(value) ? Array.from(value as unknown[]) : undefined;
  } catch (cause) {
    throw solanaError("SOL_INVALID_PARAMETERS", `${parameter} could not be read.`, { parameter }, cause);
  }
  return copy ?? invalid(parameter, `${parameter} must be an array.`);
}

/** The intent, the quote and every option, checked (each refusal before the transaction is even decoded). */
export function readVerifyParameters(parameters: VerifyCosignTransactionParameters): CheckedParameters {
  if (typeof parameters !== "object" || parameters === null)
    invalid("parameters", "parameters must be an object.");
  const field = (key: string) => readField(parameters, key, key);
  const intent = field("intent");
  const mechanism = readField(intent, "approvalMechanism", "intent.approvalMechanism");
  if (mechanism !== "cosign") {
    throw solanaError("SOL_MECHANISM_MISMATCH", "The intent is not a cosign (Solana) intent.", {
      approvalMechanism: escapeUnsafe(mechanism),
    });
  }
  const expectedMemo = memoOf(intent);
  const transaction = readField(
    readField(intent, "paramsToSign", "intent.paramsToSign"),
    "transaction",
    "intent.paramsToSign.transaction",
  );
  const quote = field("quote");
  const { expectedAmount, expectedDecimals } = checkQuoteAmount(quote);
  const user = normalizeAddress(field("userAddress"), "userAddress");
  const sourceToken = readField(quote, "sourceToken", "quote.sourceToken");
  const expectedMint =
    sourceToken === NATIVE_SOL_ADDRESS
      ? WRAPPED_SOL_MINT_ADDRESS
      : normalizeAddress(sourceToken, "sourceToken");
  const escrow = field("escrow") as ExpectedEscrow;
  const escrowOf = expectedEscrowResolver(escrow, expectedMint);
  const allowed = allowedProgramSet(readArray(field("allowedPrograms"), "allowedPrograms"));
  const cap = field("maxNativeOutflowLamports") ?? 0n;
  if (typeof cap !== "bigint" || cap < 0n)
    invalid("maxNativeOutflowLamports", "maxNativeOutflowLamports must be a non-negative bigint.");
  const tables = lookupTableContents(readArray(field("lookupTables"), "lookupTables"));
  const checkMemo = field("checkMemo") ?? true;
  if (typeof checkMemo !== "boolean") invalid("checkMemo", "checkMemo must be a boolean.");
  const token2022Mint = readMintFacts(field("token2022Mint"));
  return {
    intent: intent as CheckedParameters["intent"],
    transaction,
    expectedMemo,
    expectedAmount,
    expectedDecimals,
    user,
    expectedMint,
    escrowOf,
    escrow,
    allowed,
    cap,
    tables,
    checkMemo,
    token2022Mint,
  };
}

/** `swapintent:<intent_id>:<secret_hash>`; an id or hash that is not text can match no memo (and is not repeated). */
function memoOf(intent: unknown): string {
  const id = readField(intent, "intentId", "intent.intentId");
  const hash = readField(intent, "secretHash", "intent.secretHash");
  return `swapintent:${typeof id === "string" ? id : "?"}:${typeof hash === "string" ? hash : "?"}`;
}

/** The quote's amount is a positive bigint that fits a u64 and its decimals, when given, an integer 0..255. */
function checkQuoteAmount(quote: unknown): { expectedAmount: bigint; expectedDecimals: number | undefined } {
  const expectedAmount = readField(quote, "sourceAmountLots", "quote.sourceAmountLots");
  // A token amount is a u64 on chain: a larger quote can only be matched by transfers that cannot all run.
  if (typeof expectedAmount !== "bigint" || expectedAmount <= 0n || expectedAmount > 0xffff_ffff_ffff_ffffn)
    invalid(
      "quote.sourceAmountLots",
      "The quote's sourceAmountLots must be a positive bigint of at most u64.",
    );
  const expectedDecimals = readField(quote, "sourceAmountDecimals", "quote.sourceAmountDecimals");
  if (
    expectedDecimals !== undefined &&
    !(
      Number.isInteger(expectedDecimals) &&
      (expectedDecimals as number) >= 0 &&
      (expectedDecimals as number) <= 255
    )
  )
    invalid("quote.sourceAmountDecimals", "The quote's sourceAmountDecimals must be an integer 0..255.");
  return { expectedAmount, expectedDecimals: expectedDecimals as number | undefined };
}

const DEFAULT_PROGRAM_SET: ReadonlySet<string> = new Set(DEFAULT_ALLOWED_PROGRAMS);

/** The default programs, plus the caller's (each a valid address). */
function allowedProgramSet(extra: readonly unknown[] | undefined): ReadonlySet<string> {
  if (extra === undefined || extra.length === 0) return DEFAULT_PROGRAM_SET;
  const extended = new Set(DEFAULT_ALLOWED_PROGRAMS);
  for (const program of extra) extended.add(normalizeAddress(program, "allowedPrograms"));
  return extended;
}

function expectedEscrowResolver(escrow: unknown, mint: string): (program: string) => string | undefined {
  if (escrow !== null && typeof escrow === "object") {
    const owner = readField(escrow, "owner", "escrow.owner");
    const tokenAccount = readField(escrow, "tokenAccount", "escrow.tokenAccount");
    const unchecked = readField(escrow, "unchecked", "escrow.unchecked");
    // Exactly one way to say where the tokens go: `{ ...defaults, owner }` over a default `unchecked: true` (or an
    // owner and a token account at once) must not silently pick one of them.
    if ([owner !== undefined, tokenAccount !== undefined, unchecked === true].filter(Boolean).length > 1)
      invalid("escrow", "escrow must be exactly one of { owner }, { tokenAccount } or { unchecked: true }.");
    if (unchecked === true) return () => undefined;
    if (tokenAccount !== undefined) {
      const account = normalizeAddress(tokenAccount, "escrow.tokenAccount");
      return () => account;
    }
    if (owner !== undefined) {
      const escrowOwner = normalizeAddress(owner, "escrow.owner");
      return (program) =>
        program === SOLANA_PROGRAM_ADDRESSES.token || program === SOLANA_PROGRAM_ADDRESSES.token2022
          ? getAssociatedTokenAccountAddress({ owner: escrowOwner, mint, tokenProgram: program })
          : "";
    }
  }
  throw solanaError(
    "SOL_ESCROW_NOT_SPECIFIED",
    "Say where the user's tokens must go: escrow { owner } or { tokenAccount }, or opt out with { unchecked: true }.",
    {},
  );
}

/**
 * The supplied lookup tables by address, every entry read once and every address checked: an entry that is not an
 * object, or whose `addresses` is not an array, is `SOL_INVALID_PARAMETERS`. A table listed twice is refused: with
 * two contents for one table, which one the transaction loads is not the verifier's to guess.
 */
function lookupTableContents(tables: readonly unknown[] | undefined): Map<string, string[]> {
  const contents = new Map<string, string[]>();
  for (const table of tables ?? []) {
    if (typeof table !== "object" || table === null)
      invalid("lookupTables", "Each lookupTables entry must be { key, addresses }.");
    const key = normalizeAddress(readField(table, "key", "lookupTables.key"), "lookupTables.key");
    if (contents.has(key)) invalid("lookupTables", "lookupTables lists the same table more than once.");
    const addresses = readArray(
      readField(table, "addresses", "lookupTables.addresses"),
      "lookupTables.addresses",
    );
    if (addresses === undefined)
      invalid("lookupTables.addresses", "Each lookup table needs its addresses (an array).");
    contents.set(
      key,
      addresses.map((a) => normalizeAddress(a, "lookupTables.addresses")),
    );
  }
  return contents;
}

/** The basis points of a fee: an integer 0..10000. */
function readBasisPoints(value: unknown): number {
  if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > 10_000)
    invalid("token2022Mint.transferFee.basisPoints", "transferFee.basisPoints must be an integer 0..10000.");
  return value as number;
}

/** The wallet's Token-2022 facts, checked: each of `transferFee` and `transferHook` stated (null for none). */
function readMintFacts(facts: unknown): CheckedMintFacts | undefined {
  if (facts === undefined) return undefined;
  if (typeof facts !== "object" || facts === null)
    invalid("token2022Mint", "token2022Mint must be an object.");
  const fee = readField(facts, "transferFee", "token2022Mint.transferFee");
  const hook = readField(facts, "transferHook", "token2022Mint.transferHook");
  let transferFee: CheckedMintFacts["transferFee"] = null;
  if (fee !== null) {
    if (typeof fee !== "object")
      invalid("token2022Mint.transferFee", "token2022Mint.transferFee must be stated (null for none).");
    const basisPoints = readBasisPoints(
      readField(fee, "basisPoints", "token2022Mint.transferFee.basisPoints"),
    );
    const maximumFeeLots = readField(fee, "maximumFeeLots", "token2022Mint.transferFee.maximumFeeLots");
    if (typeof maximumFeeLots !== "bigint" || maximumFeeLots < 0n || maximumFeeLots > 0xffff_ffff_ffff_ffffn)
      invalid("token2022Mint.transferFee.maximumFeeLots", "transferFee.maximumFeeLots must be a u64 bigint.");
    transferFee = { basisPoints, maximumFeeLots };
  }
  const hookPrograms: string[] = [];
  if (hook !== null) {
    if (typeof hook !== "object")
      invalid("token2022Mint.transferHook", "token2022Mint.transferHook must be stated (null for none).");
    hookPrograms.push(
      normalizeAddress(
        readField(hook, "programAddress", "token2022Mint.transferHook.programAddress"),
        "token2022Mint.transferHook.programAddress",
      ),
    );
    const extra = readArray(
      readField(hook, "extraPrograms", "token2022Mint.transferHook.extraPrograms"),
      "token2022Mint.transferHook.extraPrograms",
    );
    for (const program of extra ?? []) {
      const address = normalizeAddress(program, "token2022Mint.transferHook.extraPrograms");
      if (!hookPrograms.includes(address)) hookPrograms.push(address);
    }
  }
  return { transferFee, hookPrograms };
}
