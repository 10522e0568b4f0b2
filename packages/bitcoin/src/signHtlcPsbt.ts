import type { Approval, Intent, Quote } from "@swapintent/client";
import { crypto as btcCrypto, type Psbt, type SignerAsync } from "bitcoinjs-lib";
import { checkSignal, throwIfAborted, untilAborted } from "./abort.js";
import { type BitcoinError, createBitcoinError, signingFailed } from "./errors.js";
import { bytesToHex, equalBytes, publicKeyForError } from "./internal/bytes.js";
import { readEcc, readRecord } from "./internal/readParameters.js";
import { readSigner } from "./internal/readSigner.js";
import { collectWalletSignatures, listSignInputs } from "./internal/walletPsbt.js";
import type { BitcoinEcc, HtlcPolicyParameters, KeySigner, PsbtWalletSigner } from "./types.js";
import {
  type VerifyHtlcPsbtErrorType,
  type VerifyHtlcPsbtReturnType,
  verifyHtlcPsbt,
} from "./verifyHtlcPsbt/verifyHtlcPsbt.js";

const SIGHASH_DEFAULT = 0x00;
const SIGHASH_ALL = 0x01;

/** Parameters of `signHtlcPsbt`. */
export interface SignHtlcPsbtParameters {
  /** The secp256k1 backend: `tiny-secp256k1` or `@bitcoinerlab/secp256k1`. */
  ecc: BitcoinEcc;
  /** The `htlc` intent as the service returned it (checked, not trusted). */
  intent: Intent;
  /** The quote the user accepted: the HTLC must lock exactly `sourceAmountLots`. */
  quote: Pick<Quote, "sourceAmountLots">;
  /** The user's 33-byte compressed key, hex (the intent's `user_source_public_key`). */
  userPublicKey: string | Uint8Array;
  /** A local key (`ecpair`), an external signer, or a wallet's `signPsbt`. */
  signer: KeySigner | PsbtWalletSigner;
  /** Limits; each field left out (or `undefined`) takes its `DEFAULT_HTLC_POLICY` value. */
  policy?: HtlcPolicyParameters | undefined;
  /**
   * The caller's clock, unix milliseconds (default `Date.now()`): the intent's deadline must lie after it, and a
   * time locktime at least two hours before it (`verifyHtlcPsbt`).
   */
  nowMs?: number | undefined;
  /**
   * Check every new signature against its sighash before finalizing. Always on for wallets and for external
   * signers (no `tweak` method); off by default for an in-process key pair with `tweak` (an `ecpair` key), whose
   * signatures come from the secp256k1 backend over sighashes computed here. Set true to check those too.
   */
  alwaysCheckSignatures?: boolean | undefined;
  /**
   * Stop waiting for the signer (a wallet prompt left open, a remote signer that hangs): when it aborts,
   * `signHtlcPsbt` rejects at once with `BTC_SIGNING_ABORTED`, and never returns an approval after, even if the
   * signer answers later. An already aborted signal is refused before the signer or wallet is asked.
   */
  signal?: AbortSignal | undefined;
}

/** What `signHtlcPsbt` returns. */
export interface SignHtlcPsbtReturnType {
  /** The PSBT with the listed inputs signed and finalized, base64. */
  psbt: string;
  /** The approval body to submit: `{ type: "psbt", signedData }`. */
  approval: Extract<Approval, { type: "psbt" }>;
  /** What was verified before signing (HTLC, fee, txid…). */
  verified: VerifyHtlcPsbtReturnType;
}

/** What `signHtlcPsbt` may throw: every `verifyHtlcPsbt` code, then the signing codes (README table). */
export type SignHtlcPsbtErrorType =
  | VerifyHtlcPsbtErrorType
  | BitcoinError<
      | "BTC_SIGNER_KEY_MISMATCH"
      | "BTC_SIGNING_FAILED"
      | "BTC_SIGNING_ABORTED"
      | "BTC_SIGNATURE_INVALID"
      | "BTC_TX_MODIFIED"
      | "BTC_PSBT_FIELD_MODIFIED"
      | "BTC_SIGNATURE_UNEXPECTED"
      | "BTC_WALLET_REJECTED"
      | "BTC_WALLET_BROADCAST"
      | "BTC_SIGNER_UNSUPPORTED"
    >;

/**
 * Verify the deposit PSBT of an `htlc` intent (`verifyHtlcPsbt`, always first, complete before any key is
 * used), then sign and finalize the listed inputs with `signer` (a local key such as an `ecpair` key pair, an
 * external signer, or a wallet's `signPsbt`). Signatures from external signers and wallets are checked against
 * their sighash and against the chain's encoding rules before they are kept (a local key's too with
 * `alwaysCheckSignatures`), and the unsigned transaction must come out byte-identical.
 *
 * @example
 * ```ts
 * import * as ecc from "tiny-secp256k1";
 * import { signHtlcPsbt } from "@swapintent/bitcoin";
 *
 * const { approval } = await signHtlcPsbt({ ecc, intent, quote, userPublicKey: "02…", signer: keyPair });
 * await client.submitApproval({ intentId: intent.intentId, approval });
 * ```
 */
export async function signHtlcPsbt(parameters: SignHtlcPsbtParameters): Promise<SignHtlcPsbtReturnType> {
  // Read once: verifyHtlcPsbt reads the rest of this copy (the intent, quote and policy) the same way.
  const args = (readRecord("", parameters) ?? {}) as unknown as SignHtlcPsbtParameters;
  const ecc = readEcc(args.ecc);
  const { signal } = args;
  checkSignal(signal);
  const verified = verifyHtlcPsbt({ ...args, ecc });
  const signer = readSigner(args.signer);
  if (!equalBytes(signer.publicKey, verified.userPublicKey)) {
    throw createBitcoinError("BTC_SIGNER_KEY_MISMATCH", "The signer's public key is not the user's key.", {
      expected: bytesToHex(verified.userPublicKey),
      actual: publicKeyForError(signer.publicKey),
    });
  }
  throwIfAborted(signal, "beforeSigning");
  // `verified.psbt` is verifyHtlcPsbt's private copy: it is signed in place.
  const psbt = verified.psbt;
  if ("signPsbt" in signer) {
    const request = {
      psbt,
      signInputs: listSignInputs(verified),
      userPublicKey: verified.userPublicKey,
      signer,
    };
    await untilAborted(signal, () => collectWalletSignatures(request));
    for (const { index } of verified.inputs) {
      if (!validateInput({ ecc, psbt, index })) {
        throw createBitcoinError("BTC_SIGNATURE_INVALID", "A signature does not verify for its input.", {
          input: index,
          reason: "doesNotVerify",
        });
      }
    }
  } else {
    const alwaysCheck = args.alwaysCheckSignatures === true;
    await untilAborted(signal, () => signWithKey({ ecc, signer, verified, alwaysCheck, signal }));
  }
  throwIfAborted(signal, "whileSigning");
  for (const { index } of verified.inputs) psbt.finalizeInput(index);
  if (!equalBytes(psbt.data.globalMap.unsignedTx.toBuffer(), verified.unsignedTx)) {
    throw createBitcoinError("BTC_TX_MODIFIED", "Signing changed the unsigned transaction.", {
      where: "global",
      fields: ["unsignedTx"],
    });
  }
  const signedData = psbt.toBase64();
  return { psbt: signedData, approval: { type: "psbt", signedData }, verified };
}

function validateInput(args: { ecc: BitcoinEcc; psbt: Psbt; index: number }): boolean {
  const { ecc, psbt, index } = args;
  try {
    return psbt.validateSignaturesOfInput(index, (pubkey, hash, signature) =>
      pubkey.length === 32
        ? ecc.verifySchnorr(hash, pubkey, signature)
        : // strict: a high-S signature is valid by consensus but not relayed (BIP-62 LOW_S policy)
          ecc.verify(hash, pubkey, signature, true),
    );
  } catch {
    return false;
  }
}

type Made = { hash: Uint8Array; signature: Uint8Array }[];

/**
 * Sign each listed input with a key signer. Every signer object is built (and the signer's abilities checked)
 * before the first signature, so a signer that cannot sign some input is refused before it has signed any. Once
 * `signal` aborts, the signer is asked for nothing more (the caller has already been answered).
 */
async function signWithKey(args: {
  ecc: BitcoinEcc;
  signer: KeySigner;
  verified: VerifyHtlcPsbtReturnType;
  alwaysCheck: boolean;
  signal: AbortSignal | undefined;
}): Promise<void> {
  const { ecc, signer, verified, signal } = args;
  const psbt = verified.psbt;
  const made: Made = [];
  const needsTaproot = verified.inputs.some((i) => i.kind === "p2tr");
  const taproot = needsTaproot ? taprootKeySigner({ ecc, signer, verified, made, signal }) : undefined;
  const ecdsa = ecdsaSigner({ signer, made, signal });
  for (const { index, kind } of verified.inputs) {
    made.length = 0;
    try {
      if (kind === "p2tr") await psbt.signInputAsync(index, taproot!, [SIGHASH_DEFAULT, SIGHASH_ALL]);
      else await psbt.signInputAsync(index, ecdsa, [SIGHASH_ALL]);
    } catch (cause) {
      throwIfAborted(signal, "whileSigning");
      throw createBitcoinError(
        "BTC_SIGNATURE_INVALID",
        "The signer could not sign a listed input.",
        { input: index, reason: "signerFailed" },
        cause,
      );
    }
    // Each signature is checked against the exact sighash bitcoinjs asked the signer to sign.
    const publicKey = kind === "p2tr" ? taproot!.publicKey.slice(1, 33) : signer.publicKey;
    const check = args.alwaysCheck || !signer.tweak;
    const valid =
      made.length === 1 &&
      (!check ||
        made.every(({ hash, signature }) => {
          try {
            return kind === "p2tr"
              ? signature.length === 64 && ecc.verifySchnorr(hash, publicKey, signature)
              : ecc.verify(hash, publicKey, signature, true);
          } catch {
            return false; // malformed signature bytes
          }
        }));
    if (!valid) {
      throw createBitcoinError("BTC_SIGNATURE_INVALID", "A signature does not verify for its input.", {
        input: index,
        reason: made.length === 1 ? "doesNotVerify" : "missing",
      });
    }
  }
}

function ecdsaSigner(args: { signer: KeySigner; made: Made; signal: AbortSignal | undefined }): SignerAsync {
  const { signer, made, signal } = args;
  return {
    publicKey: signer.publicKey,
    sign: async (hash) => {
      throwIfAborted(signal, "whileSigning");
      // The signer gets a copy: a digest it rewrites in place must not become the one its signature is checked against.
      const signature = await signer.sign(Uint8Array.from(hash));
      made.push({ hash, signature });
      return signature;
    },
  };
}

function taprootKeySigner(args: {
  ecc: BitcoinEcc;
  signer: KeySigner;
  verified: VerifyHtlcPsbtReturnType;
  made: Made;
  signal: AbortSignal | undefined;
}): SignerAsync & { publicKey: Uint8Array } {
  const { ecc, signer, verified, made, signal } = args;
  const xOnly = verified.userPublicKey.slice(1);
  const tweak = btcCrypto.taggedHash("TapTweak", xOnly);
  let publicKey: Uint8Array | undefined;
  let schnorr: ((hash: Uint8Array) => Uint8Array | Promise<Uint8Array>) | undefined;
  if (signer.tweak) {
    try {
      const tweaked = signer.tweak(tweak);
      const { signSchnorr } = tweaked;
      publicKey = tweaked.publicKey;
      schnorr = signSchnorr && ((hash) => signSchnorr.call(tweaked, hash));
    } catch (thrown) {
      throw signingFailed("tweak", thrown);
    }
  } else {
    const outputKey = ecc.xOnlyPointAddTweak(xOnly, tweak);
    if (outputKey)
      publicKey = Uint8Array.from([outputKey.parity === 0 ? 0x02 : 0x03, ...outputKey.xOnlyPubkey]);
    schnorr = signer.signSchnorr?.bind(signer);
  }
  if (!schnorr || !publicKey) {
    throw createBitcoinError(
      "BTC_SIGNER_UNSUPPORTED",
      "The signer cannot make Taproot key-path (Schnorr) signatures, which a listed P2TR input needs.",
      { input: verified.inputs.find((i) => i.kind === "p2tr")!.index },
    );
  }
  const sign = schnorr;
  return {
    publicKey,
    sign: async () => {
      throw new Error("a Taproot key-path input needs a Schnorr signature");
    },
    signSchnorr: async (hash) => {
      throwIfAborted(signal, "whileSigning");
      const signature = await sign(Uint8Array.from(hash));
      made.push({ hash, signature });
      return signature;
    },
  };
}
