// Internal: the one path every wallet's answer takes (a custom `signPsbt` and each adapter of `./wallets`). The
// wallet gets the verified PSBT; what it hands back must differ from it only by the user's signatures on the
// listed inputs, each in a shape the chain accepts, with the verified sighash type.
import { Psbt, Transaction } from "bitcoinjs-lib";
import { createBitcoinError, signingFailed } from "../errors.js";
import type { PsbtWalletSigner, SignPsbtInput } from "../types.js";
import type { VerifyHtlcPsbtReturnType } from "../verifyHtlcPsbt/verifyHtlcPsbt.js";
import { equalBytes } from "./bytes.js";
import { parseWalletPsbt } from "./parseWalletPsbt.js";
import { matchSighashType, present, readSignature } from "./walletSignatures.js";

export { parseWalletPsbt } from "./parseWalletPsbt.js";

const SIGHASH_DEFAULT = 0x00;
const SIGHASH_ALL = 0x01;

/** Fields that hold a signature: the only fields a wallet may add, and only on a listed input. */
const SIGNATURE_FIELDS = [
  "partialSig",
  "tapKeySig",
  "tapScriptSig",
  "finalScriptSig",
  "finalScriptWitness",
] as const;

/** Fields a BIP-174 finalizer removes from the input it finalizes (bitcoinjs' `clearFinalizedInput`). */
const CLEARED_BY_FINALIZER = new Set([
  "partialSig",
  "sighashType",
  "redeemScript",
  "witnessScript",
  "bip32Derivation",
  "tapKeySig",
  "tapScriptSig",
  "tapLeafScript",
  "tapInternalKey",
  "tapMerkleRoot",
  "tapBip32Derivation",
]);

/**
 * Ask `signer` to sign `signInputs` of `psbt` (checked before: the deposit by `verifyHtlcPsbt`, the refund by
 * `signHtlcRefund`), check its answer, and copy the user's signatures into `psbt` (nothing else from the answer is
 * kept). The wallet gets a copy whose other inputs keep only their UTXO data. The caller then verifies each
 * signature against its sighash and finalizes. Shared by the deposit and the refund, and so by every wallet adapter.
 */
export async function collectWalletSignatures(args: {
  psbt: Psbt;
  signInputs: SignPsbtInput[];
  userPublicKey: Uint8Array;
  signer: PsbtWalletSigner;
}): Promise<void> {
  const { psbt, signInputs, userPublicKey, signer } = args;
  const sent = psbtForWallet(psbt, signInputs);
  // The signer gets copies: what it writes into them cannot change the list the answer is checked against.
  let returned: unknown;
  try {
    returned = await signer.signPsbt({
      psbt: sent.toBase64(),
      inputs: signInputs.map((i) => i.index),
      signInputs: signInputs.map((i) => ({ ...i, script: Uint8Array.from(i.script) })),
    });
  } catch (thrown) {
    // Whatever a wallet throws is its refusal, even an error shaped like this package's; an adapter's own passes.
    throw signingFailed("signPsbt", thrown);
  }
  const signed = parseWalletPsbt(returned);
  assertSameTransaction({ sent, signed });
  const signatures = signInputs.map((input) =>
    readSignature({
      input,
      fields: signed.data.inputs[input.index]!,
      sent: sent.data.inputs[input.index]!,
      userPublicKey,
    }),
  );
  assertUnlistedUnsigned({ signed, listed: signInputs });
  assertOnlySignaturesChanged({ sent, signed, listed: signInputs });
  signInputs.forEach(({ index, kind }, i) => {
    const signature = signatures[i]!;
    if (kind === "p2wpkh") {
      psbt.updateInput(index, { partialSig: [{ pubkey: userPublicKey, signature: signature.signature }] });
      return;
    }
    if (kind === "p2tr") psbt.updateInput(index, { tapKeySig: signature.signature });
    else {
      psbt.updateInput(index, {
        tapScriptSig: [
          { pubkey: userPublicKey.slice(1), leafHash: signature.leafHash!, signature: signature.signature },
        ],
      });
    }
    matchSighashType(psbt.data.inputs[index]!, signature.signature);
  });
}

/** The deposit's inputs to sign, with what a wallet's API asks for: script type, prevout script and sighash type. */
export function listSignInputs(verified: VerifyHtlcPsbtReturnType): SignPsbtInput[] {
  return verified.inputs.map(({ index, kind }) => {
    const input = verified.psbt.data.inputs[index]!;
    const sighashType = input.sighashType ?? (kind === "p2tr" ? SIGHASH_DEFAULT : SIGHASH_ALL);
    return { index, kind, script: Uint8Array.from(input.witnessUtxo!.script), sighashType };
  });
}

/**
 * The PSBT as the wallet sees it: inputs it is not asked to sign keep only their UTXO data (needed for the sighash),
 * so nothing the service put there (leaf scripts, derivation paths into the user's wallet, sighash types, final
 * witnesses, proprietary fields) can lead a wallet that signs whatever it recognizes into signing them.
 */
function psbtForWallet(psbt: Psbt, signInputs: SignPsbtInput[]): Psbt {
  const copy = Psbt.fromBase64(psbt.toBase64());
  const listed = new Set(signInputs.map((i) => i.index));
  copy.data.inputs.forEach((input, index) => {
    if (listed.has(index)) return;
    for (const key of Object.keys(input) as (keyof typeof input)[]) {
      if (key !== "witnessUtxo" && key !== "nonWitnessUtxo") delete input[key];
    }
  });
  return copy;
}

/** The unsigned transaction is byte-identical; when not, `fields` names what changed. */
function assertSameTransaction(args: { sent: Psbt; signed: Psbt }): void {
  const before = args.sent.data.globalMap.unsignedTx.toBuffer();
  const after = args.signed.data.globalMap.unsignedTx.toBuffer();
  if (equalBytes(before, after)) return;
  const a = Transaction.fromBuffer(before);
  const b = Transaction.fromBuffer(after);
  const fields: string[] = [];
  if (a.version !== b.version) fields.push("version");
  if (a.locktime !== b.locktime) fields.push("locktime");
  const sameOutpoints =
    a.ins.length === b.ins.length &&
    a.ins.every((input, i) => equalBytes(input.hash, b.ins[i]!.hash) && input.index === b.ins[i]!.index);
  if (!sameOutpoints) fields.push("inputs");
  else if (a.ins.some((input, i) => input.sequence !== b.ins[i]!.sequence)) fields.push("sequence");
  const sameOutputs =
    a.outs.length === b.outs.length &&
    a.outs.every((o, i) => o.value === b.outs[i]!.value && equalBytes(o.script, b.outs[i]!.script));
  if (!sameOutputs) fields.push("outputs");
  throw createBitcoinError("BTC_TX_MODIFIED", "The wallet returned a different transaction.", {
    where: "global",
    fields: fields.length > 0 ? fields : ["unsignedTx"],
  });
}

/** No signature of any kind on an input the wallet was not asked to sign. */
function assertUnlistedUnsigned(args: { signed: Psbt; listed: SignPsbtInput[] }): void {
  const listed = new Set(args.listed.map((i) => i.index));
  args.signed.data.inputs.forEach((fields, index) => {
    if (listed.has(index)) return;
    const field = SIGNATURE_FIELDS.find((name) => present(fields[name]));
    if (field) {
      throw createBitcoinError(
        "BTC_SIGNATURE_UNEXPECTED",
        "The wallet signed an input it was not asked to sign.",
        { input: index, field },
      );
    }
  });
}

/**
 * Every global, output and input field is as sent, except the signature fields of listed inputs (checked by
 * `readSignature`), and the fields a finalizer clears from a listed input it finalized.
 */
function assertOnlySignaturesChanged(args: { sent: Psbt; signed: Psbt; listed: SignPsbtInput[] }): void {
  const { sent, signed } = args;
  const listed = new Set(args.listed.map((i) => i.index));
  const refuse = (where: string, fields: string[]) => {
    if (fields.length === 0) return;
    throw createBitcoinError(
      "BTC_PSBT_FIELD_MODIFIED",
      "The wallet changed a PSBT field other than the user's signatures.",
      { where, fields },
    );
  };
  refuse(
    "global",
    changedFields(sent.data.globalMap, signed.data.globalMap, () => false),
  );
  sent.data.outputs.forEach((output, index) => {
    refuse(
      `output ${index}`,
      changedFields(output, signed.data.outputs[index]!, () => false),
    );
  });
  sent.data.inputs.forEach((input, index) => {
    const after = signed.data.inputs[index]!;
    const finalized = listed.has(index) && present(after.finalScriptWitness);
    const allowed = (key: string, removed: boolean) =>
      listed.has(index) &&
      ((SIGNATURE_FIELDS as readonly string[]).includes(key) ||
        (finalized && removed && CLEARED_BY_FINALIZER.has(key)));
    refuse(`input ${index}`, changedFields(input, after, allowed));
  });
}

/** The keys whose values differ between two PSBT maps, except those `allowed` (told whether the key was removed). */
function changedFields(
  before: object,
  after: object,
  allowed: (key: string, removed: boolean) => boolean,
): string[] {
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => present(a[k]) || present(b[k])));
  return [...keys].filter((key) => {
    if (key === "unsignedTx" || sameValue(a[key], b[key])) return false;
    return !allowed(key, present(a[key]) && !present(b[key]));
  });
}

/** Deep equality of PSBT field values: bytes, numbers, strings, arrays and plain objects of those. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    return a instanceof Uint8Array && b instanceof Uint8Array && equalBytes(a, b) && a.length === b.length;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return !present(a) && !present(b);
    return a.every((item, i) => sameValue(item, b[i]));
  }
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => sameValue((a as never)[k], (b as never)[k]));
  }
  return a === b;
}
