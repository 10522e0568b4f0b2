import { type SolanaCosignError, type SolanaCosignErrorCode, solanaError } from "./errors.js";
import { throwIfAborted } from "./internal/abort.js";
import { type ParsedAddress, parseSignerAddress } from "./internal/address.js";
import { type CosignResult, checkUserSignature, readAnswer, readSigner } from "./internal/cosign.js";
import { bytesEqual, ownBytes } from "./internal/hex.js";
import { signWithAdapter } from "./internal/signWithAdapter.js";
import type { VerifiedTransaction, VerifyCosignTransactionParameters } from "./verifyCosignTransaction.js";

/** Bytes the signer may read but not change (Kit's `ReadonlyUint8Array`); at run time a `Uint8Array`. */
export type ReadonlyBytes = Omit<Uint8Array, "copyWithin" | "fill" | "reverse" | "set" | "sort">;

/**
 * The transaction a Kit signer is handed: Kit's `Transaction` shape (message bytes and a map of signer address to
 * signature, null where none yet) with its blockhash lifetime. Built from the verified bytes, never from a decoder
 * of Kit.
 */
export interface KitCosignTransaction {
  readonly messageBytes: ReadonlyBytes;
  readonly signatures: Readonly<Record<string, ReadonlyBytes | null>>;
  /** Kit's `TransactionWithLifetime`: always the blockhash here (a durable nonce is refused before any signer is asked). */
  readonly lifetimeConstraint:
    | { readonly blockhash: string; readonly lastValidBlockHeight: bigint }
    | { readonly nonce: string };
}

/**
 * A `@solana/kit` signer that can add the user's signature: a `TransactionPartialSigner`, which a `KeyPairSigner`
 * is. Only its `address` and `signTransactions` are used (declared structurally, so this package needs no Kit at
 * run time).
 */
export interface KitCosignSigner {
  readonly address: string;
  /** Kit's `TransactionPartialSigner.signTransactions`: one signature dictionary (address to signature) per transaction. */
  signTransactions(
    transactions: readonly KitCosignTransaction[],
    /** Kit's `TransactionPartialSignerConfig`: the caller's `signal`, for a signer that can stop. */
    config?: { abortSignal?: AbortSignal | undefined },
  ): Promise<readonly Readonly<Record<string, Uint8Array>>[]>;
}

/** Parameters of {@link signCosignTransactionWithKit}: everything {@link verifyCosignTransaction} takes, plus the Kit signer. */
export interface SignCosignTransactionWithKitParameters
  extends Omit<VerifyCosignTransactionParameters, "userAddress"> {
  /** The user's Kit signer. Its `address` is the user address that is verified. */
  signer: KitCosignSigner;
  /**
   * Stops waiting for the signer: when it aborts, signing rejects at once with `SOL_SIGNING_ABORTED` (`cause`:
   * `signal.reason`) and never returns an approval, even if the signer answers later. An already aborted signal is
   * refused before any wallet or key is touched. A per-call timeout is `AbortSignal.timeout(ms)`.
   */
  signal?: AbortSignal | undefined;
}

/** The signed transaction and the approval body to submit. */
export interface SignCosignTransactionWithKitReturnType extends CosignResult {}

/** The error {@link signCosignTransactionWithKit} rejects with: a `SwapIntentError` whose code is a `SolanaCosignErrorCode`. */
export type SignCosignTransactionWithKitErrorType = SolanaCosignError<
  // A Kit signer returns signatures, never a transaction: its message cannot change.
  Exclude<SolanaCosignErrorCode, "SOL_WALLET_MESSAGE_CHANGED">
>;

const SOURCE = "kit signer";

/**
 * Verify the intent's cosign transaction (the same checks as {@link verifyCosignTransaction}, over the bytes, with
 * no `@solana/web3.js`) and add the user's signature from a `@solana/kit` signer (a `KeyPairSigner` or any
 * `TransactionPartialSigner`). The signer is asked only after every check passed, and is handed the verified message
 * bytes (unreadable once `signal` aborted) and `signal` as Kit's `config.abortSignal`; the signature it returns for the user's address must verify over them (ed25519, checked here), an entry
 * for another signer must be the signature that signer already has (`SOL_WALLET_SIGNATURES_CHANGED`), and only the
 * user's slot of the received bytes is replaced. A signer that throws or rejects is `SOL_SIGNING_FAILED` (`cause`:
 * what it threw). `signal` aborts a wait on the signer (`SOL_SIGNING_ABORTED`).
 *
 * @example
 * ```ts
 * import { generateKeyPairSigner } from "@solana/kit";
 * import { signCosignTransactionWithKit } from "@swapintent/solana/kit";
 *
 * const signer = await generateKeyPairSigner(); // or the wallet's TransactionPartialSigner
 * const { approval } = await signCosignTransactionWithKit({ intent, quote, escrow: { owner: escrowOwner }, signer });
 * await client.submitApproval({ intentId: intent.intentId, approval });
 * ```
 */
export async function signCosignTransactionWithKit(
  parameters: SignCosignTransactionWithKitParameters,
): Promise<SignCosignTransactionWithKitReturnType> {
  return signWithAdapter(parameters, ["signer"], ({ signer }) => {
    const kitSigner = signer as KitCosignSigner;
    const user = readSigner("Kit signer", () => kitSignerAddress(kitSigner));
    return {
      kind: "ask",
      address: user.address,
      source: SOURCE,
      ask: (verified, signal) =>
        kitSigner.signTransactions([kitTransactionOf(verified, signal)], { abortSignal: signal }),
      read: signatureFromDictionaries,
    };
  });
}

/** The user's signature from a Kit signer's answer: one dictionary, no other signer's entry changed, verified. */
function signatureFromDictionaries(dictionaries: unknown, verified: VerifiedTransaction): Uint8Array {
  const read = readAnswer(SOURCE, "the signature dictionary", () => userSignatureOf(dictionaries, verified));
  if ("wrong" in read) {
    throw solanaError(
      "SOL_WALLET_RESPONSE_INVALID",
      "The Kit signer did not return one signature dictionary.",
      {
        source: SOURCE,
        reason: read.wrong,
      },
    );
  }
  if ("changed" in read) {
    throw solanaError(
      "SOL_WALLET_SIGNATURES_CHANGED",
      "The Kit signer changed a signature other than the user's.",
      {
        source: SOURCE,
        slots: read.changed,
      },
    );
  }
  return checkUserSignature(read.value, verified, SOURCE);
}

/**
 * The user's entry of the one dictionary a Kit signer returned (`value` undefined when absent), or what is wrong
 * with the answer (every read of the answer inside; a throw there is the caller's to turn into a refusal). The one
 * rule of every path: only the user's signature may change. An entry for another signer must be the signature that
 * signer already has (absent or null where it has none), else its slot is `changed`; an entry for an
 * address that signs nothing is a wrong answer.
 */
function userSignatureOf(
  dictionaries: unknown,
  verified: VerifiedTransaction,
): { value: unknown } | { wrong: string } | { changed: number[] } {
  if (!Array.isArray(dictionaries) || dictionaries.length !== 1)
    return { wrong: "not one dictionary per transaction" };
  const dictionary: unknown = dictionaries[0];
  if (typeof dictionary !== "object" || dictionary === null) return { wrong: "dictionary is not an object" };
  const { decoded, userAddress, userSignerIndex } = verified;
  const signers = decoded.staticAccountKeys.slice(0, decoded.signatures.length);
  const slots: number[] = [];
  for (const key of Reflect.ownKeys(dictionary)) {
    const i = typeof key === "string" ? signers.indexOf(key) : -1;
    if (i < 0) return { wrong: "a signature for an address that is not a signer" };
    if (i === userSignerIndex) continue;
    const value: unknown = (dictionary as Record<string, unknown>)[key as string];
    const original = decoded.signatures[i]!;
    const unchanged =
      value === null || value === undefined
        ? original.every((byte) => byte === 0)
        : bytesEqual(ownBytes(value) ?? new Uint8Array(0), original);
    if (!unchanged) slots.push(i);
  }
  if (slots.length > 0) return { changed: slots };
  return {
    value: Object.hasOwn(dictionary, userAddress)
      ? (dictionary as Record<string, unknown>)[userAddress]
      : undefined,
  };
}

/**
 * Kit's transaction shape of the verified bytes: the user's slot null, every other signer's signature as received.
 * Its message cannot be read once `signal` aborted: a Kit `KeyPairSigner` ignores the signal and awaits its public
 * key before it reads the message to sign, so after an abort its private key is never used.
 */
function kitTransactionOf(
  verified: VerifiedTransaction,
  signal: AbortSignal | undefined,
): KitCosignTransaction {
  const { decoded, userSignerIndex } = verified;
  const signatures: Record<string, Uint8Array | null> = {};
  decoded.signatures.forEach((signature, i) => {
    const present = i !== userSignerIndex && signature.some((byte) => byte !== 0);
    signatures[decoded.staticAccountKeys[i]!] = present ? signature.slice() : null;
  });
  const message = verified.messageBytes.slice();
  return Object.freeze({
    get messageBytes() {
      throwIfAborted(signal, "whileSigning");
      return message;
    },
    signatures: Object.freeze(signatures),
    // Durable nonces are refused, so the lifetime is the blockhash; its last valid height is not in the bytes
    // (Kit states the same maximum when it decodes a compiled message).
    lifetimeConstraint: Object.freeze({
      blockhash: decoded.recentBlockhash,
      lastValidBlockHeight: 0xffff_ffff_ffff_ffffn,
    }),
  });
}

function kitSignerAddress(signer: KitCosignSigner | undefined): ParsedAddress {
  if (
    typeof signer !== "object" ||
    signer === null ||
    typeof (signer as { signTransactions?: unknown }).signTransactions !== "function"
  ) {
    throw solanaError(
      "SOL_SIGNER_INVALID",
      "The signer must be a Kit TransactionPartialSigner (signTransactions).",
      {
        reason: "not a Kit partial signer",
      },
    );
  }
  return parseSignerAddress(signer.address, "signer.address");
}
