import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Transaction } from "bitcoinjs-lib";

/** One unspent output of the sandbox chain. */
export interface Utxo {
  txid: string;
  vout: number;
  /** Output script, hex. */
  script: string;
  value: bigint;
  /** Block height at which the output was created (for BIP-68 relative locks). */
  height: number;
  /** Sandbox clock time of creation, unix ms (for time-based BIP-68 locks). */
  timeMs: number;
}

interface StoredState {
  version: 1;
  genesisMs: number;
  faucetCounter: number;
  utxos: Record<string, { script: string; value: string; height: number; timeMs: number }>;
  spentBy: Record<string, string>;
  /**
   * Raw bytes (hex) of every transaction the ledger recorded — faucet mints and applied spends — keyed by txid.
   * Deposit PSBTs attach them as `nonWitnessUtxo`. Every ledger file written so far stores them.
   */
  txs: Record<string, string>;
  /** Transactions the leg made for a purpose, keyed `deliver:<intentId>` or `refund:<intentId>`. */
  purposes: Record<string, string>;
  /** Outputs promised to an intent's deposit PSBT until its deadline (so two intents don't pick the same coins). */
  reservations?: Record<string, { intentId: string; untilMs: number }>;
}

const BLOCK_MS = 600_000;

/** The sandbox's UTXO set: the only source of truth about which outputs exist, their values and heights. */
export interface UtxoLedger {
  height(): number;
  genesisMs(): number;
  get(outpoint: { txid: string; vout: number }): Utxo | undefined;
  spentBy(outpoint: { txid: string; vout: number }): string | undefined;
  hasTx(txid: string): boolean;
  /**
   * The raw bytes of a recorded transaction, or `undefined` when the ledger has none for `txid` or the stored
   * bytes do not hash to `txid` (a damaged or hand-edited file).
   */
  rawTx(txid: string): Uint8Array | undefined;
  utxosOf(scriptHex: string): Utxo[];
  balanceOf(scriptHex: string): bigint;
  /** Apply a transaction whose inputs are all unspent ledger outputs (checked) and record its outputs. */
  apply(tx: Transaction, purpose?: string): string;
  /** Create a transaction out of nothing paying `scriptHex` (the faucet and the resolver's genesis funds). */
  mint(scriptHex: string, value: bigint): string;
  purpose(key: string): string | undefined;
  /** Remember a fact under `key` (for example that the resolver's genesis funds were minted). */
  setPurpose(key: string, value: string): void;
  /** Reserve outputs for an intent's deposit until `untilMs`. */
  reserve(outpoints: { txid: string; vout: number }[], intentId: string, untilMs: number): void;
  /** The intent an unspent output is reserved for, if the reservation is still running. */
  reservedFor(outpoint: { txid: string; vout: number }): string | undefined;
  /** Drop every reservation of an intent (its creation failed: no stored intent will ever spend them). */
  release(intentId: string): void;
}

/** Open (or create) the ledger; with `dataDir` every change is written atomically to `bitcoin-ledger.json`. */
export function openUtxoLedger(args: { dataDir: string | undefined; nowMs: () => number }): UtxoLedger {
  const file = args.dataDir ? join(args.dataDir, "bitcoin-ledger.json") : undefined;
  const state = readLedgerState({ file, nowMs: args.nowMs });
  const save = () => writeLedgerState({ file, dataDir: args.dataDir, state });
  const height = () => Math.max(0, Math.floor((args.nowMs() - state.genesisMs) / BLOCK_MS)) + 1;
  const record = (tx: Transaction, purpose?: string) =>
    recordTransaction({ state, tx, height: height(), nowMs: args.nowMs(), purpose });
  const ledger: UtxoLedger = {
    height,
    genesisMs: () => state.genesisMs,
    get: (o) => (state.utxos[keyOf(o)] ? toUtxo(state, keyOf(o)) : undefined),
    spentBy: (o) => state.spentBy[keyOf(o)],
    hasTx: (txid) => txid in state.txs,
    rawTx: (txid) => readRawTx(state, txid),
    utxosOf: (scriptHex) =>
      Object.keys(state.utxos)
        .filter((k) => state.utxos[k]!.script === scriptHex)
        .map((k) => toUtxo(state, k)),
    balanceOf: (scriptHex) =>
      Object.values(state.utxos)
        .filter((u) => u.script === scriptHex)
        .reduce((sum, u) => sum + BigInt(u.value), 0n),
    apply: (tx, purpose) => {
      const txid = tx.getId();
      if (state.txs[txid]) return txid;
      spendInputs({ state, tx, txid });
      record(tx, purpose);
      save();
      return txid;
    },
    mint: (scriptHex, value) => {
      state.faucetCounter += 1;
      const txid = record(createMintTransaction({ counter: state.faucetCounter, scriptHex, value }));
      save();
      return txid;
    },
    purpose: (k) => state.purposes[k],
    setPurpose: (k, v) => {
      state.purposes[k] = v;
      save();
    },
    reserve: (outpoints, intentId, untilMs) => {
      reserveOutputs({ state, outpoints, intentId, untilMs, nowMs: args.nowMs() });
      save();
    },
    reservedFor: (o) => {
      const r = state.reservations?.[keyOf(o)];
      return r && r.untilMs > args.nowMs() && state.utxos[keyOf(o)] ? r.intentId : undefined;
    },
    release: (intentId) => {
      const reservations = state.reservations ?? {};
      const held = Object.keys(reservations).filter((k) => reservations[k]!.intentId === intentId);
      if (held.length === 0) return;
      for (const k of held) delete reservations[k];
      save();
    },
  };
  save();
  return ledger;
}

const keyOf = (o: { txid: string; vout: number }) => `${o.txid}:${o.vout}`;

/** The stored ledger, or a new empty one whose genesis is now (no file, or no data folder). */
function readLedgerState({ file, nowMs }: { file: string | undefined; nowMs: () => number }): StoredState {
  const empty: StoredState = {
    version: 1,
    genesisMs: nowMs(),
    faucetCounter: 0,
    utxos: {},
    spentBy: {},
    txs: {},
    purposes: {},
  };
  if (!file) return empty;
  try {
    const state = JSON.parse(readFileSync(file, "utf8")) as StoredState;
    if (!state.txs) state.txs = {};
    return state;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    return empty;
  }
}

/** Write the ledger atomically (temporary file + rename); nothing without a data folder. */
function writeLedgerState({
  file,
  dataDir,
  state,
}: {
  file: string | undefined;
  dataDir: string | undefined;
  state: StoredState;
}): void {
  if (!file || !dataDir) return;
  mkdirSync(dataDir, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(state));
  renameSync(tmp, file);
}

function toUtxo(state: StoredState, key: string): Utxo {
  const u = state.utxos[key]!;
  const [txid, vout] = key.split(":");
  return {
    txid: txid!,
    vout: Number(vout),
    script: u.script,
    value: BigInt(u.value),
    height: u.height,
    timeMs: u.timeMs,
  };
}

/** A recorded transaction's raw bytes, only when they hash to `txid` (a damaged or hand-edited file gives none). */
function readRawTx(state: StoredState, txid: string): Uint8Array | undefined {
  const stored = state.txs[txid];
  if (typeof stored !== "string") return undefined;
  try {
    const bytes = Uint8Array.from(Buffer.from(stored, "hex"));
    return Transaction.fromBuffer(bytes).getId() === txid ? bytes : undefined;
  } catch {
    return undefined;
  }
}

/** Record a transaction's outputs as unspent (at `height`, `nowMs`), its raw bytes, and its purpose. */
function recordTransaction({
  state,
  tx,
  height,
  nowMs,
  purpose,
}: {
  state: StoredState;
  tx: Transaction;
  height: number;
  nowMs: number;
  purpose: string | undefined;
}): string {
  const txid = tx.getId();
  tx.outs.forEach((out, vout) => {
    state.utxos[`${txid}:${vout}`] = {
      script: Buffer.from(out.script).toString("hex"),
      value: out.value.toString(),
      height,
      timeMs: nowMs,
    };
  });
  state.txs[txid] = tx.toHex();
  if (purpose) state.purposes[purpose] = txid;
  return txid;
}

/** Mark every input of `tx` spent by `txid`, after checking that all of them are unspent (nothing changes otherwise). */
function spendInputs({ state, tx, txid }: { state: StoredState; tx: Transaction; txid: string }): void {
  const spends = tx.ins.map((input) => ({
    txid: Buffer.from(input.hash).reverse().toString("hex"),
    vout: input.index,
  }));
  for (const o of spends) {
    if (!state.utxos[keyOf(o)]) throw new Error(`input ${keyOf(o)} is not an unspent output`);
  }
  for (const o of spends) {
    delete state.utxos[keyOf(o)];
    state.spentBy[keyOf(o)] = txid;
  }
}

/** A transaction out of nothing paying `scriptHex` (a coinbase-like input tagged with the faucet counter, so each is unique). */
function createMintTransaction({
  counter,
  scriptHex,
  value,
}: {
  counter: number;
  scriptHex: string;
  value: bigint;
}): Transaction {
  const tx = new Transaction();
  tx.version = 2;
  const tag = Buffer.alloc(8);
  tag.writeBigUInt64LE(BigInt(counter));
  tx.addInput(new Uint8Array(32), 0xffffffff, 0xffffffff, Buffer.concat([Buffer.from([0x08]), tag]));
  tx.addOutput(Buffer.from(scriptHex, "hex"), value);
  return tx;
}

/** Drop finished reservations (expired, or their output spent), then reserve `outpoints` for an intent until `untilMs`. */
function reserveOutputs({
  state,
  outpoints,
  intentId,
  untilMs,
  nowMs,
}: {
  state: StoredState;
  outpoints: { txid: string; vout: number }[];
  intentId: string;
  untilMs: number;
  nowMs: number;
}): void {
  if (!state.reservations) state.reservations = {};
  const reservations = state.reservations;
  for (const [k, r] of Object.entries(reservations)) {
    if (r.untilMs <= nowMs || !state.utxos[k]) delete reservations[k];
  }
  for (const o of outpoints) reservations[keyOf(o)] = { intentId, untilMs };
}
