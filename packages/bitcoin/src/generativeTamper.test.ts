// Generative tamper test (make each class of tampering impossible, not only its examples): start from deposits the sandbox's Bitcoin leg
// built (test/fixtures/sandbox-deposits.json, packages/sandbox/scripts/captureSandboxDeposits.ts) and replicas built here the same
// way, mutate any field, any JSON value, any byte of the PSBT, and require that the result is either
// refused with a coded error before the user's key is used, or that what gets signed means exactly what the
// wallet expected (checked on the signed transaction with bitcore's interpreter and the real prevouts).
// `pnpm test` runs a fixed seed and FUZZ_RUNS (default 500) runs; `pnpm fuzz` runs more (FUZZ_RUNS, FUZZ_SEED).
import { isSwapIntentError } from "@swapintent/client";
import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { crypto, Psbt, payments, Transaction } from "bitcoinjs-lib";
import fc from "fast-check";
import * as ecc from "tiny-secp256k1";
import { afterAll, describe, expect, it } from "vitest";
import sandboxDeposits from "../test/fixtures/sandbox-deposits.json" with { type: "json" };
import {
  AMOUNT,
  hex,
  leaves,
  NUMS,
  p2trOf,
  p2wpkhOf,
  resolverKey,
  SECRET_HASH,
  spySigner,
  strangerKey,
  userKey,
  xOnly,
} from "../test/fixtures.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import type { HtlcPolicyParameters, PsbtWalletSigner } from "./types.js";

const RUNS = Number(process.env.FUZZ_RUNS ?? 500);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const CSV = 144;
const userPublicKey = hex(userKey.publicKey);
/** The wallet's policy for a seed: the CSV delay and resolver pinned, so only the expected HTLC is acceptable. */
const policyOf = (seed: Seed): HtlcPolicyParameters => ({
  minCsvBlocks: CSV,
  maxCsvBlocks: CSV,
  resolverPublicKey: seed.resolverPublicKey,
});
const MAX_FEE_LOTS = 50_000n;
const MAX_FEE_RATE = 200n;

// ---- Deposits as the sandbox builds them (packages/sandbox/src/legs/bitcoin, buildApproval) ----

type Coin = { kind: "p2tr" | "p2wpkh"; value: bigint };
type Utxo = { script: Uint8Array; value: bigint; raw: Uint8Array };
interface Seed {
  name: string;
  /** The resolver key (x-only or compressed hex) and the HTLC script built here from it, independently. */
  resolverPublicKey: string;
  htlcScript: Uint8Array;
  intent: { [key: string]: unknown };
  quote: { sourceAmountLots: unknown };
  /** Real outputs by `txid:vout`: what the chain knows, whatever the PSBT claims. */
  utxos: Map<string, Utxo>;
}

const WU = { overhead: 42n, p2trIn: 230n, p2wpkhIn: 272n, p2trOut: 172n, p2wpkhOut: 124n };
const htlcLeaves = leaves({
  secretHash: SECRET_HASH,
  claimKey: xOnly(resolverKey),
  refundKey: xOnly(userKey),
  csv: CSV,
});
const HTLC_SCRIPT = payments.p2tr({
  internalPubkey: NUMS,
  scriptTree: [{ output: htlcLeaves.claim }, { output: htlcLeaves.refund }],
}).output!;
const USER_SCRIPTS = [p2trOf(userKey), p2wpkhOf(userKey)].map(hex);

function sandboxDeposit(name: string, coins: Coin[], change: "p2tr" | "p2wpkh"): Seed {
  const changeScript = change === "p2tr" ? p2trOf(userKey) : p2wpkhOf(userKey);
  const psbt = new Psbt();
  psbt.setVersion(2);
  psbt.setLocktime(0);
  const utxos = new Map<string, Utxo>();
  let weight = WU.overhead + WU.p2trOut + (change === "p2tr" ? WU.p2trOut : WU.p2wpkhOut);
  let total = 0n;
  coins.forEach((coin, i) => {
    const script = coin.kind === "p2tr" ? p2trOf(userKey) : p2wpkhOf(userKey);
    const prev = new Transaction();
    prev.version = 2;
    prev.addInput(new Uint8Array(32).fill(0x40 + i), 1);
    prev.addOutput(script, coin.value);
    utxos.set(`${prev.getId()}:0`, { script, value: coin.value, raw: prev.toBuffer() });
    psbt.addInput({
      hash: prev.getId(),
      index: 0,
      sequence: 0xfffffffd,
      witnessUtxo: { script, value: coin.value },
      ...(coin.kind === "p2wpkh" ? { nonWitnessUtxo: prev.toBuffer() } : { tapInternalKey: xOnly(userKey) }),
    });
    weight += coin.kind === "p2tr" ? WU.p2trIn : WU.p2wpkhIn;
    total += coin.value;
  });
  const fee = 2n * ((weight + 3n) / 4n);
  psbt.addOutput({
    script: HTLC_SCRIPT,
    value: AMOUNT,
    tapInternalKey: NUMS,
    tapTree: {
      leaves: [
        { depth: 1, leafVersion: 0xc0, script: htlcLeaves.claim },
        { depth: 1, leafVersion: 0xc0, script: htlcLeaves.refund },
      ],
    },
  });
  psbt.addOutput({ script: changeScript, value: total - AMOUNT - fee });
  const intent = {
    intentId: "8d3f0f5e-3a2b-4c1d-9e8f-0a1b2c3d4e5f",
    deadlineSecs: Math.floor(Date.now() / 1000) + 1_800,
    secretHash: `0x${hex(SECRET_HASH)}`,
    approvalMechanism: "htlc",
    paramsToSign: { psbt: psbt.toBase64(), inputs: coins.map((_, i) => i) },
  };
  return {
    name,
    resolverPublicKey: hex(xOnly(resolverKey)),
    htlcScript: HTLC_SCRIPT,
    intent,
    quote: { sourceAmountLots: AMOUNT },
    utxos,
  };
}

/** A deposit the sandbox's own leg built; its (honest) witnessUtxo data are the real prevouts. */
function capturedDeposit(captured: (typeof sandboxDeposits)[number]): Seed {
  const psbt = Psbt.fromBase64(captured.intent.paramsToSign.psbt);
  const utxos = new Map<string, Utxo>();
  psbt.txInputs.forEach((input, i) => {
    const { script, value } = psbt.data.inputs[i]!.witnessUtxo!;
    utxos.set(`${Buffer.from(input.hash).reverse().toString("hex")}:${input.index}`, {
      script,
      value,
      raw: new Uint8Array(),
    });
  });
  const resolverXOnly = Buffer.from(captured.resolverPublicKey, "hex").subarray(1);
  const secretHash = Buffer.from(captured.intent.secretHash.slice(2), "hex");
  const tree = leaves({ secretHash, claimKey: resolverXOnly, refundKey: xOnly(userKey), csv: CSV });
  const htlcScript = payments.p2tr({
    internalPubkey: NUMS,
    scriptTree: [{ output: tree.claim }, { output: tree.refund }],
  }).output!;
  return {
    name: captured.name,
    resolverPublicKey: captured.resolverPublicKey,
    htlcScript,
    // Replayed now: the deadline the sandbox gave it at capture time has passed (BTC_DEADLINE_PASSED).
    intent: { ...structuredClone(captured.intent), deadlineSecs: Math.floor(Date.now() / 1000) + 1_800 },
    quote: { sourceAmountLots: BigInt(captured.quote.sourceAmountLots) },
    utxos,
  };
}

const SEEDS: Seed[] = [
  ...sandboxDeposits.map(capturedDeposit),
  sandboxDeposit("P2TR user", [{ kind: "p2tr", value: 150_000n }], "p2tr"),
  sandboxDeposit(
    "P2WPKH user",
    [
      { kind: "p2wpkh", value: 70_000n },
      { kind: "p2wpkh", value: 60_000n },
    ],
    "p2wpkh",
  ),
  sandboxDeposit(
    "P2TR user with a P2WPKH coin",
    [
      { kind: "p2tr", value: 80_000n },
      { kind: "p2wpkh", value: 50_000n },
    ],
    "p2tr",
  ),
];

// ---- Mutations ----

const bytes = (min: number, max: number) => fc.uint8Array({ minLength: min, maxLength: max });
const someScript = fc.oneof(
  fc.constantFrom(
    p2trOf(userKey),
    p2wpkhOf(userKey),
    p2trOf(strangerKey),
    p2wpkhOf(strangerKey),
    HTLC_SCRIPT,
    payments.p2pkh({ pubkey: userKey.publicKey }).output!,
    payments.p2wsh({ redeem: { output: Uint8Array.of(0x51) } }).output!,
    // A user+service multisig and a P2TR whose output key is the user's untweaked key.
    payments.p2ms({ m: 1, pubkeys: [userKey.publicKey, strangerKey.publicKey] }).output!,
    Uint8Array.from([0x51, 0x20, ...xOnly(userKey)]),
  ),
  bytes(0, 40),
);
const someKey32 = fc.oneof(fc.constantFrom(xOnly(userKey), xOnly(strangerKey), NUMS), bytes(32, 32));
const someKey33 = fc.oneof(fc.constantFrom(userKey.publicKey, strangerKey.publicKey), bytes(33, 33));
const someValue = fc.oneof(
  fc.bigInt({ min: 0n, max: 300_000n }),
  fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
  // Below zero: bitcoinjs reads amounts as signed 64-bit integers (consensus and other parsers as unsigned).
  fc.bigInt({ min: -1_000n, max: -1n }),
  fc.bigInt({ min: -(1n << 63n), max: -1n }),
);
const derivation = fc.record({
  masterFingerprint: bytes(4, 4),
  path: fc.constant("m/0'/1"),
  pubkey: someKey33,
});
const tapDerivation = fc.record({
  masterFingerprint: bytes(4, 4),
  path: fc.constant("m/86'/0'/0'/0/0"),
  pubkey: someKey32,
  leafHashes: fc.array(bytes(32, 32), { maxLength: 2 }),
});

/** A value for one PSBT input field, of a shape bitcoinjs can serialize (else the mutation is skipped). */
const inputField = fc.oneof(
  fc.record({ key: fc.constant("witnessUtxo"), value: fc.record({ script: someScript, value: someValue }) }),
  fc.record({ key: fc.constant("nonWitnessUtxo"), value: bytes(0, 80) }),
  fc.record({
    key: fc.constant("sighashType"),
    value: fc.oneof(fc.constantFrom(0, 1, 2, 3, 0x81, 0x82, 0x83), fc.nat()),
  }),
  fc.record({ key: fc.constant("tapInternalKey"), value: someKey32 }),
  fc.record({ key: fc.constant("tapMerkleRoot"), value: bytes(32, 32) }),
  fc.record({ key: fc.constant("tapKeySig"), value: bytes(64, 65) }),
  fc.record({ key: fc.constant("finalScriptWitness"), value: bytes(1, 300) }),
  fc.record({ key: fc.constant("finalScriptSig"), value: bytes(1, 40) }),
  fc.record({ key: fc.constant("redeemScript"), value: someScript }),
  fc.record({ key: fc.constant("witnessScript"), value: someScript }),
  fc.record({
    key: fc.constant("bip32Derivation"),
    value: fc.array(derivation, { minLength: 1, maxLength: 2 }),
  }),
  fc.record({
    key: fc.constant("tapBip32Derivation"),
    value: fc.array(tapDerivation, { minLength: 1, maxLength: 2 }),
  }),
  fc.record({
    key: fc.constant("partialSig"),
    value: fc.array(fc.record({ pubkey: someKey33, signature: bytes(9, 73) }), {
      minLength: 1,
      maxLength: 1,
    }),
  }),
  fc.record({
    key: fc.constant("tapLeafScript"),
    value: fc.array(
      fc.record({
        leafVersion: fc.constant(0xc0),
        script: someScript,
        controlBlock: bytes(33, 33).map((b) => Uint8Array.from([0xc0, ...b.slice(1)])),
      }),
      { minLength: 1, maxLength: 1 },
    ),
  }),
  fc.record({
    key: fc.constant("unknownKeyVals"),
    value: fc.array(
      fc.record({ key: bytes(1, 4).map((b) => Uint8Array.from([0xfc, ...b])), value: bytes(0, 8) }),
      { minLength: 1, maxLength: 1 },
    ),
  }),
  fc.record({
    key: fc.constant("delete"),
    value: fc.constantFrom("witnessUtxo", "nonWitnessUtxo", "tapInternalKey", "sighashType"),
  }),
);

const outputField = fc.oneof(
  fc.record({ key: fc.constant("tapInternalKey"), value: someKey32 }),
  fc.record({
    key: fc.constant("bip32Derivation"),
    value: fc.array(derivation, { minLength: 1, maxLength: 1 }),
  }),
  fc.record({
    key: fc.constant("tapBip32Derivation"),
    value: fc.array(tapDerivation, { minLength: 1, maxLength: 1 }),
  }),
  fc.record({ key: fc.constant("redeemScript"), value: someScript }),
  fc.record({ key: fc.constant("witnessScript"), value: someScript }),
  fc.record({
    key: fc.constant("tapTree"),
    value: fc.record({
      leaves: fc.array(
        fc.record({
          depth: fc.integer({ min: 0, max: 3 }),
          leafVersion: fc.constantFrom(0xc0, 0xc2),
          script: someScript,
        }),
        { minLength: 1, maxLength: 3 },
      ),
    }),
  }),
  fc.record({ key: fc.constant("delete"), value: fc.constantFrom("tapInternalKey", "tapTree") }),
);

/** Changes to the unsigned transaction itself (rebuilt, so every other PSBT field stays). */
const txEdit = fc.oneof(
  fc.record({ op: fc.constant("version"), value: fc.constantFrom(0, 1, 2, 3, 4, 0x7fffffff, 0xffffffff) }),
  fc.record({
    op: fc.constant("locktime"),
    value: fc.oneof(
      fc.constantFrom(1, 499_999_999, 500_000_000, 2_000_000_000),
      fc.nat(),
      // Near the clock: the chain compares a time locktime with the median time past, about an hour behind.
      fc.integer({ min: -10_800, max: 600 }).map((d) => Math.floor(Date.now() / 1000) + d),
    ),
  }),
  fc.record({
    op: fc.constant("sequence"),
    index: fc.nat(3),
    value: fc.oneof(fc.constantFrom(0, 1, 144, 0xfffffffe, 0xffffffff, 0x00400001), fc.nat()),
  }),
  fc.record({ op: fc.constant("outputValue"), index: fc.nat(3), value: someValue }),
  fc.record({ op: fc.constant("outputScript"), index: fc.nat(3), script: someScript }),
  fc.record({ op: fc.constant("addOutput"), script: someScript, value: someValue }),
  fc.record({ op: fc.constant("removeOutput"), index: fc.nat(3) }),
  fc.record({ op: fc.constant("swapOutputs") }),
  // Near the edges the wallet cares about: the change moved a little (fee up or down, dust limits).
  fc.record({ op: fc.constant("changeDelta"), delta: fc.bigInt({ min: -60_000n, max: 60_000n }) }),
  fc.record({ op: fc.constant("prevout"), index: fc.nat(3), vout: fc.nat(3), hashByte: fc.nat(31) }),
  fc.record({
    op: fc.constant("addInput"),
    script: someScript,
    value: someValue,
    witness: fc.option(bytes(1, 400)),
  }),
  // A service coin whose stated value comes back to the user as change: the fee stays, only the coin is new.
  fc.record({ op: fc.constant("serviceCoin"), script: someScript, value: someValue }),
);

const jsonPath = fc.constantFrom(
  "intentId",
  "deadlineSecs",
  "secretHash",
  "approvalMechanism",
  "paramsToSign",
  "paramsToSign.psbt",
  "paramsToSign.inputs",
  "paramsToSign.inputs.0",
  "paramsToSign.inputs.1",
  "quote.sourceAmountLots",
);
const jsonValue = fc.oneof(
  fc.jsonValue(),
  fc.bigInt(),
  fc.constantFrom(
    undefined,
    null,
    0,
    1,
    2,
    -1,
    1.5,
    Number.NaN,
    "htlc",
    "permit2",
    "0",
    [],
    [0],
    [1, 0],
    [0, 0],
    [0, 1, 2],
    AMOUNT - 1n,
    AMOUNT + 1n,
  ),
  fc.string({ unit: "grapheme" }),
);

const mutation = fc.oneof(
  fc.record({
    kind: fc.constant("psbtByte" as const),
    position: fc.nat(),
    byte: fc.nat(255),
    op: fc.constantFrom("set", "xor", "insert", "delete"),
  }),
  fc.record({ kind: fc.constant("input" as const), index: fc.nat(3), field: inputField }),
  fc.record({ kind: fc.constant("output" as const), index: fc.nat(3), field: outputField }),
  fc.record({ kind: fc.constant("global" as const), value: bytes(1, 8) }),
  fc.record({ kind: fc.constant("tx" as const), edit: txEdit }),
  fc.record({ kind: fc.constant("json" as const), path: jsonPath, value: jsonValue }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

function setPath(root: { [key: string]: unknown }, path: string, value: unknown): void {
  const keys = path.split(".");
  let node: unknown = root;
  for (const key of keys.slice(0, -1)) {
    if (typeof node !== "object" || node === null) return;
    node = (node as Record<string, unknown>)[key];
  }
  if (typeof node === "object" && node !== null) (node as Record<string, unknown>)[keys.at(-1)!] = value;
}

/** Apply one mutation; false when it could not be applied (a shape bitcoinjs will not serialize). */
function apply(
  state: { intent: { [key: string]: unknown }; quote: { sourceAmountLots: unknown } },
  m: Mutation,
): boolean {
  const params = state.intent.paramsToSign as { psbt?: unknown } | undefined;
  if (m.kind === "json") {
    if (m.path.startsWith("quote.")) state.quote.sourceAmountLots = m.value;
    else setPath(state.intent, m.path, m.value);
    return true;
  }
  if (typeof params?.psbt !== "string") return false;
  if (m.kind === "psbtByte") {
    const raw = [...Buffer.from(params.psbt, "base64")];
    const at = m.position % raw.length;
    if (m.op === "set") raw[at] = m.byte;
    else if (m.op === "xor") raw[at] = raw[at]! ^ (1 << (m.byte % 8));
    else if (m.op === "insert") raw.splice(at, 0, m.byte);
    else raw.splice(at, 1);
    params.psbt = Buffer.from(raw).toString("base64");
    return true;
  }
  try {
    const psbt = Psbt.fromBase64(params.psbt);
    editPsbt(psbt, m);
    params.psbt = psbt.toBase64();
    return true;
  } catch {
    return false;
  }
}

function editPsbt(psbt: Psbt, m: Exclude<Mutation, { kind: "json" | "psbtByte" }>): void {
  const setField = (map: Record<string, unknown>, field: { key: string; value: unknown }) => {
    if (field.key === "delete") delete map[field.value as string];
    else map[field.key] = field.value;
  };
  if (m.kind === "input") {
    setField(psbt.data.inputs[m.index % psbt.data.inputs.length] as Record<string, unknown>, m.field);
  } else if (m.kind === "output") {
    setField(psbt.data.outputs[m.index % psbt.data.outputs.length] as Record<string, unknown>, m.field);
  } else if (m.kind === "global") {
    psbt.data.globalMap.unknownKeyVals = [{ key: Uint8Array.from([0xfc, ...m.value]), value: m.value }];
  } else editTransaction(psbt, m.edit);
}

function editTransaction(psbt: Psbt, e: Extract<Mutation, { kind: "tx" }>["edit"]): void {
  // The PSBT's own unsigned transaction, edited in place (bitcoinjs serializes this object); outputs removed or
  // reordered are removed or reordered in the PSBT's output maps too.
  const tx = (psbt.data.globalMap.unsignedTx as unknown as { tx: Transaction }).tx;
  if (e.op === "version") tx.version = e.value;
  else if (e.op === "locktime") tx.locktime = e.value;
  else if (e.op === "sequence") tx.ins[e.index % tx.ins.length]!.sequence = e.value;
  else if (e.op === "outputValue") tx.outs[e.index % tx.outs.length]!.value = e.value;
  else if (e.op === "outputScript") tx.outs[e.index % tx.outs.length]!.script = e.script;
  else if (e.op === "changeDelta") {
    const change = tx.outs.at(-1)!;
    change.value = change.value + e.delta < 0n ? 0n : change.value + e.delta;
  } else if (e.op === "addOutput") psbt.addOutput({ script: e.script, value: e.value });
  else if (e.op === "removeOutput") {
    const at = e.index % tx.outs.length;
    tx.outs.splice(at, 1);
    psbt.data.outputs.splice(at, 1);
  } else if (e.op === "swapOutputs" && tx.outs.length > 1) {
    tx.outs.reverse();
    psbt.data.outputs.reverse();
  } else if (e.op === "prevout") {
    const input = tx.ins[e.index % tx.ins.length]!;
    input.index = e.vout;
    input.hash = Uint8Array.from(input.hash, (b, i) => (i === e.hashByte ? b ^ 1 : b));
  } else if (e.op === "addInput") {
    psbt.addInput({
      hash: new Uint8Array(32).fill(0xee),
      index: 0,
      witnessUtxo: { script: e.script, value: e.value },
      ...(e.witness ? { finalScriptWitness: e.witness } : {}),
    });
  } else if (e.op === "serviceCoin") {
    psbt.addInput({
      hash: new Uint8Array(32).fill(0xef),
      index: 0,
      witnessUtxo: { script: e.script, value: e.value },
    });
    tx.outs.at(-1)!.value += e.value;
  }
}

// ---- The oracle ----

interface Outcome {
  refused: boolean;
  code?: string;
}

/** The signed deposit means what the wallet expected, or cannot be mined at all. Returns a reason on failure. */
function judgeSigned(seed: Seed, signedBase64: string, listed: number[]): string | null {
  const signed = Psbt.fromBase64(signedBase64);
  const tx = Transaction.fromBuffer(signed.data.globalMap.unsignedTx.toBuffer());
  for (const i of signed.data.inputs.keys())
    if (signed.data.inputs[i]!.finalScriptWitness)
      tx.ins[i]!.witness = decodeWitness(signed.data.inputs[i]!.finalScriptWitness!);
  const real = tx.ins.map((input) =>
    seed.utxos.get(`${Buffer.from(input.hash).reverse().toString("hex")}:${input.index}`),
  );
  const claimed = signed.data.inputs.map((input) => input.witnessUtxo!);
  // No input the user did not sign may name the user's key anywhere a wallet could sign by.
  const keyHash = crypto.hash160(userKey.publicKey);
  for (const [i, input] of signed.data.inputs.entries()) {
    if (listed.includes(i)) continue;
    const fields = Object.entries(input).filter(
      ([key]) => !["nonWitnessUtxo", "finalScriptWitness", "finalScriptSig"].includes(key),
    );
    const text = hex(Buffer.concat(fields.flatMap(([, value]) => bytesIn(value))));
    if (text.includes(hex(xOnly(userKey))) || text.includes(hex(keyHash)))
      return `unlisted input ${i} names the user's key`;
    if (input.unknownKeyVals?.length) return `unlisted input ${i} carries unknown fields`;
  }
  const honest = real.every(
    (r, i) => r && equal(r.script, claimed[i]!.script) && r.value === claimed[i]!.value,
  );
  const prevouts = real.map((r, i) => r ?? claimed[i]!);
  const verdicts = runInterpreter({ txHex: tx.toHex(), prevouts });
  const listedValid = listed.every((i) => verdicts[i] === null);
  if (!honest) {
    // The service lied about a prevout or spends a coin that does not exist: the transaction must not be minable.
    return real.some((r) => !r) || !listedValid ? null : "a lying PSBT produced signatures the chain accepts";
  }
  if (!listedValid) return `the interpreter refuses a user signature: ${verdicts.join(",")}`;
  if (listed.length !== tx.ins.length) return "an input the user did not sign was left in an honest deposit";
  if (!equal(tx.outs[0]!.script, seed.htlcScript) || tx.outs[0]!.value !== seed.quote.sourceAmountLots)
    return "output 0 is not the expected HTLC";
  if (tx.outs.length > 2) return "the change is split over several outputs";
  for (const out of tx.outs.slice(1)) {
    if (!USER_SCRIPTS.includes(hex(out.script))) return "an output pays someone else";
    if (out.value < (out.script.length === 34 ? 330n : 294n)) return "a dust output";
  }
  const fee = real.reduce((sum, r) => sum + r!.value, 0n) - tx.outs.reduce((sum, o) => sum + o.value, 0n);
  const vsize = BigInt(tx.virtualSize());
  if (fee < vsize || fee > MAX_FEE_LOTS || fee > MAX_FEE_RATE * vsize) return `fee ${fee} for ${vsize} vB`;
  // At most 10% of the amount (the default maxFeeBps): the absolute caps alone would let a small swap burn 5x itself.
  if (fee * 10_000n > seed.quote.sourceAmountLots * 1_000n) return `fee ${fee} above 10% of the amount`;
  // Relayed: version 1 or 2 and at most 400,000 weight units.
  if (tx.version !== 1 && tx.version !== 2) return `version ${tx.version} is not relayed`;
  if (tx.weight() > 400_000) return "heavier than 400,000 weight units";
  // A height locktime delays the deposit (the policy allows none); a time locktime unless the median time past
  // (at least an hour behind the clock, taken as two) has passed it.
  const pastTime = tx.locktime >= 500_000_000 && tx.locktime <= Date.now() / 1000 - 7_200;
  const delayed = tx.ins.some((i) => i.sequence !== 0xffffffff) && tx.locktime !== 0 && !pastTime;
  const relative =
    tx.version >= 2 && tx.ins.some((i) => (i.sequence & 0x80000000) === 0 && (i.sequence & 0xffff) !== 0);
  if (delayed || relative) return "the deposit is timelocked";
  return null;
}

/** Every byte string inside a PSBT field value, read here independently of the package. */
function bytesIn(value: unknown): Uint8Array[] {
  if (value instanceof Uint8Array) return [value];
  if (Array.isArray(value)) return value.flatMap(bytesIn);
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(bytesIn);
  return [];
}

function decodeWitness(bytes: Uint8Array): Uint8Array[] {
  const items: Uint8Array[] = [];
  let pos = 1;
  for (let i = 0; i < bytes[0]!; i++) {
    const length = bytes[pos]!;
    items.push(bytes.slice(pos + 1, pos + 1 + length));
    pos += 1 + length;
  }
  return items;
}

const equal = (a: Uint8Array, b: Uint8Array) => hex(a) === hex(b);

// ---- A wallet's signPsbt that signs honestly, then hands back something else ----

const walletMutation = fc.oneof(
  fc.record({ kind: fc.constant("byte" as const), position: fc.nat(), byte: fc.nat(255) }),
  fc.record({
    kind: fc.constant("signature" as const),
    input: fc.nat(3),
    edit: fc.oneof(
      fc.record({ op: fc.constant("append" as const), bytes: bytes(1, 2) }),
      fc.record({ op: fc.constant("truncate" as const), by: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ op: fc.constant("flip" as const), at: fc.nat(), bit: fc.nat(7) }),
      fc.record({
        op: fc.constant("last" as const),
        byte: fc.constantFrom(0x00, 0x01, 0x02, 0x03, 0x81, 0x83, 0xff),
      }),
      fc.record({ op: fc.constant("replace" as const), bytes: bytes(8, 73) }),
    ),
    via: fc.constantFrom("field" as const, "witness" as const),
  }),
  fc.record({ kind: fc.constant("unsign" as const), input: fc.nat(3) }),
);
type WalletMutation = typeof walletMutation extends fc.Arbitrary<infer T> ? T : never;

function editSignature(
  sig: Uint8Array,
  edit: Extract<WalletMutation, { kind: "signature" }>["edit"],
): Uint8Array {
  if (edit.op === "append") return Uint8Array.from([...sig, ...edit.bytes]);
  if (edit.op === "truncate") return sig.slice(0, Math.max(0, sig.length - edit.by));
  if (edit.op === "flip")
    return Uint8Array.from(sig, (b, i) => (i === edit.at % sig.length ? b ^ (1 << edit.bit) : b));
  if (edit.op === "last") return Uint8Array.from([...sig.slice(0, -1), edit.byte]);
  return edit.bytes;
}

function mutatingWallet(m: WalletMutation): PsbtWalletSigner {
  return {
    publicKey: userKey.publicKey,
    signPsbt: async ({ psbt: base64, inputs }) => {
      const p = Psbt.fromBase64(base64);
      const tweaked = userKey.tweak(crypto.taggedHash("TapTweak", xOnly(userKey)));
      for (const i of inputs)
        p.signInput(i, p.data.inputs[i]!.tapInternalKey ? tweaked : userKey, [0x00, 0x01]);
      if (m.kind === "byte") {
        const raw = [...Buffer.from(p.toBase64(), "base64")];
        raw[m.position % raw.length] = m.byte;
        return Buffer.from(raw).toString("base64");
      }
      const input = p.data.inputs[inputs[m.input % inputs.length]!]!;
      if (m.kind === "unsign") {
        delete input.tapKeySig;
        delete input.partialSig;
        return p.toBase64();
      }
      const taproot = input.tapKeySig !== undefined;
      const sig = editSignature(taproot ? input.tapKeySig! : input.partialSig![0]!.signature, m.edit);
      if (m.via === "witness") {
        const stack = taproot ? [sig] : [sig, userKey.publicKey];
        delete input.tapKeySig;
        delete input.partialSig;
        input.finalScriptWitness = Uint8Array.from([
          stack.length,
          ...stack.flatMap((item) => [item.length, ...item]),
        ]);
      } else if (taproot) input.tapKeySig = sig;
      else input.partialSig = [{ pubkey: userKey.publicKey, signature: sig }];
      return p.toBase64(); // may throw for a shape bitcoinjs will not serialize: the wallet then fails, uncoded
    },
  };
}

const tally = { tried: 0, applied: 0, refused: 0, accepted: 0, codes: new Map<string, number>() };

describe("generative tamper test", () => {
  afterAll(() => {
    const codes = [...tally.codes].sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c} ${n}`);
    console.info(
      `bitcoin tamper: ${tally.tried} mutations tried (${tally.applied} applied), ${tally.refused} refused, ${tally.accepted} accepted as equal in meaning; seed ${SEED}\n  ${codes.join(", ")}`,
    );
  });

  it("the untampered seeds are accepted, signed and valid on the interpreter", async () => {
    for (const seed of SEEDS) {
      const { psbt } = await signHtlcPsbt({
        ecc,
        intent: seed.intent as never,
        quote: seed.quote as never,
        userPublicKey,
        signer: userKey,
        policy: policyOf(seed),
      });
      expect(judgeSigned(seed, psbt, (seed.intent.paramsToSign as { inputs: number[] }).inputs)).toBeNull();
    }
  });

  it("refuses every mutation with a code before the key is used, or signs what the wallet expected", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(SEEDS.length - 1),
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        async (which, mutations) => {
          const seed = SEEDS[which]!;
          const state = structuredClone({ intent: seed.intent, quote: seed.quote });
          for (const m of mutations) {
            tally.tried++;
            if (apply(state, m)) tally.applied++;
          }
          const signer = spySigner();
          let outcome: Outcome;
          let signedPsbt = "";
          try {
            const result = await signHtlcPsbt({
              ecc,
              intent: state.intent as never,
              quote: state.quote as never,
              userPublicKey,
              signer,
              policy: policyOf(seed),
            });
            signedPsbt = result.psbt;
            outcome = { refused: false };
          } catch (error) {
            if (!isSwapIntentError(error)) throw new Error(`uncoded error: ${String(error)}`);
            outcome = { refused: true, code: error.code };
          }
          if (outcome.refused) {
            tally.refused++;
            tally.codes.set(outcome.code!, (tally.codes.get(outcome.code!) ?? 0) + 1);
            expect(signer.uses, `refused with ${outcome.code} after using the key`).toBe(0);
          } else {
            tally.accepted++;
            expect(
              judgeSigned(seed, signedPsbt, (state.intent.paramsToSign as { inputs: number[] }).inputs),
            ).toBeNull();
          }
        },
      ),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  }, 600_000);

  it("refuses whatever a wallet hands back unless it is a signature the chain accepts for the verified deposit", async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(SEEDS.length - 1), walletMutation, async (which, m) => {
        const seed = SEEDS[which]!;
        tally.tried++;
        tally.applied++;
        let signedPsbt: string;
        try {
          const result = await signHtlcPsbt({
            ecc,
            intent: seed.intent as never,
            quote: seed.quote as never,
            userPublicKey,
            signer: mutatingWallet(m),
            policy: policyOf(seed),
          });
          signedPsbt = result.psbt;
        } catch (error) {
          if (!isSwapIntentError(error)) {
            // Only the wallet itself may fail uncoded (bitcoinjs refusing to serialize what the test made).
            expect(String((error as Error).stack)).toContain("signPsbt");
            return;
          }
          tally.refused++;
          tally.codes.set(error.code, (tally.codes.get(error.code) ?? 0) + 1);
          return;
        }
        tally.accepted++;
        expect(
          judgeSigned(seed, signedPsbt, (seed.intent.paramsToSign as { inputs: number[] }).inputs),
        ).toBeNull();
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  }, 600_000);
});
