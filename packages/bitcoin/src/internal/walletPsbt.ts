// Internal: the one path every wallet's answer takes (a custom `signPsbt` and each adapter of `./wallets`). The
// wallet gets the verified PSBT; what it hands back must differ from it only by the user's signatures on the
// listed inputs, each in a shape the chain accepts, with the verified sighash type.
import { Psbt, script, Transaction } from "bitcoinjs-lib";
import { createBitcoinError, signingFailed } from "../errors.js";
import type { PsbtWalletSigner, SignPsbtInput } from "../types.js";
import type { VerifyHtlcPsbtReturnType } from "../verifyHtlcPsbt/verifyHtlcPsbt.js";
import { decodeWitnessStack, equalBytes, hexToBytes } from "./bytes.js";

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
 * Ask `signer` to sign the verified inputs of `verified.psbt`, check its answer, and copy the user's signatures
 * into `verified.psbt` (nothing else from the answer is kept). The caller then verifies each signature against
 * its sighash and finalizes.
 */
export async function collectWalletSignatures(args: {
  verified: VerifyHtlcPsbtReturnType;
  signer: PsbtWalletSigner;
}): Promise<void> {
  const { verified, signer } = args;
  const sent = psbtForWallet(verified);
  const signInputs = listSignInputs(verified);
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
    readSignature({ input, fields: signed.data.inputs[input.index]!, userPublicKey: verified.userPublicKey }),
  );
  assertUnlistedUnsigned({ signed, listed: signInputs });
  assertOnlySignaturesChanged({ sent, signed, listed: signInputs });
  signInputs.forEach(({ index, kind }, i) => {
    const signature = signatures[i]!;
    if (kind === "p2tr") {
      verified.psbt.updateInput(index, { tapKeySig: signature });
      matchSighashType(verified.psbt.data.inputs[index]!, signature);
    } else {
      verified.psbt.updateInput(index, {
        partialSig: [{ pubkey: verified.userPublicKey, signature }],
      });
    }
  });
}

/** The inputs to sign, with what a wallet's API asks for: the script type, prevout script and sighash type. */
export function listSignInputs(verified: VerifyHtlcPsbtReturnType): SignPsbtInput[] {
  return verified.inputs.map(({ index, kind }) => {
    const input = verified.psbt.data.inputs[index]!;
    const sighashType = input.sighashType ?? (kind === "p2tr" ? SIGHASH_DEFAULT : SIGHASH_ALL);
    return { index, kind, script: Uint8Array.from(input.witnessUtxo!.script), sighashType };
  });
}

/**
 * The verified PSBT as the wallet sees it: unlisted inputs keep only their UTXO data (needed for the sighash), so
 * nothing the service put there (leaf scripts, derivation paths into the user's wallet, sighash types, final
 * witnesses, proprietary fields) can lead a wallet that signs whatever it recognizes into signing them.
 */
function psbtForWallet(verified: VerifyHtlcPsbtReturnType): Psbt {
  const copy = Psbt.fromBase64(verified.psbt.toBase64());
  const listed = new Set(verified.inputs.map((i) => i.index));
  copy.data.inputs.forEach((input, index) => {
    if (listed.has(index)) return;
    for (const key of Object.keys(input) as (keyof typeof input)[]) {
      if (key !== "witnessUtxo" && key !== "nonWitnessUtxo") delete input[key];
    }
  });
  return copy;
}

/**
 * What a wallet returned, as a PSBT (base64, or hex for the wallets that answer in hex), else `BTC_PSBT_INVALID`.
 * Strict: canonical base64 (standard alphabet, padded, nothing else) or hex (either case), and the text is one
 * PSBT to its last byte; a decoder that skips whitespace or unknown characters, or stops at the end of the PSBT,
 * would accept text that is not what the wallet's API returns.
 */
export function parseWalletPsbt(returned: unknown, encoding: "base64" | "hex" = "base64"): Psbt {
  let reason = "not a string";
  try {
    if (typeof returned !== "string") throw new TypeError(reason);
    const bytes = encoding === "hex" ? strictHex(returned) : strictBase64(returned);
    reason = `not canonical ${encoding}`;
    if (!bytes) throw new TypeError(reason);
    const psbt = Psbt.fromBuffer(bytes);
    reason = "bytes after the PSBT";
    if (psbtLength(bytes, 1 + psbt.data.inputs.length + psbt.data.outputs.length) !== bytes.length) {
      throw new TypeError(reason);
    }
    return psbt;
  } catch (cause) {
    throw createBitcoinError(
      "BTC_PSBT_INVALID",
      "The wallet returned something that is not a PSBT.",
      { source: "wallet" },
      cause,
    );
  }
}

const HEX = /^(?:[0-9a-fA-F]{2})+$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function strictHex(text: string): Uint8Array | null {
  return HEX.test(text) ? hexToBytes(text) : null;
}

/** Canonical base64 only: the alphabet and padding checked, and the bytes re-encode to the same text. */
function strictBase64(text: string): Uint8Array | null {
  if (text.length === 0 || !BASE64.test(text)) return null;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return btoa(binary) === text ? bytes : null;
}

/** Where a serialized PSBT of `maps` key-value maps (global, inputs, outputs) ends: after its last map's 0x00. */
function psbtLength(bytes: Uint8Array, maps: number): number {
  let pos = 5; // "psbt" 0xff
  const skip = () => {
    const first = bytes[pos] ?? 0;
    const size = first < 0xfd ? 0 : first === 0xfd ? 2 : first === 0xfe ? 4 : 8;
    let n = first < 0xfd ? first : 0;
    for (let i = size; i >= 1; i--) n = n * 256 + (bytes[pos + i] ?? 0);
    pos += 1 + size;
    return n;
  };
  for (let map = 0; map < maps; map++) {
    for (let keyLength = skip(); keyLength !== 0; keyLength = skip()) {
      pos += keyLength;
      const valueLength = skip();
      pos += valueLength;
    }
  }
  return pos;
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

type InputFields = Psbt["data"]["inputs"][number];

/**
 * The one signature a listed input may carry: the user's key-path signature (P2TR) or the user's ECDSA signature
 * (P2WPKH), as a PSBT field or as a final witness that is exactly that signature (and the user's key). Anything
 * else holding a signature is refused, and the signature's shape and sighash byte are checked here.
 */
function readSignature(args: {
  input: SignPsbtInput;
  fields: InputFields;
  userPublicKey: Uint8Array;
}): Uint8Array {
  const { input, fields, userPublicKey } = args;
  const { index, kind } = input;
  const unexpected = (field: string) =>
    createBitcoinError("BTC_SIGNATURE_UNEXPECTED", "The wallet returned a signature it was not asked for.", {
      input: index,
      field,
    });
  const foreign = kind === "p2tr" ? "partialSig" : "tapKeySig";
  for (const field of [foreign, "tapScriptSig", "finalScriptSig"] as const) {
    if (present(fields[field])) throw unexpected(field);
  }
  let witnessSig: Uint8Array | undefined;
  if (fields.finalScriptWitness) {
    const stack = decodeWitnessStack(fields.finalScriptWitness);
    const exact =
      kind === "p2tr" ? stack?.length === 1 : stack?.length === 2 && equalBytes(stack[1], userPublicKey);
    if (!exact) throw unexpected("finalScriptWitness");
    witnessSig = stack![0]!;
  }
  let fieldSig: Uint8Array | undefined;
  if (kind === "p2tr") fieldSig = fields.tapKeySig;
  else if (fields.partialSig) {
    const [only, ...others] = fields.partialSig;
    if (others.length > 0 || !equalBytes(only?.pubkey, userPublicKey)) throw unexpected("partialSig");
    fieldSig = only?.signature;
  }
  if (fieldSig && witnessSig && !equalBytes(fieldSig, witnessSig)) throw unexpected("finalScriptWitness");
  const signature = fieldSig ?? witnessSig;
  if (kind === "p2tr") assertTaprootSignatureShape({ index, sig: signature, expected: input.sighashType });
  else assertEcdsaSignatureShape({ index, sig: signature });
  return signature!;
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

function present(value: unknown): boolean {
  return value !== undefined && !(Array.isArray(value) && value.length === 0);
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

/**
 * The input's sighash type set to the one a Taproot signature carries (64 bytes: DEFAULT; 65: its last byte), so
 * that the signature is checked against the digest the chain will compute. bitcoinjs computes the digest from the
 * PSBT's field, ignoring the signature's own byte; on chain the byte decides. DEFAULT and ALL commit to the same
 * data (BIP-341: every input, every output), so a wallet may answer either for either (`assertTaprootSignatureShape`);
 * the finalizer then clears the field.
 */
function matchSighashType(input: InputFields, signature: Uint8Array): void {
  const byte = signature.length === 65 ? signature[64]! : SIGHASH_DEFAULT;
  if ((input.sighashType ?? SIGHASH_DEFAULT) === byte) return;
  if (byte === SIGHASH_DEFAULT) delete input.sighashType;
  else input.sighashType = byte;
}

/**
 * A key-path signature as the chain accepts it (BIP-341): 64 bytes (SIGHASH_DEFAULT), or 65 bytes whose last byte
 * is a sighash type other than 0x00 (a 65-byte signature ending in 0x00 fails with SCHNORR_SIG_HASHTYPE). Only what
 * commits to the whole transaction is accepted: DEFAULT or ALL, whichever of the two was asked (they commit to the
 * same data); NONE, SINGLE and ANYONECANPAY commit to less and are refused.
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
  const wholeTransaction = expected === SIGHASH_DEFAULT || expected === SIGHASH_ALL;
  if (!wholeTransaction || (byte !== undefined && byte !== SIGHASH_ALL)) {
    throw createBitcoinError(
      "BTC_SIGHASH_NOT_ALLOWED",
      "The wallet's signature carries a sighash byte the chain refuses or one weaker than DEFAULT/ALL.",
      { input: index, sighashType: byte ?? null, expected: [SIGHASH_DEFAULT, SIGHASH_ALL] },
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
