import { ed25519 } from "@noble/curves/ed25519";
import { type Keypair, type PublicKey, VersionedTransaction } from "@solana/web3.js";
import { type SolanaCosignError, solanaError } from "./errors.js";
import { type ParsedAddress, parseSignerAddress } from "./internal/address.js";
import {
  type CosignResult,
  checkReturnedTransaction,
  checkUserSignature,
  readAnswer,
  readSigner,
} from "./internal/cosign.js";
import { bytesEqual, ownBytes } from "./internal/hex.js";
import { type CosignAdapter, signWithAdapter } from "./internal/signWithAdapter.js";
import type { VerifyCosignTransactionParameters } from "./verifyCosignTransaction.js";

/** A wallet-adapter style signer: signs a whole transaction and returns it (possibly a new object). */
export interface WalletTransactionSigner {
  publicKey: PublicKey | null;
  /** Adds the wallet's signature to the transaction and returns it (the same object or a new one). */
  signTransaction(transaction: VersionedTransaction): Promise<VersionedTransaction>;
}

/** An external ed25519 signer (hardware wallet, KMS, MPC) that signs the raw message bytes. */
export interface Ed25519MessageSigner {
  publicKey: PublicKey | string;
  /**
   * Sign `message` (the serialized transaction message) with ed25519 and return the 64-byte signature. `options.signal`
   * is the caller's `signal`, for a signer that can stop (a KMS or device request).
   */
  signMessage(message: Uint8Array, options?: { signal?: AbortSignal | undefined }): Promise<Uint8Array>;
}

/** Anything that can add the user's signature: a web3.js `Keypair`, a wallet adapter, or an external ed25519 signer. */
export type CosignSigner = Keypair | WalletTransactionSigner | Ed25519MessageSigner;

/** Parameters of {@link signCosignTransaction}: everything {@link verifyCosignTransaction} takes, plus the signer. */
export interface SignCosignTransactionParameters
  extends Omit<VerifyCosignTransactionParameters, "userAddress"> {
  /** The user's signer. Its public key is the user address that is verified. */
  signer: CosignSigner;
  /**
   * Stops waiting for the wallet or signer: when it aborts, signing rejects at once with `SOL_SIGNING_ABORTED`
   * (`cause`: `signal.reason`) and never returns an approval, even if the wallet answers later. An already aborted
   * signal is refused before any wallet or key is touched. A per-call timeout is `AbortSignal.timeout(ms)`.
   */
  signal?: AbortSignal | undefined;
}

/** The signed transaction and the approval body to submit. */
export interface SignCosignTransactionReturnType extends CosignResult {}

/** The error {@link signCosignTransaction} throws (rejects with): a `SwapIntentError` whose code is a `SolanaCosignErrorCode`. */
export type SignCosignTransactionErrorType = SolanaCosignError;

/**
 * Verify the intent's cosign transaction (see {@link verifyCosignTransaction}) and add the user's signature to the
 * user's slot only, keeping every other signature. Verification always runs before the signer is asked. Every
 * signer is held to one rule: the user's signature must verify over the verified message (ed25519 as the runtime
 * checks it; a Keypair's secret key must derive its public key), and a wallet adapter's returned transaction may differ from what it was
 * sent in the user's signature slot only: other message bytes (`SOL_WALLET_MESSAGE_CHANGED`), another signer's slot
 * changed, zeroed, added or removed (`SOL_WALLET_SIGNATURES_CHANGED` / `SOL_WALLET_RESPONSE_INVALID`), a missing or
 * invalid user signature (`SOL_SIGNATURE_INVALID`) or an answer that is no transaction (`SOL_WALLET_RESPONSE_INVALID`)
 * is refused, never repaired. A wallet or signer that refuses (the user clicks reject) or fails is
 * `SOL_SIGNING_FAILED` (`cause`: what it threw). `signal` aborts a wait on the wallet (`SOL_SIGNING_ABORTED`).
 *
 * @example
 * ```ts
 * import { signCosignTransaction } from "@swapintent/solana";
 *
 * const { approval } = await signCosignTransaction({
 *   intent,
 *   quote,
 *   escrow: { owner: escrowOwner },
 *   signer: wallet, // a Keypair, a wallet adapter ({ publicKey, signTransaction }) or { publicKey, signMessage }
 * });
 * await client.submitApproval({ intentId: intent.intentId, approval });
 * ```
 */
export async function signCosignTransaction(
  parameters: SignCosignTransactionParameters,
): Promise<SignCosignTransactionReturnType> {
  return signWithAdapter(parameters, ["signer"], ({ signer }) => {
    // The signer's kind is read once, with its address: the kind checked is the kind that signs.
    const user = readSigner("signer", () => signerAddress(signer as CosignSigner | undefined));
    return adapterOf(signer as CosignSigner, user);
  });
}

/** The path of each kind of signer; every one is held to the same rule: only the user's slot may change. */
function adapterOf(signer: CosignSigner, user: ParsedAddress & { kind: SignerKind }): CosignAdapter {
  if (user.kind === "keypair") {
    return {
      kind: "local",
      address: user.address,
      sign: (verified) => {
        // The verified message bytes are signed as they are (the same ed25519 web3.js's own `sign` uses). The seed
        // is copied once and must derive the user's public key, so the signature verifies under it (a
        // Keypair-shaped object holding another key's secret is refused before it signs).
        const seed = readSigner("signer", () => ownBytes((signer as Keypair).secretKey)?.slice(0, 32));
        if (seed?.length !== 32 || !bytesEqual(ed25519.getPublicKey(seed), user.bytes)) {
          throw solanaError("SOL_SIGNER_INVALID", "The Keypair's secret key is not its public key's.", {
            reason: "secret key does not derive the public key",
            address: user.address,
          });
        }
        return ed25519.sign(verified.messageBytes, seed);
      },
    };
  }
  if (user.kind === "wallet") {
    return {
      kind: "ask",
      address: user.address,
      source: "wallet",
      ask: (verified) =>
        (signer as WalletTransactionSigner).signTransaction(
          VersionedTransaction.deserialize(verified.decoded.bytes),
        ),
      read: (returned, verified) => {
        // Whatever object came back, its wire bytes are what it says: parsed again and held to the one rule.
        const bytes = readAnswer("wallet", "the returned transaction", () => serializedOf(returned));
        return checkReturnedTransaction(bytes, verified, "wallet");
      },
    };
  }
  return {
    kind: "ask",
    address: user.address,
    source: "external signer",
    ask: (verified, signal) =>
      (signer as Ed25519MessageSigner).signMessage(verified.messageBytes.slice(), { signal }),
    read: (returned, verified) => checkUserSignature(returned, verified, "external signer"),
  };
}

/** The wire bytes of what a wallet adapter returned (`serialize()` of a `VersionedTransaction`), else undefined. */
function serializedOf(returned: unknown): unknown {
  const serialize: unknown =
    typeof returned === "object" && returned !== null
      ? (returned as { serialize?: unknown }).serialize
      : undefined;
  return typeof serialize === "function" ? Reflect.apply(serialize, returned, []) : undefined;
}

type SignerKind = "keypair" | "wallet" | "message";

/** The signer's kind and address, each read once (a signer of no kind has no address). */
function signerAddress(signer: CosignSigner | undefined): ParsedAddress & { kind: SignerKind } {
  const candidate = signer as Partial<Keypair & WalletTransactionSigner & Ed25519MessageSigner> | null;
  const kind: SignerKind | undefined =
    typeof candidate !== "object" || candidate === null
      ? undefined
      : candidate.secretKey instanceof Uint8Array
        ? "keypair"
        : typeof candidate.signTransaction === "function"
          ? "wallet"
          : typeof candidate.signMessage === "function"
            ? "message"
            : undefined;
  const publicKey = kind && candidate!.publicKey;
  if (publicKey === undefined || publicKey === null) {
    throw solanaError(
      "SOL_SIGNER_INVALID",
      "The signer must be a Keypair, a connected wallet with signTransaction, or an ed25519 signMessage signer.",
      { reason: "not a signer or no public key" },
    );
  }
  return { ...parseSignerAddress(publicKey, "signer.publicKey"), kind: kind! };
}
