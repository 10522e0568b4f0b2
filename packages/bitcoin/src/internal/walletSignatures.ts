// Internal: the one signature a wallet may put on an input it was asked to sign, read from its answer and checked
// for the shape the chain accepts (Taproot key path, the HTLC's refund leaf, or P2WPKH ECDSA).
import { crypto as btcCrypto, type Psbt, script } from "bitcoinjs-lib";
import { TAPSCRIPT_LEAF_VERSION } from "../constants.js";
import { createBitcoinError } from "../errors.js";
import type { SignPsbtInput } from "../types.js";
import { compactSize, decodeWitnessStack, equalBytes } from "./bytes.js";

const SIGHASH_DEFAULT = 0x00;
const SIGHASH_ALL = 0x01;

export type InputFields = Psbt["data"]["inputs"][number];

/** True when a PSBT field carries a value (an empty list counts as absent). */
export function present(value: unknown): boolean {
  return value !== undefined && !(Array.isArray(value) && value.length === 0);
}

/** A signature a wallet returned, and for a script-path one the leaf it signs. */
export interface WalletSignature {
  signature: Uint8Array;
  leafHash?: Uint8Array | undefined;
}

const unexpected = (index: number, field: string) =>
  createBitcoinError("BTC_SIGNATURE_UNEXPECTED", "The wallet returned a signature it was not asked for.", {
    input: index,
    field,
  });

/**
 * The one signature a listed input may carry: the user's key-path signature (P2TR), the user's ECDSA signature
 * (P2WPKH) or the user's signature of the HTLC's refund leaf (`htlcRefund`), as a PSBT field or as a final witness
 * that is exactly that signature (and the user's key, or the leaf and its control block). Anything else holding a
 * signature is refused, and the signature's shape and sighash byte are checked here.
 */
export function readSignature(args: {
  input: SignPsbtInput;
  fields: InputFields;
  sent: InputFields;
  userPublicKey: Uint8Array;
}): WalletSignature {
  const { input, fields } = args;
  const { index, kind } = input;
  const forbidden =
    kind === "p2tr"
      ? (["partialSig", "tapScriptSig"] as const)
      : kind === "p2wpkh"
        ? (["tapKeySig", "tapScriptSig"] as const)
        : (["partialSig", "tapKeySig"] as const);
  for (const field of [...forbidden, "finalScriptSig"] as const) {
    if (present(fields[field])) throw unexpected(index, field);
  }
  const found = kind === "htlcRefund" ? readLeafSignature(args) : readKeySignature(args);
  if (found.field && found.witness && !equalBytes(found.field, found.witness)) {
    throw unexpected(index, "finalScriptWitness");
  }
  const signature = found.field ?? found.witness;
  if (kind === "p2wpkh") assertEcdsaSignatureShape({ index, sig: signature });
  else assertTaprootSignatureShape({ index, sig: signature, expected: input.sighashType });
  return { signature: signature!, leafHash: found.leafHash };
}

type Found = { field?: Uint8Array | undefined; witness?: Uint8Array | undefined; leafHash?: Uint8Array };

/** A key spend's signature: P2TR `tapKeySig` or witness `[sig]`; P2WPKH the user's `partialSig` or `[sig, key]`. */
function readKeySignature(args: {
  input: SignPsbtInput;
  fields: InputFields;
  userPublicKey: Uint8Array;
}): Found {
  const { input, fields, userPublicKey } = args;
  const { index, kind } = input;
  let witness: Uint8Array | undefined;
  if (fields.finalScriptWitness) {
    const stack = decodeWitnessStack(fields.finalScriptWitness);
    const exact =
      kind === "p2tr" ? stack?.length === 1 : stack?.length === 2 && equalBytes(stack[1], userPublicKey);
    if (!exact) throw unexpected(index, "finalScriptWitness");
    witness = stack![0]!;
  }
  if (kind === "p2tr") return { field: fields.tapKeySig, witness };
  if (!fields.partialSig) return { witness };
  const [only, ...others] = fields.partialSig;
  if (others.length > 0 || !equalBytes(only?.pubkey, userPublicKey)) throw unexpected(index, "partialSig");
  return { field: only?.signature, witness };
}

/**
 * The refund leaf's signature: one `tapScriptSig` by the user's x-only key for exactly the leaf sent, or a final
 * witness that is exactly `[sig, leaf script, control block]` as sent.
 */
function readLeafSignature(args: {
  input: SignPsbtInput;
  fields: InputFields;
  sent: InputFields;
  userPublicKey: Uint8Array;
}): Found {
  const { input, fields, sent } = args;
  const { index } = input;
  const leaf = sent.tapLeafScript?.[0];
  if (!leaf) throw unexpected(index, "tapLeafScript");
  const leafHash = btcCrypto.taggedHash(
    "TapLeaf",
    Uint8Array.from([leaf.leafVersion, ...compactSize(leaf.script.length), ...leaf.script]),
  );
  let witness: Uint8Array | undefined;
  if (fields.finalScriptWitness) {
    const stack = decodeWitnessStack(fields.finalScriptWitness);
    const exact =
      stack?.length === 3 &&
      equalBytes(stack[1], leaf.script) &&
      equalBytes(stack[2], leaf.controlBlock) &&
      leaf.leafVersion === TAPSCRIPT_LEAF_VERSION;
    if (!exact) throw unexpected(index, "finalScriptWitness");
    witness = stack![0]!;
  }
  if (!fields.tapScriptSig) return { witness, leafHash };
  const [only, ...others] = fields.tapScriptSig;
  const userXOnly = args.userPublicKey.slice(1);
  if (others.length > 0 || !equalBytes(only?.pubkey, userXOnly) || !equalBytes(only?.leafHash, leafHash)) {
    throw unexpected(index, "tapScriptSig");
  }
  return { field: only?.signature, witness, leafHash };
}

/**
 * The input's sighash type set to the one a Taproot signature carries (64 bytes: DEFAULT; 65: its last byte), so
 * that the signature is checked against the digest the chain will compute. bitcoinjs computes the digest from the
 * PSBT's field, ignoring the signature's own byte; on chain the byte decides. DEFAULT and ALL commit to the same
 * data (BIP-341: every input, every output), so a wallet may answer either for either (`assertTaprootSignatureShape`);
 * the finalizer then clears the field.
 */
export function matchSighashType(input: InputFields, signature: Uint8Array): void {
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
