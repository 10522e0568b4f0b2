import type { Approval, Intent, Quote } from "@swapintent/client";
import { crypto as btcCrypto, Psbt, type SignerAsync } from "bitcoinjs-lib";
import { decodeWitnessStack, equalBytes } from "./bytes.js";
import { createBitcoinError } from "./errors.js";
import type { BitcoinEcc, HtlcPolicy, KeySigner, PsbtWalletSigner } from "./types.js";
import { type VerifiedHtlcPsbt, verifyHtlcPsbt } from "./verifyHtlcPsbt.js";

const SIGHASH_DEFAULT = 0x00;
const SIGHASH_ALL = 0x01;

/**
 * Verify the deposit PSBT of an `htlc` intent (`verifyHtlcPsbt`, always first), then sign and finalize the
 * listed inputs with `signer` (a local key such as an `ecpair` key pair, an external signer, or a wallet's
 * `signPsbt`). Signatures from external signers and wallets are checked against their sighash before they are
 * kept (a local key's too with `alwaysCheckSignatures`), and the unsigned transaction must come out byte-identical.
 * Returns the signed base64 PSBT and the approval body to submit (`{type: "psbt", signedData}`).
 */
export async function signHtlcPsbt(args: {
  ecc: BitcoinEcc;
  intent: Intent;
  quote: Pick<Quote, "sourceAmountLots">;
  /** The user's 33-byte compressed key, hex (the intent's `user_source_public_key`). */
  userPublicKey: string | Uint8Array;
  signer: KeySigner | PsbtWalletSigner;
  policy?: Partial<HtlcPolicy>;
  /**
   * Check every new signature against its sighash before finalizing. Always on for wallets and for external
   * signers (no `tweak` method); off by default for an in-process key pair with `tweak` (an `ecpair` key), whose
   * signatures come from the secp256k1 backend over sighashes computed here. Set true to check those too.
   */
  alwaysCheckSignatures?: boolean;
}): Promise<{ psbt: string; approval: Extract<Approval, { type: "psbt" }>; verified: VerifiedHtlcPsbt }> {
  const verified = verifyHtlcPsbt(args);
  const { ecc, signer } = args;
  if (!equalBytes(signer.publicKey, verified.userPublicKey)) {
    throw createBitcoinError("BTC_SIGNER_KEY_MISMATCH", "The signer's public key is not the user's key.");
  }
  // `verified.psbt` is verifyHtlcPsbt's private copy: it is signed in place.
  const psbt = verified.psbt;

  if ("signPsbt" in signer) {
    await copyWalletSignatures({ psbt, verified, signer });
    for (const { index } of verified.inputs) {
      let valid = false;
      try {
        valid = psbt.validateSignaturesOfInput(index, (pubkey, hash, signature) =>
          pubkey.length === 32
            ? ecc.verifySchnorr(hash, pubkey, signature)
            : // strict: a high-S signature is valid by consensus but not relayed (BIP-62 LOW_S policy)
              ecc.verify(hash, pubkey, signature, true),
        );
      } catch {
        valid = false;
      }
      if (!valid) {
        throw createBitcoinError("BTC_SIGNATURE_INVALID", "A signature does not verify for its input.", {
          input: index,
        });
      }
    }
  } else {
    for (const { index, kind } of verified.inputs) {
      // Each signature is checked against the exact sighash bitcoinjs asked the signer to sign.
      const made: { hash: Uint8Array; signature: Uint8Array }[] = [];
      let publicKey: Uint8Array;
      try {
        if (kind === "p2tr") {
          const keySigner = taprootKeySigner({ ecc, signer, verified, made });
          publicKey = keySigner.publicKey.slice(1, 33);
          await psbt.signInputAsync(index, keySigner, [SIGHASH_DEFAULT, SIGHASH_ALL]);
        } else {
          publicKey = signer.publicKey;
          await psbt.signInputAsync(index, ecdsaSigner({ signer, made }), [SIGHASH_ALL]);
        }
      } catch (cause) {
        throw createBitcoinError(
          "BTC_SIGNATURE_INVALID",
          "The signer could not sign a listed input.",
          { input: index },
          cause,
        );
      }
      const check = args.alwaysCheckSignatures === true || signer.tweak === undefined;
      const valid =
        made.length === 1 &&
        (!check ||
          made.every(({ hash, signature }) => {
            try {
              return kind === "p2tr"
                ? ecc.verifySchnorr(hash, publicKey, signature)
                : ecc.verify(hash, publicKey, signature, true);
            } catch {
              return false; // malformed signature bytes
            }
          }));
      if (!valid) {
        throw createBitcoinError("BTC_SIGNATURE_INVALID", "A signature does not verify for its input.", {
          input: index,
        });
      }
    }
  }
  for (const { index } of verified.inputs) psbt.finalizeInput(index);
  if (!equalBytes(psbt.data.globalMap.unsignedTx.toBuffer(), verified.unsignedTx)) {
    throw createBitcoinError("BTC_TX_MODIFIED", "Signing changed the unsigned transaction.");
  }
  const signedData = psbt.toBase64();
  return { psbt: signedData, approval: { type: "psbt", signedData }, verified };
}

type Made = { hash: Uint8Array; signature: Uint8Array }[];

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
  verified: VerifiedHtlcPsbt;
  made: Made;
}): SignerAsync & { publicKey: Uint8Array } {
  const { ecc, signer, verified, made } = args;
  const xOnly = verified.userPublicKey.slice(1);
  const tweak = btcCrypto.taggedHash("TapTweak", xOnly);
  let publicKey: Uint8Array;
  let schnorr: (hash: Uint8Array) => Uint8Array | Promise<Uint8Array>;
  if (signer.tweak) {
    const tweaked = signer.tweak(tweak);
    if (!tweaked.signSchnorr) throw new Error("the tweaked signer cannot make Schnorr signatures");
    publicKey = tweaked.publicKey;
    schnorr = tweaked.signSchnorr.bind(tweaked);
  } else {
    const outputKey = ecc.xOnlyPointAddTweak(xOnly, tweak);
    if (!outputKey || !signer.signSchnorr)
      throw new Error("the signer cannot make Taproot key-path signatures");
    publicKey = Uint8Array.from([outputKey.parity === 0 ? 0x02 : 0x03, ...outputKey.xOnlyPubkey]);
    schnorr = signer.signSchnorr.bind(signer);
  }
  return {
    publicKey,
    sign: async () => {
      throw new Error("a Taproot key-path input needs a Schnorr signature");
    },
    signSchnorr: async (hash) => {
      const signature = await schnorr(hash);
      made.push({ hash, signature });
      return signature;
    },
  };
}

async function copyWalletSignatures(args: {
  psbt: Psbt;
  verified: VerifiedHtlcPsbt;
  signer: PsbtWalletSigner;
}): Promise<void> {
  const { psbt, verified, signer } = args;
  const returned = await signer.signPsbt(
    verified.psbt.toBase64(),
    verified.inputs.map((i) => i.index),
  );
  let signed: Psbt;
  try {
    signed = Psbt.fromBase64(returned);
  } catch (cause) {
    throw createBitcoinError(
      "BTC_PSBT_INVALID",
      "The wallet returned something that is not a PSBT.",
      {},
      cause,
    );
  }
  if (!equalBytes(signed.data.globalMap.unsignedTx.toBuffer(), verified.unsignedTx)) {
    throw createBitcoinError("BTC_TX_MODIFIED", "The wallet returned a different transaction.");
  }
  // Take only the signatures of the listed inputs; every other field stays as verified.
  for (const { index, kind } of verified.inputs) {
    const input = signed.data.inputs[index]!;
    const witness = input.finalScriptWitness ? decodeWitnessStack(input.finalScriptWitness) : null;
    if (kind === "p2tr") {
      const sig = input.tapKeySig ?? (witness?.length === 1 ? witness[0] : undefined);
      if (!sig)
        throw createBitcoinError("BTC_SIGNATURE_INVALID", "The wallet left a listed input unsigned.", {
          input: index,
        });
      // bitcoinjs checks a key-path signature against the digest of the PSBT's sighash type, ignoring the
      // signature's own byte; on chain the byte decides. They must agree (64 bytes = DEFAULT, 65 = byte 64).
      const expected = psbt.data.inputs[index]!.sighashType ?? SIGHASH_DEFAULT;
      const implied = sig.length === 64 ? SIGHASH_DEFAULT : sig.length === 65 ? sig[64] : undefined;
      if (implied !== expected || (implied !== SIGHASH_DEFAULT && implied !== SIGHASH_ALL)) {
        throw createBitcoinError(
          "BTC_SIGHASH_NOT_ALLOWED",
          "The wallet signed with a sighash other than DEFAULT/ALL, or other than the PSBT's.",
          {
            input: index,
          },
        );
      }
      psbt.updateInput(index, { tapKeySig: sig });
    } else {
      const partial = input.partialSig?.find((p) => equalBytes(p.pubkey, verified.userPublicKey));
      const sig = partial?.signature ?? (witness?.length === 2 ? witness[0] : undefined);
      if (!sig)
        throw createBitcoinError("BTC_SIGNATURE_INVALID", "The wallet left a listed input unsigned.", {
          input: index,
        });
      if (sig[sig.length - 1] !== SIGHASH_ALL) {
        throw createBitcoinError(
          "BTC_SIGHASH_NOT_ALLOWED",
          "The wallet signed with a sighash other than ALL.",
          {
            input: index,
          },
        );
      }
      psbt.updateInput(index, { partialSig: [{ pubkey: verified.userPublicKey, signature: sig }] });
    }
  }
}
