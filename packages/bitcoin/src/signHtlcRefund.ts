import { Psbt, payments, Transaction } from "bitcoinjs-lib";
import { checkSignal, throwIfAborted, untilAborted } from "./abort.js";
import { NUMS_INTERNAL_KEY_HEX, TAPSCRIPT_LEAF_VERSION } from "./constants.js";
import { type BitcoinError, createBitcoinError } from "./errors.js";
import { getUserScripts } from "./getUserScripts.js";
import { bytesToHex, compactSize, equalBytes, publicKeyForError } from "./internal/bytes.js";
import { readBytes, readEcc, readRecord } from "./internal/readParameters.js";
import { readSigner } from "./internal/readSigner.js";
import { dustThresholdOf, readDestination } from "./internal/refundDestination.js";
import { getSegwitKind } from "./internal/scriptTypes.js";
import { collectWalletSignatures } from "./internal/walletPsbt.js";
import { parseHtlcLeaves } from "./parseHtlcLeaves.js";
import type { BitcoinEcc, KeySigner, PsbtWalletSigner } from "./types.js";

/** BIP-68 keeps only the low 16 bits as the delay; above, flag bits change what the number means. */
const MAX_BIP68_BLOCKS = 0xffff;

/** Parameters of `signHtlcRefund`. */
export interface SignHtlcRefundParameters {
  /** The secp256k1 backend: `tiny-secp256k1` or `@bitcoinerlab/secp256k1`. */
  ecc: BitcoinEcc;
  /** The deposit PSBT, base64: the signed one (`approval.signedData`) or `params_to_sign.psbt`. */
  depositPsbt: string;
  /** The user's 33-byte compressed key, hex or bytes. */
  userPublicKey: string | Uint8Array;
  /**
   * The user's untweaked key (it must have `signSchnorr`), or a wallet that signs the refund leaf with it (a
   * `PsbtWalletSigner`, such as an adapter of `@swapintent/bitcoin/wallets`): it is asked for input 0 as
   * `kind: "htlcRefund"`, and its answer is checked as a deposit's is (only the user's leaf signature may change).
   */
  signer: KeySigner | PsbtWalletSigner;
  /**
   * Network fee of the refund transaction, in satoshis (bigint): at least its vsize (1 sat/vB, the minimum relay
   * rate: about 111 sat to a P2TR destination, 99 to P2WPKH), else `BTC_REFUND_INVALID`.
   */
  feeLots: bigint;
  /**
   * Where the refund goes. Default: the user's script of the type their wallet watches, read from the deposit: its
   * change output's type, else the type of the user's coins when all are P2WPKH, else P2TR (BIP-86).
   */
  destinationScript?: Uint8Array | undefined;
  /**
   * Stop waiting for the signer or wallet (a prompt left open): when it aborts, `signHtlcRefund` rejects at once
   * with `BTC_SIGNING_ABORTED` and never returns a refund after. An already aborted signal is refused before the
   * signer or wallet is asked.
   */
  signal?: AbortSignal | undefined;
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

/** What `signHtlcRefund` may throw (README table): the refund's checks, then the key's or wallet's codes. */
export type SignHtlcRefundErrorType = BitcoinError<
  | "BTC_PARAMETER_INVALID"
  | "BTC_POLICY_INVALID"
  | "BTC_PUBLIC_KEY_INVALID"
  | "BTC_PSBT_INVALID"
  | "BTC_INPUT_NOT_SEGWIT"
  | "BTC_REFUND_INVALID"
  | "BTC_HTLC_MISSING"
  | "BTC_HTLC_SCRIPT_MISMATCH"
  | "BTC_HTLC_REFUND_KEY_MISMATCH"
  | "BTC_HTLC_TIMELOCK_OUT_OF_BOUNDS"
  | "BTC_SIGHASH_NOT_ALLOWED"
  | "BTC_SIGNER_KEY_MISMATCH"
  | "BTC_SIGNING_FAILED"
  | "BTC_SIGNING_ABORTED"
  | "BTC_SIGNATURE_INVALID"
  | "BTC_TX_MODIFIED"
  | "BTC_PSBT_FIELD_MODIFIED"
  | "BTC_SIGNATURE_UNEXPECTED"
  | "BTC_WALLET_REJECTED"
  | "BTC_WALLET_BROADCAST"
>;

/**
 * The user's way out without the service: build and sign the transaction that spends the deposit's HTLC
 * output through the refund leaf (script path, control block, version 2, nSequence = the leaf's CSV delay)
 * back to the user. It is valid once the deposit has `csvBlocks` confirmations; broadcast `txHex` then.
 * `depositPsbt` is the deposit PSBT (signed or not); `signer` is the user's untweaked key (Schnorr) or a wallet
 * (`PsbtWalletSigner`, such as `createUnisatWalletSigner`'s) that signs the refund leaf, whose answer is checked
 * like a deposit's. The deposit's txid is read from its unsigned transaction, so every deposit input must spend a
 * native segwit output (refused otherwise, `BTC_INPUT_NOT_SEGWIT`: a scriptSig would change the txid after
 * signing). Every check runs before the key or wallet is asked; `signal` abandons a wallet that never answers.
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
export async function signHtlcRefund(
  parameters: SignHtlcRefundParameters,
): Promise<SignHtlcRefundReturnType> {
  // Read once, before anything else (`readParameters.ts`): later steps never read the caller's objects again.
  const fields = readRecord("", parameters) ?? {};
  const args = Object.assign(fields, {
    destinationScript: readBytes("destinationScript", fields.destinationScript),
  }) as unknown as SignHtlcRefundParameters;
  const ecc = readEcc(args.ecc);
  const { signal } = args;
  checkSignal(signal);
  const user = getUserScripts({ ecc, publicKey: args.userPublicKey });
  const signer = readSigner(args.signer);
  assertSignerIsUser({ signer, user });
  const deposit = parseDeposit(args.depositPsbt);
  const destination = readDestination({ parameters: args, user, deposit, ecc });
  const htlc = readRefundLeaf({ deposit, user });
  const valueLots = htlc.output.value - args.feeLots;
  const vsize = refundVsize({ leaf: htlc.refundLeaf, controlBlock: htlc.controlBlock, destination });
  const dustLots = dustThresholdOf(destination);
  if (args.feeLots < vsize || valueLots < dustLots) {
    throw createBitcoinError(
      "BTC_REFUND_INVALID",
      "The refund fee must be at least 1 sat/vB (the minimum relay rate) and leave an output above dust.",
      { feeLots: args.feeLots, htlcLots: htlc.output.value, vsize, dustLots },
    );
  }
  const depositTxid = Transaction.fromBuffer(deposit.data.globalMap.unsignedTx.toBuffer()).getId();
  const psbt = new Psbt();
  psbt.setVersion(2);
  psbt.addInput({
    hash: depositTxid,
    index: 0,
    sequence: htlc.csvBlocks,
    witnessUtxo: { script: htlc.output.script, value: htlc.output.value },
    tapLeafScript: [
      { leafVersion: TAPSCRIPT_LEAF_VERSION, script: htlc.refundLeaf, controlBlock: htlc.controlBlock },
    ],
  });
  psbt.addOutput({ script: destination, value: valueLots });
  // Every check is done: only now is the key or wallet asked.
  throwIfAborted(signal, "beforeSigning");
  await untilAborted(signal, () => signRefundInput({ psbt, signer, user }));
  throwIfAborted(signal, "whileSigning");
  let valid = false;
  try {
    valid = psbt.validateSignaturesOfInput(0, (pubkey, hash, signature) =>
      ecc.verifySchnorr(hash, pubkey, signature),
    );
  } catch {
    // malformed signature bytes (the backend throws on them): the signature does not verify
  }
  if (!valid) {
    throw createBitcoinError("BTC_SIGNATURE_INVALID", "The refund signature does not verify.", {
      input: 0,
      reason: "doesNotVerify",
    });
  }
  psbt.finalizeInput(0);
  const tx = psbt.extractTransaction();
  return { txHex: tx.toHex(), txid: tx.getId(), csvBlocks: htlc.csvBlocks, valueLots };
}

/** The signer is the user's key; a key signer must also sign Schnorr (a wallet signs the leaf itself). */
function assertSignerIsUser(args: {
  signer: KeySigner | PsbtWalletSigner;
  user: { publicKey: Uint8Array };
}): void {
  const { signer, user } = args;
  const wallet = "signPsbt" in signer;
  if (!equalBytes(signer.publicKey, user.publicKey) || (!wallet && !signer.signSchnorr)) {
    throw createBitcoinError(
      "BTC_SIGNER_KEY_MISMATCH",
      "The signer is not the user's key or cannot sign Schnorr.",
      {
        expected: bytesToHex(user.publicKey),
        actual: publicKeyForError(signer.publicKey),
        ...(wallet ? {} : { canSignSchnorr: typeof signer.signSchnorr === "function" }),
      },
    );
  }
}

/**
 * The refund leaf's signature on input 0: from a wallet, through the path every wallet answer takes (only the
 * user's leaf signature may come back); from a key signer, over the digest computed here.
 */
async function signRefundInput(args: {
  psbt: Psbt;
  signer: KeySigner | PsbtWalletSigner;
  user: { publicKey: Uint8Array; p2tr: Uint8Array };
}): Promise<void> {
  const { psbt, signer, user } = args;
  if ("signPsbt" in signer) {
    await collectWalletSignatures({
      psbt,
      signInputs: [{ index: 0, kind: "htlcRefund", script: Uint8Array.from(user.p2tr), sighashType: 0x00 }],
      userPublicKey: user.publicKey,
      signer,
    });
    return;
  }
  const schnorr = signer.signSchnorr!;
  try {
    await psbt.signTaprootInputAsync(0, {
      publicKey: user.publicKey,
      sign: async (hash) => signer.sign(hash),
      signSchnorr: async (hash) => schnorr(hash),
    });
  } catch (cause) {
    throw createBitcoinError(
      "BTC_SIGNATURE_INVALID",
      "The signer could not sign a listed input.",
      { input: 0, reason: "signerFailed" },
      cause,
    );
  }
}

/** The deposit PSBT, every input a native segwit spend (so its txid is final). */
function parseDeposit(depositPsbt: string): Psbt {
  let deposit: Psbt;
  try {
    deposit = Psbt.fromBase64(depositPsbt);
  } catch (cause) {
    throw createBitcoinError(
      "BTC_PSBT_INVALID",
      "depositPsbt is not a valid base64 PSBT.",
      { source: "depositPsbt" },
      cause,
    );
  }
  const notSegwit = deposit.data.inputs.findIndex(
    (input) => !input.witnessUtxo || !getSegwitKind(input.witnessUtxo.script) || input.finalScriptSig?.length,
  );
  if (notSegwit !== -1) {
    throw createBitcoinError(
      "BTC_INPUT_NOT_SEGWIT",
      "A deposit input is not a native segwit spend: the deposit's txid could change, and the refund would spend nothing.",
      {
        input: notSegwit,
        script: bytesToHex(deposit.data.inputs[notSegwit]!.witnessUtxo?.script ?? new Uint8Array()),
      },
    );
  }
  return deposit;
}

/**
 * Output 0 of the deposit as a well-formed HTLC whose refund leaf pays the user after a plain BIP-68 block count:
 * the output, the refund leaf, its control block and the delay.
 */
function readRefundLeaf(args: { deposit: Psbt; user: { xOnly: Uint8Array } }): {
  output: { script: Uint8Array; value: bigint };
  refundLeaf: Uint8Array;
  controlBlock: Uint8Array;
  csvBlocks: number;
} {
  const output = args.deposit.txOutputs[0];
  const data = args.deposit.data.outputs[0];
  const [claimLeaf, refundLeaf] = data?.tapTree?.leaves ?? [];
  if (!output || !data?.tapInternalKey || !claimLeaf || !refundLeaf) {
    throw createBitcoinError("BTC_HTLC_MISSING", "Output 0 of the deposit carries no HTLC tap tree.", {
      output: 0,
    });
  }
  const fields = parseHtlcLeaves({ claim: claimLeaf.script, refund: refundLeaf.script });
  // The NUMS key first: the service's key is never handed to point math (an off-curve key made the backend throw).
  const nums = bytesToHex(data.tapInternalKey) === NUMS_INTERNAL_KEY_HEX;
  const redeemed =
    fields && nums
      ? payments.p2tr({
          internalPubkey: data.tapInternalKey,
          scriptTree: [{ output: claimLeaf.script }, { output: refundLeaf.script }],
          redeem: { output: refundLeaf.script, redeemVersion: TAPSCRIPT_LEAF_VERSION },
        })
      : undefined;
  const controlBlock = redeemed?.witness?.[redeemed.witness.length - 1];
  if (!fields || !redeemed?.output || !equalBytes(redeemed.output, output.script) || !controlBlock) {
    throw createBitcoinError(
      "BTC_HTLC_SCRIPT_MISMATCH",
      "Output 0 of the deposit is not a well-formed HTLC.",
      { part: "outputScript", script: bytesToHex(output.script) },
    );
  }
  if (!equalBytes(fields.userXOnly, args.user.xOnly)) {
    throw createBitcoinError("BTC_HTLC_REFUND_KEY_MISMATCH", "The refund leaf does not pay the user's key.", {
      expected: bytesToHex(args.user.xOnly),
      actual: bytesToHex(fields.userXOnly),
    });
  }
  // Above 0xffff the number sets BIP-68 flag bits: 512-second units, a disabled lock, or ignored bits (65542
  // means 6 blocks), so `csvBlocks` would not be the number of blocks to wait.
  if (fields.csvBlocks > MAX_BIP68_BLOCKS) {
    throw createBitcoinError(
      "BTC_HTLC_TIMELOCK_OUT_OF_BOUNDS",
      "The refund leaf's CSV number is not a plain BIP-68 block count.",
      { csvBlocks: fields.csvBlocks, minCsvBlocks: 0, maxCsvBlocks: MAX_BIP68_BLOCKS },
    );
  }
  return { output, refundLeaf: refundLeaf.script, controlBlock, csvBlocks: fields.csvBlocks };
}

/**
 * Virtual size of the refund transaction: version, one input, one output, locktime, and the witness (signature,
 * leaf script, control block) with the segwit marker and flag.
 */
function refundVsize(args: { leaf: Uint8Array; controlBlock: Uint8Array; destination: Uint8Array }): bigint {
  const { leaf, controlBlock, destination } = args;
  const base = 4 + 1 + 41 + 1 + 8 + compactSize(destination.length).length + destination.length + 4;
  const witness =
    2 +
    1 +
    1 +
    64 +
    compactSize(leaf.length).length +
    leaf.length +
    compactSize(controlBlock.length).length +
    controlBlock.length;
  return BigInt(Math.ceil((base * 4 + witness) / 4));
}
