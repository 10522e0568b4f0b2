import { ed25519 } from "@noble/curves/ed25519";
import { type Keypair, type PublicKey, VersionedTransaction } from "@solana/web3.js";
import { type SolanaError, solanaError } from "./errors.js";
import { type ParsedAddress, parseSignerAddress } from "./internal/address.js";
import {
  assembleCosign,
  type CosignResult,
  checkUserSignature,
  readAnswer,
  readSigner,
} from "./internal/cosign.js";
import { bytesEqual, ownBytes } from "./internal/hex.js";
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
export interface SignCosignTransactionReturnType extends CosignResult {}

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
  const user = readSigner("signer", () => signerAddress(signer));
  const verified = verifyAndDecode({ ...parameters, userAddress: user.address });
  const { messageBytes } = verified;

  if (isKeypair(signer)) {
    // The verified message bytes are signed as they are (the same ed25519 web3.js's own `sign` uses).
    return assembleCosign(verified, ed25519.sign(messageBytes, signer.secretKey.subarray(0, 32)));
  }
  if (isWalletSigner(signer)) {
    const index = verified.userSignerIndex;
    const returned = await signer.signTransaction(VersionedTransaction.deserialize(verified.decoded.bytes));
    let returnedMessage: Uint8Array | undefined;
    try {
      returnedMessage = ownBytes(returned.message.serialize());
    } catch {
      returnedMessage = undefined;
    }
    if (returnedMessage === undefined || !bytesEqual(returnedMessage, messageBytes)) {
      throw solanaError(
        "SOL_WALLET_MESSAGE_CHANGED",
        "The wallet returned a transaction with a different message.",
        {
          source: "wallet",
        },
      );
    }
    const signatures = readAnswer("wallet", "signatures", () => {
      const list: unknown = returned.signatures;
      return Array.isArray(list) ? [...(list as unknown[])] : undefined;
    });
    if (signatures === undefined) {
      throw solanaError(
        "SOL_WALLET_RESPONSE_INVALID",
        "The wallet returned a transaction without signatures.",
        {
          source: "wallet",
          reason: "signatures is not an array",
        },
      );
    }
    const signature = checkUserSignature(signatures[index], verified, "wallet");
    // Other slots are restored from the original (some wallets zero them); they are counted, not refused.
    const restored = verified.decoded.signatures.filter((original, i) => {
      const other = i === index ? undefined : ownBytes(signatures[i]);
      return i !== index && (other === undefined || !bytesEqual(original, other));
    }).length;
    return assembleCosign(verified, signature, restored);
  }
  const returned = await signer.signMessage(messageBytes.slice());
  return assembleCosign(verified, checkUserSignature(returned, verified, "external signer"));
}

function isKeypair(signer: CosignSigner): signer is Keypair {
  return "secretKey" in signer && signer.secretKey instanceof Uint8Array;
}

function isWalletSigner(signer: CosignSigner): signer is WalletTransactionSigner {
  return typeof (signer as WalletTransactionSigner).signTransaction === "function";
}

function signerAddress(signer: CosignSigner | undefined): ParsedAddress {
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
  return parseSignerAddress(signer.publicKey, "signer.publicKey");
}
