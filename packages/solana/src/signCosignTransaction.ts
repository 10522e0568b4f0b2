import { ed25519 } from "@noble/curves/ed25519";
import { type Keypair, type PublicKey, VersionedTransaction } from "@solana/web3.js";
import type { Approval } from "@swapintent/client";
import { type SolanaError, solanaError } from "./errors.js";
import { bytesEqual, bytesToHex } from "./internal/hex.js";
import { parsePublicKey } from "./internal/parsePublicKey.js";
import { type VerifyCosignTransactionParameters, verifyAndDecode } from "./verifyCosignTransaction.js";

/** A wallet-adapter style signer: signs a whole transaction and returns it (possibly a new object). */
export interface WalletTransactionSigner {
  publicKey: PublicKey | null;
  signTransaction(transaction: VersionedTransaction): Promise<VersionedTransaction>;
}

/** An external ed25519 signer (hardware wallet, KMS, MPC) that signs the raw message bytes. */
export interface Ed25519MessageSigner {
  publicKey: PublicKey | string;
  /** Sign `message` (the serialized transaction message) with ed25519 and return the 64-byte signature. */
  signMessage(message: Uint8Array): Promise<Uint8Array>;
}

/** Anything that can add the user's signature: a web3.js `Keypair`, a wallet adapter, or an external ed25519 signer. */
export type CosignSigner = Keypair | WalletTransactionSigner | Ed25519MessageSigner;

/** Parameters of {@link signCosignTransaction}: everything {@link verifyCosignTransaction} takes, plus the signer. */
export interface SignCosignTransactionParameters
  extends Omit<VerifyCosignTransactionParameters, "userAddress"> {
  /** The user's signer. Its public key is the user address that is verified. */
  signer: CosignSigner;
}

/** The signed transaction and the approval body to submit. */
export interface SignCosignTransactionReturnType {
  /** Hex of the transaction with the user's signature added and every other signature kept. */
  transaction: string;
  /** The user's address, base58. */
  userAddress: string;
  /** The user's 64-byte signature, hex. */
  signature: string;
  /** How many other signatures a wallet had changed and were restored from the original. */
  restoredSignatures: number;
  /** Body of `POST /intents/{id}/approvals`. */
  approval: Extract<Approval, { type: "cosign" }>;
}

/** The error {@link signCosignTransaction} throws (rejects with): a `BaseError` whose code is a `SolanaErrorCode`. */
export type SignCosignTransactionErrorType = SolanaError;

/**
 * Verify the intent's cosign transaction (see {@link verifyCosignTransaction}) and add the user's signature to the
 * user's slot only, keeping every other signature. With a wallet adapter the returned transaction is checked again:
 * its message bytes must be unchanged and the user's signature must verify; other signature slots are restored
 * from the original (some wallets zero them). Verification always runs before the signer is asked.
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
  const { signer } = parameters;
  const userKey = signerPublicKey(signer);
  const verified = verifyAndDecode({ ...parameters, userAddress: userKey });
  const { transaction, messageBytes, bytes, signaturesOffset } = verified.decoded;
  const index = verified.userSignerIndex;
  let signature: Uint8Array;
  let restoredSignatures = 0;

  if (isKeypair(signer)) {
    // The verified message bytes are signed as they are (the same ed25519 web3.js's own `sign` uses).
    signature = ed25519.sign(messageBytes, signer.secretKey.subarray(0, 32));
  } else if (isWalletSigner(signer)) {
    const returned = await signer.signTransaction(VersionedTransaction.deserialize(bytes));
    let returnedMessage: Uint8Array | undefined;
    try {
      returnedMessage = returned.message.serialize();
    } catch {
      returnedMessage = undefined;
    }
    if (returnedMessage === undefined || !bytesEqual(returnedMessage, messageBytes)) {
      throw solanaError(
        "SOL_WALLET_MESSAGE_CHANGED",
        "The wallet returned a transaction with a different message.",
        { source: "wallet" },
      );
    }
    signature = assertSignature(returned.signatures[index], messageBytes, userKey, "wallet");
    transaction.signatures.forEach((original, i) => {
      if (i !== index && !bytesEqual(original, returned.signatures[i] ?? new Uint8Array()))
        restoredSignatures++;
    });
  } else {
    const returned = await signer.signMessage(messageBytes.slice());
    signature = assertSignature(returned, messageBytes, userKey, "external signer");
  }

  // The received bytes with only the user's slot replaced: every other signature and the message stay as they were.
  const out = bytes.slice();
  out.set(signature, signaturesOffset + 64 * index);
  const hex = bytesToHex(out);
  const userAddress = userKey.toBase58();
  return {
    transaction: hex,
    userAddress,
    signature: bytesToHex(signature),
    restoredSignatures,
    approval: { type: "cosign", signedData: { transaction: hex, userAddress } },
  };
}

function isKeypair(signer: CosignSigner): signer is Keypair {
  return "secretKey" in signer && signer.secretKey instanceof Uint8Array;
}

function isWalletSigner(signer: CosignSigner): signer is WalletTransactionSigner {
  return typeof (signer as WalletTransactionSigner).signTransaction === "function";
}

function signerPublicKey(signer: CosignSigner | undefined): PublicKey {
  const valid =
    signer !== null &&
    typeof signer === "object" &&
    (isKeypair(signer) ||
      isWalletSigner(signer) ||
      typeof (signer as Ed25519MessageSigner).signMessage === "function");
  if (!valid || signer.publicKey === null || signer.publicKey === undefined) {
    throw solanaError(
      "SOL_SIGNER_INVALID",
      "The signer must be a Keypair, a connected wallet with signTransaction, or an ed25519 signMessage signer.",
      { reason: "not a signer or no public key" },
    );
  }
  try {
    return parsePublicKey(signer.publicKey, "signer.publicKey");
  } catch (cause) {
    throw solanaError(
      "SOL_SIGNER_INVALID",
      "The signer's public key is not a Solana address.",
      { reason: "public key is not an address" },
      cause,
    );
  }
}

function assertSignature(
  signature: Uint8Array | undefined,
  message: Uint8Array,
  publicKey: PublicKey,
  source: string,
): Uint8Array {
  let valid = false;
  if (signature instanceof Uint8Array && signature.length === 64) {
    try {
      valid = ed25519.verify(signature, message, publicKey.toBytes());
    } catch {
      valid = false;
    }
  }
  if (!valid) {
    throw solanaError("SOL_SIGNATURE_INVALID", `The ${source} returned a signature that does not verify.`, {
      source,
      userAddress: publicKey.toBase58(),
    });
  }
  return Uint8Array.from(signature!);
}
