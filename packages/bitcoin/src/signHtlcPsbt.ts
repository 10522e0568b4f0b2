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
 * listed inputs with `signer` (a key, e.g. an `ecpair` key pair, or a wallet's `signPsbt`). Every signature is
 * checked against the sighash before it is kept, and the unsigned transaction must come out byte-identical.
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
}): Promise<{ psbt: string; approval: Extract<Approval, { type: "psbt" }>; verified: VerifiedHtlcPsbt }> {
  const verified = verifyHtlcPsbt(args);
  const { ecc, signer } = args;
  if (!equalBytes(signer.publicKey, verified.userPublicKey)) {
    throw createBitcoinError("BTC_SIGNER_KEY_MISMATCH", "The signer's public key is not the user's key.");
  }
  const psbt = verified.psbt.clone();

  if ("signPsbt" in signer) {
    await copyWalletSignatures({ psbt, verified, signer });
  } else {
    for (const { index, kind } of verified.inputs) {
      try {
        if (kind === "p2tr") {
          await psbt.signInputAsync(index, taprootKeySigner({ ecc, signer, verified }), [SIGHASH_DEFAULT]);
        } else {
          await psbt.signInputAsync(index, ecdsaSigner(signer), [SIGHASH_ALL]);
        }
      } catch (cause) {
        throw createBitcoinError(
          "BTC_SIGNATURE_INVALID",
          "The signer could not sign a listed input.",
          { input: index },
          cause,
        );
      }
    }
  }

  for (const { index } of verified.inputs) {
    let valid = false;
    try {
      valid = psbt.validateSignaturesOfInput(index, (pubkey, hash, signature) =>
        pubkey.length === 32
          ? ecc.verifySchnorr(hash, pubkey, signature)
          : ecc.verify(hash, pubkey, signature),
      );
    } catch {
      valid = false;
    }
    if (!valid) {
      throw createBitcoinError("BTC_SIGNATURE_INVALID", "A signature does not verify for its input.", {
        input: index,
      });
    }
    psbt.finalizeInput(index);
  }
  if (!equalBytes(psbt.data.globalMap.unsignedTx.toBuffer(), verified.unsignedTx)) {
    throw createBitcoinError("BTC_TX_MODIFIED", "Signing changed the unsigned transaction.");
  }
  const signedData = psbt.toBase64();
  return { psbt: signedData, approval: { type: "psbt", signedData }, verified };
}

function ecdsaSigner(signer: KeySigner): SignerAsync {
  return { publicKey: signer.publicKey, sign: async (hash) => signer.sign(hash) };
}

function taprootKeySigner(args: {
  ecc: BitcoinEcc;
  signer: KeySigner;
  verified: VerifiedHtlcPsbt;
}): SignerAsync {
  const { ecc, signer, verified } = args;
  const xOnly = verified.userPublicKey.slice(1);
  const tweak = btcCrypto.taggedHash("TapTweak", xOnly);
  if (signer.tweak) {
    const tweaked = signer.tweak(tweak);
    return {
      publicKey: tweaked.publicKey,
      sign: async (hash) => tweaked.sign(hash),
      signSchnorr: async (hash) => {
        if (!tweaked.signSchnorr) throw new Error("the tweaked signer cannot make Schnorr signatures");
        return tweaked.signSchnorr(hash);
      },
    };
  }
  const outputKey = ecc.xOnlyPointAddTweak(xOnly, tweak);
  if (!outputKey || !signer.signSchnorr) {
    throw createBitcoinError("BTC_SIGNATURE_INVALID", "The signer cannot make Taproot key-path signatures.");
  }
  const schnorr = signer.signSchnorr.bind(signer);
  return {
    publicKey: Uint8Array.from([outputKey.parity === 0 ? 0x02 : 0x03, ...outputKey.xOnlyPubkey]),
    sign: async (hash) => signer.sign(hash),
    signSchnorr: async (hash) => schnorr(hash),
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
      if (sig.length !== 64 && !(sig.length === 65 && sig[64] === SIGHASH_ALL)) {
        throw createBitcoinError(
          "BTC_SIGHASH_NOT_ALLOWED",
          "The wallet signed with a sighash other than DEFAULT/ALL.",
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
