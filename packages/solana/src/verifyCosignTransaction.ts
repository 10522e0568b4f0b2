import type { Intent, Quote } from "@swapintent/client";
import {
  DEFAULT_ALLOWED_PROGRAMS,
  NATIVE_SOL_ADDRESS,
  SOLANA_PROGRAM_ADDRESSES,
  WRAPPED_SOL_MINT_ADDRESS,
} from "./constants.js";
import {
  type SigningErrorCode,
  type SolanaCosignError,
  type SolanaCosignErrorCode,
  solanaError,
} from "./errors.js";
import { getAssociatedTokenAccountAddress } from "./getAssociatedTokenAccountAddress.js";
import { type AddressLike, normalizeAddress, parseAddress } from "./internal/address.js";
import {
  type AddressTableLookup,
  type DecodedTransaction,
  decodeTransaction,
} from "./internal/decodeTransaction.js";
import type { ResolvedInstruction } from "./internal/effects.js";
import {
  type InstructionContext,
  type InstructionTally,
  tallyInstruction,
} from "./internal/tallyInstruction.js";
import { escapeUnsafe } from "./internal/text.js";

/**
 * Where the user's tokens must go. Give the escrow's owner (the sandbox lists it as `escrow_owner` in
 * `GET /sandbox/chains`; the destination must then be its associated token account for the source mint), or the
 * exact escrow token account. `{ unchecked: true }` is an explicit opt-out: any destination is accepted, and every
 * token transfer the user authorizes counts toward the amount.
 */
export type ExpectedEscrow = { owner: string } | { tokenAccount: string } | { unchecked: true };

/** The contents of an address lookup table (for a web3.js `AddressLookupTableAccount` `a`: `{ key: a.key, addresses: a.state.addresses }`). */
export interface LookupTableContents {
  key: AddressLike;
  addresses: ReadonlyArray<AddressLike>;
}

/** Parameters of {@link verifyCosignTransaction}. */
export interface VerifyCosignTransactionParameters {
  /** The intent as `@swapintent/client` returned it; its `paramsToSign.transaction` is checked. */
  intent: Intent;
  /**
   * The quote the user accepted: the source mint and the exact amount in lots, and (when present) the decimals the
   * amount was shown with, which every `TransferChecked` must state (the token program checks them against the mint).
   */
  quote: Pick<Quote, "sourceToken" | "sourceAmountLots"> & {
    sourceAmountDecimals?: Quote["sourceAmountDecimals"] | undefined;
  };
  /** The user's address (base58, e.g. a Kit `Address`, or a web3.js `PublicKey`). */
  userAddress: AddressLike;
  /** Where the user's tokens must go (required; see {@link ExpectedEscrow}). */
  escrow: ExpectedEscrow;
  /** Programs allowed beyond the defaults (System, SPL Token, Token-2022, Associated Token, Compute Budget, Memo). */
  allowedPrograms?: readonly string[] | undefined;
  /** Lamports that may leave the user (transfers, accounts the user funds). Default `0n`. */
  maxNativeOutflowLamports?: bigint | undefined;
  /** Contents of the lookup tables the transaction uses; without them a transaction with lookups is refused. */
  lookupTables?: readonly LookupTableContents[] | undefined;
  /** Require the memo `swapintent:<intent_id>:<secret_hash>` (default true). */
  checkMemo?: boolean | undefined;
}

/** What {@link verifyCosignTransaction} found: the facts a wallet can show the user. */
export interface VerifyCosignTransactionReturnType {
  /** The user's address, base58. */
  userAddress: string;
  /** Position of the user's signature slot. */
  userSignerIndex: number;
  /** The fee payer (signer 0), base58. */
  feePayer: string;
  /** The source mint, base58. */
  mint: string;
  /** Tokens that leave the user, in lots (equal to the quote's `sourceAmountLots`). */
  amountLots: bigint;
  /** The token account receiving them, base58 (the first one when the escrow is unchecked). */
  destination: string;
  /** Lamports that leave the user (at most `maxNativeOutflowLamports`). */
  nativeOutflowLamports: bigint;
  /** Programs the transaction calls, base58, in order of first use. */
  programs: string[];
  /** Memo texts, in order. */
  memos: string[];
  /** The message bytes that signatures cover. */
  messageBytes: Uint8Array;
}

/**
 * The error {@link verifyCosignTransaction} throws: a `SolanaCosignError` of any code except those only a signing
 * path throws (the signer, its answer, the abort of a wait).
 */
export type VerifyCosignTransactionErrorType = SolanaCosignError<
  Exclude<SolanaCosignErrorCode, SigningErrorCode>
>;

/** Internal: the verification plus the decoded transaction, for the signer. */
export interface VerifiedTransaction extends VerifyCosignTransactionReturnType {
  decoded: DecodedTransaction;
}

/**
 * Verify a `cosign` transaction before anyone signs it, and describe it. Refuses, each with its own `SwapIntentError`
 * code: an intent of another approval mechanism; bytes that are not the one canonical serialization; the user not a
 * required signer or the fee payer; an
 * unresolved lookup table; a program outside the allowed set, called directly or through an instruction's accounts;
 * a durable nonce (`AdvanceNonceAccount`); an instruction touching the user that cannot be decoded; the user in a
 * role it did not agree to (a seed base, a nonce authority, a token account, its key inside instruction data); any
 * delegate approval or revoke, authority change, close or reassignment of the user's accounts; another authority
 * (a delegate, a permanent delegate, a close or freeze authority) acting on the user's token account; tokens of
 * another mint, to another destination, or more than one outflow; decimals other than the quote's (when given); an amount other
 * than `sourceAmountLots`; lamports leaving the user beyond the cap; a missing or foreign memo (compared byte for
 * byte), a memo that is not UTF-8 or holds a control, bidi or zero-width character; an `escrow` naming more than
 * one of `owner`, `tokenAccount`, `unchecked: true`.
 *
 * @example
 * ```ts
 * import { verifyCosignTransaction } from "@swapintent/solana";
 *
 * const shown = verifyCosignTransaction({
 *   intent, // from client.createIntent, approvalMechanism "cosign"
 *   quote, // the quote the user accepted
 *   userAddress, // the user's address: base58 text or a PublicKey (a wallet adapter's, once connected: not null)
 *   escrow: { owner: escrowOwner }, // from the wallet's own chain facts
 * });
 * console.log(`${shown.amountLots} lots of ${shown.mint} to ${shown.destination}`);
 * ```
 */
export function verifyCosignTransaction(
  parameters: VerifyCosignTransactionParameters,
): VerifyCosignTransactionReturnType {
  const { decoded: _decoded, ...verification } = verifyAndDecode(parameters);
  return verification;
}

/** Internal: the caller's parameters, checked and normalized before the transaction is decoded. */
interface CheckedParameters {
  intent: Extract<Intent, { approvalMechanism: "cosign" }>;
  expectedAmount: bigint;
  expectedDecimals: number | undefined;
  user: string;
  expectedMint: string;
  escrowOf: (program: string) => string | undefined;
  allowed: ReadonlySet<string>;
  cap: bigint;
  /** The supplied lookup tables' contents by table address, each table once. */
  tables: ReadonlyMap<string, string[]>;
}

/** Internal: {@link verifyCosignTransaction} also returning the decoded transaction. */
export function verifyAndDecode(parameters: VerifyCosignTransactionParameters): VerifiedTransaction {
  const checked = checkParameters(parameters);
  const decoded = decodeTransaction(checked.intent.paramsToSign?.transaction);
  const staticKeys = decoded.staticAccountKeys;
  const userSignerIndex = userSignerIndexOf(staticKeys, checked.user, decoded.header.numRequiredSignatures);
  const keys = accountKeysOf(staticKeys, decoded.addressTableLookups, checked.tables);
  const tally = tallyInstructions(keys, decoded.instructions, checked);
  checkOtherAuthority(tally, checked.user, checked.expectedMint);
  checkTokenOutflow(tally, checked.expectedAmount, parameters.escrow);
  if (tally.nativeOutflow > checked.cap) {
    throw solanaError("SOL_NATIVE_OUTFLOW_TOO_HIGH", "More SOL would leave the user than allowed.", {
      lamports: tally.nativeOutflow,
      cap: checked.cap,
    });
  }
  if (parameters.checkMemo !== false) checkMemo(checked.intent, tally.memos);
  return {
    userAddress: checked.user,
    userSignerIndex,
    feePayer: staticKeys[0]!,
    mint: checked.expectedMint,
    amountLots: tally.toEscrow,
    destination: tally.destination!,
    nativeOutflowLamports: tally.nativeOutflow,
    programs: tally.programs,
    memos: tally.memos,
    messageBytes: decoded.messageBytes,
    decoded,
  };
}

/** The intent, the quote and every option, checked (each refusal before the transaction is even decoded). */
function checkParameters(parameters: VerifyCosignTransactionParameters): CheckedParameters {
  const { intent, quote } = parameters;
  if (intent?.approvalMechanism !== "cosign") {
    throw solanaError("SOL_MECHANISM_MISMATCH", "The intent is not a cosign (Solana) intent.", {
      approvalMechanism: escapeUnsafe(intent?.approvalMechanism),
    });
  }
  const { expectedAmount, expectedDecimals } = checkQuoteAmount(quote);
  const user = normalizeAddress(parameters.userAddress, "userAddress");
  const expectedMint =
    quote.sourceToken === NATIVE_SOL_ADDRESS
      ? WRAPPED_SOL_MINT_ADDRESS
      : normalizeAddress(quote.sourceToken, "sourceToken");
  const escrowOf = expectedEscrowResolver(parameters.escrow, expectedMint);
  const allowed = allowedProgramSet(parameters.allowedPrograms);
  const cap = parameters.maxNativeOutflowLamports ?? 0n;
  if (typeof cap !== "bigint" || cap < 0n) {
    throw solanaError("SOL_INVALID_PARAMETERS", "maxNativeOutflowLamports must be a non-negative bigint.", {
      parameter: "maxNativeOutflowLamports",
    });
  }
  const tables = lookupTableContents(parameters.lookupTables);
  return { intent, expectedAmount, expectedDecimals, user, expectedMint, escrowOf, allowed, cap, tables };
}

/** The quote's amount is a positive bigint that fits a u64 and its decimals, when given, an integer 0..255. */
function checkQuoteAmount(quote: VerifyCosignTransactionParameters["quote"] | undefined): {
  expectedAmount: bigint;
  expectedDecimals: number | undefined;
} {
  const expectedAmount = quote?.sourceAmountLots;
  // A token amount is a u64 on chain: a larger quote can only be matched by transfers that cannot all run.
  if (typeof expectedAmount !== "bigint" || expectedAmount <= 0n || expectedAmount > 0xffff_ffff_ffff_ffffn) {
    throw solanaError(
      "SOL_INVALID_PARAMETERS",
      "The quote's sourceAmountLots must be a positive bigint of at most u64.",
      {
        parameter: "quote.sourceAmountLots",
      },
    );
  }
  const expectedDecimals = quote?.sourceAmountDecimals;
  if (
    expectedDecimals !== undefined &&
    !(Number.isInteger(expectedDecimals) && expectedDecimals >= 0 && expectedDecimals <= 255)
  ) {
    throw solanaError(
      "SOL_INVALID_PARAMETERS",
      "The quote's sourceAmountDecimals must be an integer 0..255.",
      { parameter: "quote.sourceAmountDecimals" },
    );
  }
  return { expectedAmount, expectedDecimals };
}

/** The default programs, plus the caller's (each a valid address). */
function allowedProgramSet(extra: readonly string[] | undefined): ReadonlySet<string> {
  if (extra === undefined || extra.length === 0) return DEFAULT_PROGRAM_SET;
  const extended = new Set(DEFAULT_ALLOWED_PROGRAMS);
  for (const program of extra) extended.add(normalizeAddress(program, "allowedPrograms"));
  return extended;
}

/** The user's signature slot: a required signer, and not signer 0 (the fee payer). */
function userSignerIndexOf(staticKeys: readonly string[], user: string, requiredSignatures: number): number {
  const userSignerIndex = staticKeys.indexOf(user);
  if (userSignerIndex === 0) {
    throw solanaError(
      "SOL_USER_IS_FEE_PAYER",
      "The user would pay the fee; the resolver must be the fee payer.",
      { userAddress: user },
    );
  }
  if (userSignerIndex < 0 || userSignerIndex >= requiredSignatures) {
    throw solanaError("SOL_USER_NOT_SIGNER", "The user's key is not a required signer of the transaction.", {
      userAddress: user,
      requiredSignatures,
    });
  }
  return userSignerIndex;
}

/** Every account the transaction loads (static, then from lookup tables), each once. */
function accountKeysOf(
  staticKeys: readonly string[],
  lookups: Parameters<typeof resolveLookups>[0],
  tables: ReadonlyMap<string, string[]>,
): string[] {
  const keys = [...staticKeys, ...resolveLookups(lookups, tables)];
  if (new Set(keys).size !== keys.length) {
    throw solanaError(
      "SOL_TX_DECODE_FAILED",
      "The transaction loads an account twice (through a lookup table).",
      { reason: "account loaded twice", accounts: keys.length },
    );
  }
  return keys;
}

/** Every instruction, resolved and checked, its effects on the user added up. */
function tallyInstructions(
  keys: readonly string[],
  instructions: ReadonlyArray<Parameters<typeof resolveInstruction>[1]>,
  checked: CheckedParameters,
): InstructionTally {
  const tally: InstructionTally = {
    programs: [],
    memos: [],
    nativeOutflow: 0n,
    toEscrow: 0n,
    destination: undefined,
    strangers: [],
    userSources: [],
    otherAuthority: [],
  };
  const context: InstructionContext = {
    user: checked.user,
    userBytes: parseAddress(checked.user, "userAddress").bytes,
    allowed: checked.allowed,
    expectedMint: checked.expectedMint,
    expectedDecimals: checked.expectedDecimals,
    escrowOf: checked.escrowOf,
  };
  instructions.forEach((compiled, index) => {
    tallyInstruction(tally, resolveInstruction(keys, compiled, index), index, context);
  });
  return tally;
}

/**
 * The user's tokens go to the escrow only, and exactly the quote's amount: a transfer elsewhere is a wrong
 * destination (or, besides an escrow transfer, an extra outflow).
 */
function checkTokenOutflow(
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
        ...(escrow && "owner" in escrow ? { escrowOwner: escrow.owner } : {}),
      },
    );
  }
  if (tally.toEscrow !== expectedAmount) {
    throw solanaError("SOL_AMOUNT_MISMATCH", "The amount sent to the escrow differs from the quote.", {
      expected: expectedAmount,
      actual: tally.toEscrow,
    });
  }
}

/**
 * The memo `swapintent:<intent_id>:<secret_hash>` is one of `memos`, byte for byte: the chain records the memo as it
 * is, so no case folding, BOM stripping or normalization. The intent's id and hash come from the service: a
 * character that must not be displayed in them can never match a memo (those are refused), and is never repeated.
 */
function checkMemo(intent: Intent, memos: readonly string[]): void {
  const expectedMemo = `swapintent:${intent.intentId}:${intent.secretHash}`;
  if (!memos.includes(expectedMemo)) {
    throw solanaError("SOL_MEMO_MISMATCH", "The transaction's memo does not name this intent.", {
      expected: escapeUnsafe(expectedMemo),
      memos,
    });
  }
}

/**
 * No instruction lets another authority act on a token account of the user: a delegate's or permanent delegate's
 * transfer or burn, a close, freeze or thaw by another authority, in the transaction the user signs. The user's
 * token accounts the verifier knows: its associated accounts for the quote's mint (SPL Token and Token-2022), for
 * the mint the instruction names, and every account the user's own transfers debit. Derivations run only when such
 * an instruction exists (never for the honest transaction).
 */
function checkOtherAuthority(tally: InstructionTally, user: string, expectedMint: string): void {
  if (tally.otherAuthority.length === 0) return;
  const userAccounts = new Set(tally.userSources);
  for (const tokenProgram of [SOLANA_PROGRAM_ADDRESSES.token, SOLANA_PROGRAM_ADDRESSES.token2022])
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

function expectedEscrowResolver(
  escrow: ExpectedEscrow | undefined,
  mint: string,
): (program: string) => string | undefined {
  if (escrow !== null && typeof escrow === "object") {
    const { owner, tokenAccount, unchecked } = escrow as Partial<
      Record<"owner" | "tokenAccount" | "unchecked", unknown>
    >;
    // Exactly one way to say where the tokens go: `{ ...defaults, owner }` over a default `unchecked: true` (or an
    // owner and a token account at once) must not silently pick one of them.
    if ([owner !== undefined, tokenAccount !== undefined, unchecked === true].filter(Boolean).length > 1) {
      throw solanaError(
        "SOL_INVALID_PARAMETERS",
        "escrow must be exactly one of { owner }, { tokenAccount } or { unchecked: true }.",
        { parameter: "escrow" },
      );
    }
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
 * The supplied lookup tables by address, every address checked. A table listed twice is refused: with two contents
 * for one table, which one the transaction loads is not the verifier's to guess.
 */
function lookupTableContents(tables: readonly LookupTableContents[] | undefined): Map<string, string[]> {
  const contents = new Map<string, string[]>();
  for (const table of tables ?? []) {
    const key = normalizeAddress(table.key, "lookupTables.key");
    if (contents.has(key)) {
      throw solanaError("SOL_INVALID_PARAMETERS", "lookupTables lists the same table more than once.", {
        parameter: "lookupTables",
      });
    }
    contents.set(
      key,
      table.addresses.map((a) => normalizeAddress(a, "lookupTables.addresses")),
    );
  }
  return contents;
}

function resolveLookups(
  lookups: readonly AddressTableLookup[],
  contents: ReadonlyMap<string, string[]>,
): string[] {
  if (lookups.length === 0) return [];
  const pick = (kind: "writableIndexes" | "readonlyIndexes"): string[] =>
    lookups.flatMap((lookup) => {
      const table = lookup.accountKey;
      const addresses = contents.get(table);
      return lookup[kind].map((i) => {
        const address = addresses?.[i];
        if (address === undefined) {
          throw solanaError(
            "SOL_LOOKUP_TABLE_UNRESOLVED",
            addresses === undefined
              ? "The transaction uses an address lookup table whose contents were not supplied."
              : "The transaction uses an index beyond the supplied lookup table.",
            { table, index: i },
          );
        }
        return address;
      });
    });
  return [...pick("writableIndexes"), ...pick("readonlyIndexes")];
}

function resolveInstruction(
  keys: readonly string[],
  compiled: { programIdIndex: number; accountKeyIndexes: number[]; data: Uint8Array },
  index: number,
): ResolvedInstruction {
  const at = (i: number): string => {
    const key = keys[i];
    if (key === undefined) {
      throw solanaError(
        "SOL_TX_DECODE_FAILED",
        "An instruction refers to an account index that does not exist.",
        { reason: "account index out of range", instruction: index, accountIndex: i },
      );
    }
    return key;
  };
  return {
    programAddress: at(compiled.programIdIndex),
    accounts: compiled.accountKeyIndexes.map(at),
    data: compiled.data,
  };
}

const DEFAULT_PROGRAM_SET: ReadonlySet<string> = new Set(DEFAULT_ALLOWED_PROGRAMS);
