import type { PublicKey } from "@solana/web3.js";
import type { Intent, Quote } from "@swapintent/client";
import {
  DEFAULT_ALLOWED_PROGRAMS,
  NATIVE_SOL_ADDRESS,
  TOKEN_2022_PROGRAM_ADDRESS,
  TOKEN_PROGRAM_ADDRESS,
  WRAPPED_SOL_MINT_ADDRESS,
} from "./constants.js";
import { SolanaError } from "./errors.js";
import { getAssociatedTokenAddress } from "./getAssociatedTokenAddress.js";
import { type DecodedTransaction, decodeTransaction } from "./internal/decodeTransaction.js";
import type { ResolvedInstruction } from "./internal/effects.js";
import { normalizeAddress, parsePublicKey } from "./internal/parsePublicKey.js";
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
  key: PublicKey | string;
  addresses: ReadonlyArray<PublicKey | string>;
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
  /** The user's address (base58 or `PublicKey`). */
  userAddress: string | PublicKey;
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
export interface CosignVerification {
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

/** Internal: the verification plus the decoded transaction, for the signer. */
export interface VerifiedTransaction extends CosignVerification {
  decoded: DecodedTransaction;
}

/**
 * Verify a `cosign` transaction before anyone signs it, and describe it. Refuses, each with its own `BaseError`
 * code: bytes that are not the one canonical serialization; the user not a required signer or the fee payer; an
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
 *   userAddress: wallet.publicKey,
 *   escrow: { owner: escrowOwner }, // from the wallet's own chain facts
 * });
 * console.log(`${shown.amountLots} lots of ${shown.mint} to ${shown.destination}`);
 * ```
 */
export function verifyCosignTransaction(parameters: VerifyCosignTransactionParameters): CosignVerification {
  const { decoded: _decoded, ...verification } = verifyAndDecode(parameters);
  return verification;
}

/** Internal: {@link verifyCosignTransaction} also returning the decoded transaction. */
export function verifyAndDecode(parameters: VerifyCosignTransactionParameters): VerifiedTransaction {
  const { intent, quote } = parameters;
  if (intent?.approvalMechanism !== "cosign") {
    throw new SolanaError("SOL_INVALID_PARAMETERS", "The intent is not a cosign (Solana) intent.", {
      details: { approvalMechanism: escapeUnsafe(intent?.approvalMechanism) },
    });
  }
  const expectedAmount = quote?.sourceAmountLots;
  if (typeof expectedAmount !== "bigint" || expectedAmount <= 0n) {
    throw new SolanaError(
      "SOL_INVALID_PARAMETERS",
      "The quote's sourceAmountLots must be a positive bigint.",
    );
  }
  const expectedDecimals = quote.sourceAmountDecimals;
  if (
    expectedDecimals !== undefined &&
    !(Number.isInteger(expectedDecimals) && expectedDecimals >= 0 && expectedDecimals <= 255)
  ) {
    throw new SolanaError(
      "SOL_INVALID_PARAMETERS",
      "The quote's sourceAmountDecimals must be an integer 0..255.",
    );
  }
  const user = normalizeAddress(parameters.userAddress, "userAddress");
  const expectedMint =
    quote.sourceToken === NATIVE_SOL_ADDRESS
      ? WRAPPED_SOL_MINT_ADDRESS
      : normalizeAddress(quote.sourceToken, "sourceToken");
  const escrowOf = expectedEscrowResolver(parameters.escrow, expectedMint);
  let allowed: ReadonlySet<string> = DEFAULT_PROGRAM_SET;
  if (parameters.allowedPrograms !== undefined && parameters.allowedPrograms.length > 0) {
    const extended = new Set(DEFAULT_ALLOWED_PROGRAMS);
    for (const program of parameters.allowedPrograms)
      extended.add(normalizeAddress(program, "allowedPrograms"));
    allowed = extended;
  }
  const cap = parameters.maxNativeOutflowLamports ?? 0n;
  if (typeof cap !== "bigint" || cap < 0n) {
    throw new SolanaError(
      "SOL_INVALID_PARAMETERS",
      "maxNativeOutflowLamports must be a non-negative bigint.",
    );
  }

  const decoded = decodeTransaction(intent.paramsToSign?.transaction);
  const message = decoded.transaction.message;
  const staticKeys = message.staticAccountKeys.map((key) => key.toBase58());
  const userSignerIndex = staticKeys.indexOf(user);
  if (userSignerIndex === 0) {
    throw new SolanaError(
      "SOL_USER_IS_FEE_PAYER",
      "The user would pay the fee; the resolver must be the fee payer.",
      {
        details: { userAddress: user },
      },
    );
  }
  if (userSignerIndex < 0 || userSignerIndex >= message.header.numRequiredSignatures) {
    throw new SolanaError(
      "SOL_USER_NOT_SIGNER",
      "The user's key is not a required signer of the transaction.",
      {
        details: { userAddress: user, requiredSignatures: message.header.numRequiredSignatures },
      },
    );
  }
  const keys = [...staticKeys, ...resolveLookups(message.addressTableLookups, parameters.lookupTables ?? [])];
  if (new Set(keys).size !== keys.length) {
    throw new SolanaError(
      "SOL_TX_DECODE_FAILED",
      "The transaction loads an account twice (through a lookup table).",
      {
        details: { accounts: keys.length },
      },
    );
  }

  const state: InstructionTally = {
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
    user,
    userBytes: parsePublicKey(user, "userAddress").toBytes(),
    allowed,
    expectedMint,
    expectedDecimals,
    escrowOf,
  };
  message.compiledInstructions.forEach((compiled, index) => {
    tallyInstruction(state, resolveInstruction(keys, compiled, index), index, context);
  });
  const { programs, memos, nativeOutflow, toEscrow, destination, strangers } = state;
  checkOtherAuthority(state, user, expectedMint);

  const stranger = strangers[0];
  if (stranger !== undefined) {
    const extra = destination !== undefined;
    throw new SolanaError(
      extra ? "SOL_EXTRA_OUTFLOW" : "SOL_DESTINATION_NOT_ALLOWED",
      extra
        ? "Besides the escrow transfer, the user's tokens go to another account."
        : "The user's tokens go to an account that is not the escrow.",
      {
        details: {
          instruction: stranger.instruction,
          destination: stranger.destination,
          amount: stranger.amount,
          ...(parameters.escrow && "owner" in parameters.escrow
            ? { escrowOwner: parameters.escrow.owner }
            : {}),
        },
      },
    );
  }
  if (toEscrow !== expectedAmount) {
    throw new SolanaError("SOL_AMOUNT_MISMATCH", "The amount sent to the escrow differs from the quote.", {
      details: { expected: expectedAmount, actual: toEscrow },
    });
  }
  if (nativeOutflow > cap) {
    throw new SolanaError("SOL_NATIVE_OUTFLOW_TOO_HIGH", "More SOL would leave the user than allowed.", {
      details: { lamports: nativeOutflow, cap },
    });
  }
  if (parameters.checkMemo !== false) checkMemo(intent, memos);
  return {
    userAddress: user,
    userSignerIndex,
    feePayer: staticKeys[0]!,
    mint: expectedMint,
    amountLots: toEscrow,
    destination: destination!,
    nativeOutflowLamports: nativeOutflow,
    programs,
    memos,
    messageBytes: decoded.messageBytes,
    decoded,
  };
}

/**
 * The memo `swapintent:<intent_id>:<secret_hash>` is one of `memos`, byte for byte: the chain records the memo as it
 * is, so no case folding, BOM stripping or normalization. The intent's id and hash come from the service: a
 * character that must not be displayed in them can never match a memo (those are refused), and is never repeated.
 */
function checkMemo(intent: Intent, memos: readonly string[]): void {
  const expectedMemo = `swapintent:${intent.intentId}:${intent.secretHash}`;
  if (!memos.includes(expectedMemo)) {
    throw new SolanaError("SOL_MEMO_MISMATCH", "The transaction's memo does not name this intent.", {
      details: { expected: escapeUnsafe(expectedMemo), memos },
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
  for (const tokenProgram of [TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS])
    userAccounts.add(getAssociatedTokenAddress({ owner: user, mint: expectedMint, tokenProgram }));
  for (const action of tally.otherAuthority) {
    const own =
      userAccounts.has(action.account) ||
      (action.mint !== null &&
        action.account ===
          getAssociatedTokenAddress({ owner: user, mint: action.mint, tokenProgram: action.programAddress }));
    if (own) {
      throw new SolanaError(
        "SOL_OTHER_AUTHORITY",
        "An instruction lets another authority (a delegate, a close or freeze authority) act on the user's token account.",
        {
          details: { instruction: action.instruction, account: action.account, tokenInstruction: action.tag },
        },
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
      throw new SolanaError(
        "SOL_INVALID_PARAMETERS",
        "escrow must be exactly one of { owner }, { tokenAccount } or { unchecked: true }.",
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
        program === TOKEN_PROGRAM_ADDRESS || program === TOKEN_2022_PROGRAM_ADDRESS
          ? getAssociatedTokenAddress({ owner: escrowOwner, mint, tokenProgram: program })
          : "";
    }
  }
  throw new SolanaError(
    "SOL_ESCROW_NOT_SPECIFIED",
    "Say where the user's tokens must go: escrow { owner } or { tokenAccount }, or opt out with { unchecked: true }.",
  );
}

function resolveLookups(
  lookups: ReadonlyArray<{ accountKey: PublicKey; writableIndexes: number[]; readonlyIndexes: number[] }>,
  tables: readonly LookupTableContents[],
): string[] {
  if (lookups.length === 0) return [];
  const contents = new Map<string, string[]>();
  for (const table of tables) {
    contents.set(
      normalizeAddress(table.key, "lookupTables.key"),
      table.addresses.map((a) => normalizeAddress(a, "lookupTables.addresses")),
    );
  }
  const pick = (kind: "writableIndexes" | "readonlyIndexes"): string[] =>
    lookups.flatMap((lookup) => {
      const table = lookup.accountKey.toBase58();
      const addresses = contents.get(table);
      return lookup[kind].map((i) => {
        const address = addresses?.[i];
        if (address === undefined) {
          throw new SolanaError(
            "SOL_LOOKUP_TABLE_UNRESOLVED",
            addresses === undefined
              ? "The transaction uses an address lookup table whose contents were not supplied."
              : "The transaction uses an index beyond the supplied lookup table.",
            { details: { table, index: i } },
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
      throw new SolanaError(
        "SOL_TX_DECODE_FAILED",
        "An instruction refers to an account index that does not exist.",
        {
          details: { instruction: index, accountIndex: i },
        },
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
