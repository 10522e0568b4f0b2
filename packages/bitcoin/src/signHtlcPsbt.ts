import type { Approval, Intent, Quote } from "@swapintent/client";
import { crypto as btcCrypto, Psbt, type SignerAsync, script } from "bitcoinjs-lib";
import { bytesToHex, decodeWitnessStack, equalBytes } from "./bytes.js";
import { type BitcoinError, createBitcoinError } from "./errors.js";
import type { BitcoinEcc, HtlcPolicyParameters, KeySigner, PsbtWalletSigner } from "./types.js";
import { type VerifyHtlcPsbtReturnType, verifyHtlcPsbt } from "./verifyHtlcPsbt.js";

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
   * Check every new signature against its sighash before finalizing. Always on for wallets and for external
   * signers (no `tweak` method); off by default for an in-process key pair with `tweak` (an `ecpair` key), whose
   * signatures come from the secp256k1 backend over sighashes computed here. Set true to check those too.
   */
  alwaysCheckSignatures?: boolean | undefined;
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
export type SignHtlcPsbtErrorType = BitcoinError;

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
  const verified = verifyHtlcPsbt(parameters);
  const { ecc, signer } = parameters;
  if (!equalBytes(signer.publicKey, verified.userPublicKey)) {
    throw createBitcoinError("BTC_SIGNER_KEY_MISMATCH", "The signer's public key is not the user's key.", {
      expected: bytesToHex(verified.userPublicKey),
      actual: bytesToHex(signer.publicKey),
    });
  }
  // `verified.psbt` is verifyHtlcPsbt's private copy: it is signed in place.
  const psbt = verified.psbt;
  if ("signPsbt" in signer) {
    await copyWalletSignatures({ psbt, verified, signer });
    for (const { index } of verified.inputs) {
      if (!validateInput({ ecc, psbt, index })) {
        throw createBitcoinError("BTC_SIGNATURE_INVALID", "A signature does not verify for its input.", {
          input: index,
          reason: "doesNotVerify",
        });
      }
    }
  } else {
    await signWithKey({ ecc, signer, verified, alwaysCheck: parameters.alwaysCheckSignatures === true });
  }
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
 * before the first signature, so a signer that cannot sign some input is refused before it has signed any.
 */
async function signWithKey(args: {
  ecc: BitcoinEcc;
  signer: KeySigner;
  verified: VerifyHtlcPsbtReturnType;
  alwaysCheck: boolean;
}): Promise<void> {
  const { ecc, signer, verified } = args;
  const psbt = verified.psbt;
  const made: Made = [];
  const needsTaproot = verified.inputs.some((i) => i.kind === "p2tr");
  const taproot = needsTaproot ? taprootKeySigner({ ecc, signer, verified, made }) : undefined;
  const ecdsa = ecdsaSigner({ signer, made });
  for (const { index, kind } of verified.inputs) {
    made.length = 0;
    try {
      if (kind === "p2tr") await psbt.signInputAsync(index, taproot!, [SIGHASH_DEFAULT, SIGHASH_ALL]);
      else await psbt.signInputAsync(index, ecdsa, [SIGHASH_ALL]);
    } catch (cause) {
      throw createBitcoinError(
        "BTC_SIGNATURE_INVALID",
        "The signer could not sign a listed input.",
        { input: index, reason: "signerFailed" },
        cause,
      );
    }
    // Each signature is checked against the exact sighash bitcoinjs asked the signer to sign.
    const publicKey = kind === "p2tr" ? taproot!.publicKey.slice(1, 33) : signer.publicKey;
    const check = args.alwaysCheck || signer.tweak === undefined;
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

function ecdsaSigner(args: { signer: KeySigner; made: Made }): SignerAsync {
  const { signer, made } = args;
  return {
    publicKey: signer.publicKey,
    sign: async (hash) => {
      const signature = await signer.sign(hash);
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
}): SignerAsync & { publicKey: Uint8Array } {
  const { ecc, signer, verified, made } = args;
  const xOnly = verified.userPublicKey.slice(1);
  const tweak = btcCrypto.taggedHash("TapTweak", xOnly);
  let publicKey: Uint8Array | undefined;
  let schnorr: ((hash: Uint8Array) => Uint8Array | Promise<Uint8Array>) | undefined;
  if (signer.tweak) {
    const tweaked = signer.tweak(tweak);
    publicKey = tweaked.publicKey;
    schnorr = tweaked.signSchnorr?.bind(tweaked);
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
      const signature = await sign(hash);
      made.push({ hash, signature });
      return signature;
    },
  };
}

async function copyWalletSignatures(args: {
  psbt: Psbt;
  verified: VerifyHtlcPsbtReturnType;
  signer: PsbtWalletSigner;
}): Promise<void> {
  const { psbt, verified, signer } = args;
  const returned = await signer.signPsbt({
    psbt: psbtForWallet(verified),
    inputs: verified.inputs.map((i) => i.index),
  });
  let signed: Psbt;
  try {
    signed = Psbt.fromBase64(returned);
  } catch (cause) {
    throw createBitcoinError(
      "BTC_PSBT_INVALID",
      "The wallet returned something that is not a PSBT.",
      { source: "wallet" },
      cause,
    );
  }
  if (!equalBytes(signed.data.globalMap.unsignedTx.toBuffer(), verified.unsignedTx)) {
    throw createBitcoinError("BTC_TX_MODIFIED", "The wallet returned a different transaction.", {
      where: "global",
      fields: ["unsignedTx"],
    });
  }
  // Take only the signatures of the listed inputs; every other field stays as verified.
  for (const { index, kind } of verified.inputs) {
    const input = signed.data.inputs[index]!;
    const witness = input.finalScriptWitness ? decodeWitnessStack(input.finalScriptWitness) : null;
    if (kind === "p2tr") {
      const sig = input.tapKeySig ?? (witness?.length === 1 ? witness[0] : undefined);
      const expected = psbt.data.inputs[index]!.sighashType ?? SIGHASH_DEFAULT;
      assertTaprootSignatureShape({ index, sig, expected });
      psbt.updateInput(index, { tapKeySig: sig! });
    } else {
      const partial = input.partialSig?.find((p) => equalBytes(p.pubkey, verified.userPublicKey));
      const sig = partial?.signature ?? (witness?.length === 2 ? witness[0] : undefined);
      assertEcdsaSignatureShape({ index, sig });
      psbt.updateInput(index, { partialSig: [{ pubkey: verified.userPublicKey, signature: sig! }] });
    }
  }
}

/**
 * The verified PSBT as the wallet sees it: unlisted inputs keep only their UTXO data (needed for the sighash), so
 * nothing the service put there (leaf scripts, derivation paths into the user's wallet, sighash types, final
 * witnesses, proprietary fields) can lead a wallet that signs whatever it recognizes into signing them.
 */
function psbtForWallet(verified: VerifyHtlcPsbtReturnType): string {
  const copy = Psbt.fromBase64(verified.psbt.toBase64());
  const listed = new Set(verified.inputs.map((i) => i.index));
  copy.data.inputs.forEach((input, index) => {
    if (listed.has(index)) return;
    for (const key of Object.keys(input) as (keyof typeof input)[]) {
      if (key !== "witnessUtxo" && key !== "nonWitnessUtxo") delete input[key];
    }
  });
  return copy.toBase64();
}

/**
 * A key-path signature as the chain accepts it (BIP-341): 64 bytes (SIGHASH_DEFAULT), or 65 bytes whose last byte
 * is a sighash type other than 0x00 (a 65-byte signature ending in 0x00 fails with SCHNORR_SIG_HASHTYPE). bitcoinjs
 * checks the signature against the digest of the PSBT's sighash type, ignoring the signature's own byte; on chain
 * the byte decides, so the two must agree, and only DEFAULT/ALL are signed for.
 */
function assertTaprootSignatureShape(args: {
  index: number;
  sig: Uint8Array | undefined;
  expected: number;
}): void {
  const { index, sig, expected } = args;
  if (!sig) {
    throw createBitcoinError("BTC_SIGNATURE_INVALID", "The wallet left a listed input unsigned.", {
      input: index,
      reason: "missing",
    });
  }
  if (sig.length !== 64 && sig.length !== 65) {
    throw createBitcoinError("BTC_SIGNATURE_INVALID", "A Taproot signature is neither 64 nor 65 bytes.", {
      input: index,
      reason: "length",
      length: sig.length,
    });
  }
  const byte = sig.length === 65 ? sig[64]! : undefined;
  const agrees =
    byte === undefined ? expected === SIGHASH_DEFAULT : byte === SIGHASH_ALL && expected === SIGHASH_ALL;
  if (!agrees) {
    throw createBitcoinError(
      "BTC_SIGHASH_NOT_ALLOWED",
      "The wallet's signature carries a sighash byte the chain refuses or other than the PSBT's (DEFAULT/ALL).",
      { input: index, sighashType: byte ?? null, expected: [expected] },
    );
  }
}

/**
 * An ECDSA signature as the chain's standard rules accept it: strict DER (BIP-66) that re-encodes to the same
 * bytes, and SIGHASH_ALL. Low S is checked with the signature itself (`ecc.verify(…, strict)`).
 */
function assertEcdsaSignatureShape(args: { index: number; sig: Uint8Array | undefined }): void {
  const { index, sig } = args;
  if (!sig) {
    throw createBitcoinError("BTC_SIGNATURE_INVALID", "The wallet left a listed input unsigned.", {
      input: index,
      reason: "missing",
    });
  }
  if (sig[sig.length - 1] !== SIGHASH_ALL) {
    throw createBitcoinError("BTC_SIGHASH_NOT_ALLOWED", "The wallet signed with a sighash other than ALL.", {
      input: index,
      sighashType: sig[sig.length - 1] ?? null,
      expected: [SIGHASH_ALL],
    });
  }
  let canonical = false;
  try {
    const decoded = script.signature.decode(sig);
    canonical = equalBytes(script.signature.encode(decoded.signature, decoded.hashType), sig);
  } catch {
    canonical = false;
  }
  if (!canonical) {
    throw createBitcoinError("BTC_SIGNATURE_INVALID", "An ECDSA signature is not strict DER.", {
      input: index,
      reason: "notDer",
    });
  }
}
