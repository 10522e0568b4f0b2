import { Psbt, payments, Transaction } from "bitcoinjs-lib";
import { bytesToHex, equalBytes } from "./bytes.js";
import { NUMS_INTERNAL_KEY_HEX, TAPSCRIPT_LEAF_VERSION } from "./constants.js";
import { createBitcoinError } from "./errors.js";
import { getUserScripts } from "./getUserScripts.js";
import { parseHtlcLeaves } from "./parseHtlcLeaves.js";
import { getSegwitKind } from "./scriptTypes.js";
import type { BitcoinEcc, KeySigner } from "./types.js";

const MIN_OUTPUT_LOTS = 330n;

/** Parameters of `signHtlcRefund`. */
export interface SignHtlcRefundParameters {
  /** The secp256k1 backend: `tiny-secp256k1` or `@bitcoinerlab/secp256k1`. */
  ecc: BitcoinEcc;
  /** The deposit PSBT, base64: the signed one (`approval.signedData`) or `params_to_sign.psbt`. */
  depositPsbt: string;
  /** The user's 33-byte compressed key, hex or bytes. */
  userPublicKey: string | Uint8Array;
  /** The user's untweaked key; it must have `signSchnorr`. */
  signer: KeySigner;
  /** Network fee of the refund transaction, in satoshis. */
  feeLots: bigint;
  /** Where the refund goes; defaults to the user's own P2TR (BIP-86) script. */
  destinationScript?: Uint8Array | undefined;
}

/** What `signHtlcRefund` returns. */
export interface SignHtlcRefundReturnType {
  /** The signed refund transaction, hex: broadcast it once the deposit has `csvBlocks` confirmations. */
  txHex: string;
  /** The refund transaction's id. */
  txid: string;
  /** The refund leaf's CSV delay, in blocks. */
  csvBlocks: number;
  /** What the refund pays (HTLC value minus `feeLots`). */
  valueLots: bigint;
}

/**
 * The user's way out without the service: build and sign the transaction that spends the deposit's HTLC
 * output through the refund leaf (script path, control block, version 2, nSequence = the leaf's CSV delay)
 * back to the user. It is valid once the deposit has `csvBlocks` confirmations; broadcast `txHex` then.
 * `depositPsbt` is the deposit PSBT (signed or not); `signer` is the user's untweaked key (Schnorr). The
 * deposit's txid is read from its unsigned transaction, so every deposit input must spend a native segwit output
 * (refused otherwise, `BTC_INPUT_NOT_SEGWIT`: a scriptSig would change the txid after signing). Every check runs
 * before the key signs.
 *
 * @example
 * ```ts
 * import * as ecc from "tiny-secp256k1";
 * import { signHtlcRefund } from "@swapintent/bitcoin";
 *
 * const { txHex, csvBlocks } = await signHtlcRefund({
 *   ecc,
 *   depositPsbt: approval.signedData,
 *   userPublicKey: "02…",
 *   signer: keyPair,
 *   feeLots: 500n,
 * });
 * // broadcast txHex once the deposit has csvBlocks confirmations
 * ```
 */
export async function signHtlcRefund(args: SignHtlcRefundParameters): Promise<SignHtlcRefundReturnType> {
  const { ecc } = args;
  const user = getUserScripts({ ecc, publicKey: args.userPublicKey });
  if (!equalBytes(args.signer.publicKey, user.publicKey) || !args.signer.signSchnorr) {
    throw createBitcoinError(
      "BTC_SIGNER_KEY_MISMATCH",
      "The signer is not the user's key or cannot sign Schnorr.",
    );
  }
  let deposit: Psbt;
  try {
    deposit = Psbt.fromBase64(args.depositPsbt);
  } catch (cause) {
    throw createBitcoinError("BTC_PSBT_INVALID", "depositPsbt is not a valid base64 PSBT.", {}, cause);
  }
  const notSegwit = deposit.data.inputs.findIndex(
    (input) => !input.witnessUtxo || !getSegwitKind(input.witnessUtxo.script) || input.finalScriptSig?.length,
  );
  if (notSegwit !== -1) {
    throw createBitcoinError(
      "BTC_INPUT_NOT_SEGWIT",
      "A deposit input is not a native segwit spend: the deposit's txid could change, and the refund would spend nothing.",
      { input: notSegwit },
    );
  }
  const output = deposit.txOutputs[0];
  const data = deposit.data.outputs[0];
  const [claimLeaf, refundLeaf] = data?.tapTree?.leaves ?? [];
  if (!output || !data?.tapInternalKey || !claimLeaf || !refundLeaf) {
    throw createBitcoinError("BTC_HTLC_MISSING", "Output 0 of the deposit carries no HTLC tap tree.");
  }
  const fields = parseHtlcLeaves({ claim: claimLeaf.script, refund: refundLeaf.script });
  const scriptTree: [{ output: Uint8Array }, { output: Uint8Array }] = [
    { output: claimLeaf.script },
    { output: refundLeaf.script },
  ];
  const redeemed = payments.p2tr({
    internalPubkey: data.tapInternalKey,
    scriptTree,
    redeem: { output: refundLeaf.script, redeemVersion: TAPSCRIPT_LEAF_VERSION },
  });
  const controlBlock = redeemed.witness?.[redeemed.witness.length - 1];
  if (
    !fields ||
    bytesToHex(data.tapInternalKey) !== NUMS_INTERNAL_KEY_HEX ||
    !redeemed.output ||
    !equalBytes(redeemed.output, output.script) ||
    !controlBlock
  ) {
    throw createBitcoinError(
      "BTC_HTLC_SCRIPT_MISMATCH",
      "Output 0 of the deposit is not a well-formed HTLC.",
    );
  }
  if (!equalBytes(fields.userXOnly, user.xOnly)) {
    throw createBitcoinError("BTC_HTLC_REFUND_KEY_MISMATCH", "The refund leaf does not pay the user's key.");
  }
  const valueLots = output.value - args.feeLots;
  if (args.feeLots <= 0n || valueLots < MIN_OUTPUT_LOTS) {
    throw createBitcoinError(
      "BTC_REFUND_INVALID",
      "The refund fee must be positive and leave a spendable output.",
      {
        feeLots: args.feeLots,
        htlcLots: output.value,
      },
    );
  }
  const depositTxid = Transaction.fromBuffer(deposit.data.globalMap.unsignedTx.toBuffer()).getId();

  const psbt = new Psbt();
  psbt.setVersion(2);
  psbt.addInput({
    hash: depositTxid,
    index: 0,
    sequence: fields.csvBlocks,
    witnessUtxo: { script: output.script, value: output.value },
    tapLeafScript: [{ leafVersion: TAPSCRIPT_LEAF_VERSION, script: refundLeaf.script, controlBlock }],
  });
  psbt.addOutput({ script: args.destinationScript ?? user.p2tr, value: valueLots });
  const signer = args.signer;
  const schnorr = signer.signSchnorr!.bind(signer);
  await psbt.signTaprootInputAsync(0, {
    publicKey: user.publicKey,
    sign: async (hash) => signer.sign(hash),
    signSchnorr: async (hash) => schnorr(hash),
  });
  const valid = psbt.validateSignaturesOfInput(0, (pubkey, hash, signature) =>
    ecc.verifySchnorr(hash, pubkey, signature),
  );
  if (!valid) throw createBitcoinError("BTC_SIGNATURE_INVALID", "The refund signature does not verify.");
  psbt.finalizeInput(0);
  const tx = psbt.extractTransaction();
  return { txHex: tx.toHex(), txid: tx.getId(), csvBlocks: fields.csvBlocks, valueLots };
}
