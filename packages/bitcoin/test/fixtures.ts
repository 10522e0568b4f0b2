import type { Intent, Quote } from "@swapintent/client";
import { crypto, initEccLib, opcodes, Psbt, payments, script, Transaction } from "bitcoinjs-lib";
import { ECPairFactory, type ECPairInterface } from "ecpair";
import * as ecc from "tiny-secp256k1";

initEccLib(ecc);
export const ECPair = ECPairFactory(ecc);

export const NUMS = Buffer.from("50929b74c1a04954b78b4b6035e97a5e078a5a0f28ec96d547bfee9ace803ac0", "hex");
export const userKey: ECPairInterface = ECPair.fromPrivateKey(new Uint8Array(32).fill(0x11));
export const resolverKey: ECPairInterface = ECPair.fromPrivateKey(new Uint8Array(32).fill(0x22));
export const strangerKey: ECPairInterface = ECPair.fromPrivateKey(new Uint8Array(32).fill(0x33));
export const SECRET = new Uint8Array(32).fill(0x5e);
export const SECRET_HASH = crypto.sha256(SECRET);

export const xOnly = (key: ECPairInterface): Uint8Array => key.publicKey.slice(1, 33);
export const p2trOf = (key: ECPairInterface): Uint8Array =>
  payments.p2tr({ internalPubkey: xOnly(key) }).output!;
export const p2wpkhOf = (key: ECPairInterface): Uint8Array =>
  payments.p2wpkh({ pubkey: key.publicKey }).output!;
export const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

/** The two leaves written out here from apps/docs/pages/reference/approvals.md, independently of the package's builder. */
export function leaves(args: {
  secretHash: Uint8Array;
  claimKey: Uint8Array;
  refundKey: Uint8Array;
  csv: number;
}) {
  return {
    claim: script.compile([
      opcodes.OP_SHA256,
      args.secretHash,
      opcodes.OP_EQUALVERIFY,
      args.claimKey,
      opcodes.OP_CHECKSIG,
    ]),
    refund: script.compile([
      script.number.encode(args.csv),
      opcodes.OP_CHECKSEQUENCEVERIFY,
      opcodes.OP_DROP,
      args.refundKey,
      opcodes.OP_CHECKSIG,
    ]),
  };
}

export interface InputSpec {
  kind: "p2tr" | "p2wpkh";
  value: bigint;
  owner?: ECPairInterface;
  nonWitness?: boolean;
  sighashType?: number;
  /** Replace witnessUtxo.value with this (the previous transaction keeps `value`). */
  claimedValue?: bigint;
}

export interface DepositOptions {
  inputs?: InputSpec[];
  listed?: number[];
  htlcValue?: bigint;
  secretHash?: Uint8Array;
  claimKey?: Uint8Array;
  refundKey?: Uint8Array;
  csv?: number;
  internalKey?: Uint8Array;
  /** Replace output 0's script while keeping its BIP-371 fields. */
  htlcScript?: Uint8Array;
  /** Leave output 0 without tapInternalKey/tapTree. */
  htlcWithoutTapFields?: boolean;
  outputs?: { script: Uint8Array; value: bigint }[];
}

export const AMOUNT = 100_000n;
export const CSV = 144;

/** Build a deposit PSBT as the sandbox would (or tampered, per the options), plus the intent and quote. */
export type HtlcIntent = Extract<Intent, { approvalMechanism: "htlc" }>;

export interface Deposit {
  intent: HtlcIntent;
  quote: Pick<Quote, "sourceAmountLots">;
  psbt: string;
  prevouts: { script: Uint8Array; value: bigint }[];
  htlcScript: Uint8Array;
  leaves: { claim: Uint8Array; refund: Uint8Array };
}

export function buildDeposit(options: DepositOptions = {}): Deposit {
  const inputs = options.inputs ?? [
    { kind: "p2tr", value: 60_000n },
    { kind: "p2wpkh", value: 50_000n },
  ];
  const htlcValue = options.htlcValue ?? AMOUNT;
  const leafScripts = leaves({
    secretHash: options.secretHash ?? SECRET_HASH,
    claimKey: options.claimKey ?? xOnly(resolverKey),
    refundKey: options.refundKey ?? xOnly(userKey),
    csv: options.csv ?? CSV,
  });
  const internalKey = options.internalKey ?? NUMS;
  const htlc = payments.p2tr({
    internalPubkey: internalKey,
    scriptTree: [{ output: leafScripts.claim }, { output: leafScripts.refund }],
  });
  const psbt = new Psbt();
  const prevouts: { script: Uint8Array; value: bigint }[] = [];
  inputs.forEach((spec, i) => {
    const owner = spec.owner ?? userKey;
    const scriptPubKey = spec.kind === "p2tr" ? p2trOf(owner) : p2wpkhOf(owner);
    const prev = new Transaction();
    prev.version = 2;
    prev.addInput(new Uint8Array(32).fill(i + 1), 0);
    prev.addOutput(scriptPubKey, spec.value);
    prevouts.push({ script: scriptPubKey, value: spec.value });
    psbt.addInput({
      hash: prev.getId(),
      index: 0,
      witnessUtxo: { script: scriptPubKey, value: spec.claimedValue ?? spec.value },
      ...(spec.nonWitness ? { nonWitnessUtxo: prev.toBuffer() } : {}),
      ...(spec.kind === "p2tr" ? { tapInternalKey: xOnly(owner) } : {}),
      ...(spec.sighashType !== undefined ? { sighashType: spec.sighashType } : {}),
    });
  });
  psbt.addOutput({ script: options.htlcScript ?? htlc.output!, value: htlcValue });
  if (!options.htlcWithoutTapFields) {
    // Set directly so that a tampered script can carry the fields too (bitcoinjs would refuse the mismatch).
    psbt.data.outputs[0]!.tapInternalKey = internalKey;
    psbt.data.outputs[0]!.tapTree = {
      leaves: [
        { depth: 1, leafVersion: 0xc0, script: leafScripts.claim },
        { depth: 1, leafVersion: 0xc0, script: leafScripts.refund },
      ],
    };
  }
  // Change of the type the user's coins are of (a P2WPKH wallet's change is P2WPKH; the signer refuses another).
  const changeScript = inputs.every((i) => i.kind === "p2wpkh") ? p2wpkhOf(userKey) : p2trOf(userKey);
  const outputs = options.outputs ?? [{ script: changeScript, value: 9_000n }];
  for (const o of outputs) psbt.addOutput({ script: o.script, value: o.value });

  const listed = options.listed ?? inputs.map((_, i) => i);
  const intent: HtlcIntent = {
    intentId: "8d3f0f5e-3a2b-4c1d-9e8f-0a1b2c3d4e5f",
    // Open for 30 minutes, as the sandbox's intents (within the default maxDeadlineSecs of one day).
    deadlineSecs: Math.floor(Date.now() / 1000) + 1_800,
    secretHash: `0x${hex(SECRET_HASH)}`,
    approvalMechanism: "htlc",
    paramsToSign: { psbt: psbt.toBase64(), inputs: listed },
  };
  const quote: Pick<Quote, "sourceAmountLots"> = { sourceAmountLots: AMOUNT };
  return { intent, quote, psbt: psbt.toBase64(), prevouts, htlcScript: htlc.output!, leaves: leafScripts };
}

/** The user's key behind a spy that counts every use (sign, signSchnorr, tweak): a refusal must leave it at 0. */
export function spySigner(): {
  uses: number;
  publicKey: Uint8Array;
  sign(hash: Uint8Array): Uint8Array;
  signSchnorr(hash: Uint8Array): Uint8Array;
  tweak(t: Uint8Array): ECPairInterface;
} {
  const spy = {
    uses: 0,
    publicKey: userKey.publicKey,
    sign: (hash: Uint8Array) => {
      spy.uses++;
      return userKey.sign(hash);
    },
    signSchnorr: (hash: Uint8Array) => {
      spy.uses++;
      return userKey.signSchnorr(hash);
    },
    tweak: (t: Uint8Array) => {
      spy.uses++;
      return userKey.tweak(t);
    },
  };
  return spy;
}
