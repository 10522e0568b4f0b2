// Stand-ins for the injected Bitcoin wallets, following each wallet's documented API (method names, parameter
// shapes, hex vs base64, answer envelopes, errors). Each holds its own key and signs for real with bitcoinjs; a
// `tamper` option makes it hand back something other than the user's signatures. Used by the package's adapter
// tests and, bundled to a plain script, by the browser test (apps/browser/test/standins).
import { address, crypto, Psbt, payments, script, type Transaction } from "bitcoinjs-lib";

/** A key as the stand-in needs it: an `ecpair` key pair fits. */
export interface StandinKey {
  publicKey: Uint8Array;
  sign(hash: Uint8Array): Uint8Array;
  signSchnorr(hash: Uint8Array): Uint8Array;
  tweak(t: Uint8Array): StandinKey;
}

/** One way a wallet may misbehave; each is refused by a different check. */
export type Tamper =
  | "none"
  | "finalized"
  | "reject"
  | "notPsbt"
  | "addOutput"
  | "changeOutput"
  | "changeInput"
  | "version"
  | "locktime"
  | "sequence"
  | "inputField"
  | "outputField"
  | "globalField"
  | "removeField"
  | "extraSignature"
  | "signUnlisted"
  | "wrongSighash"
  | "invalidSignature"
  | "otherKey"
  | "finalizeExtra"
  | "unsigned";

/** Every tamper of the table (for the tests that run each). */
export const TAMPERS: Exclude<Tamper, "none" | "finalized">[] = [
  "reject",
  "notPsbt",
  "addOutput",
  "changeOutput",
  "changeInput",
  "version",
  "locktime",
  "sequence",
  "inputField",
  "outputField",
  "globalField",
  "removeField",
  "extraSignature",
  "signUnlisted",
  "wrongSighash",
  "invalidSignature",
  "otherKey",
  "finalizeExtra",
  "unsigned",
];

/** The user's refusal, as the wallets report it (EIP-1193-style code 4001; sats-connect's USER_REJECTION). */
export class StandinRejection extends Error {
  code = 4001;
  constructor() {
    super("User rejected the request.");
  }
}

interface SignArgs {
  key: StandinKey;
  other: StandinKey;
  psbt: Psbt;
  /** `untweaked`: sign with the key itself (a script path) rather than its BIP-86 tweak; default: when the input has a leaf. */
  inputs: { index: number; sighashTypes: number[]; untweaked?: boolean }[];
  finalize: boolean;
  tamper: Tamper;
}

const isTaproot = (psbt: Psbt, index: number) => psbt.data.inputs[index]!.witnessUtxo?.script[0] === 0x51;

/** Sign `inputs` as a wallet would (Taproot inputs with the BIP-86 tweaked key), then apply `tamper`. */
export function signAsWallet(args: SignArgs): Psbt {
  const { key, psbt, tamper } = args;
  if (tamper === "reject") throw new StandinRejection();
  const tweaked = key.tweak(crypto.taggedHash("TapTweak", key.publicKey.slice(1, 33)));
  if (tamper !== "unsigned") {
    for (const { index, sighashTypes, untweaked } of args.inputs) {
      const scriptPath = untweaked ?? (psbt.data.inputs[index]!.tapLeafScript?.length ?? 0) > 0;
      if (isTaproot(psbt, index)) psbt.signInput(index, (scriptPath ? key : tweaked) as never, sighashTypes);
      else psbt.signInput(index, key as never, sighashTypes);
    }
  }
  tamperSigned({ ...args, tweaked });
  if ((args.finalize || tamper === "finalized") && tamper !== "unsigned") {
    for (const { index } of args.inputs) psbt.finalizeInput(index);
  }
  if (tamper === "finalizeExtra") {
    const input = psbt.data.inputs[args.inputs[0]!.index]!;
    const extra = Uint8Array.of(0x51);
    const witness = input.finalScriptWitness ?? witnessOf(psbt, args.inputs[0]!.index);
    input.finalScriptWitness = Uint8Array.from([
      witness[0]! + 1,
      ...witness.slice(1),
      extra.length,
      ...extra,
    ]);
    delete input.tapKeySig;
    delete input.partialSig;
  }
  return psbt;
}

/** The final witness bitcoinjs would write for a signed input (to build a tampered one from it). */
function witnessOf(psbt: Psbt, index: number): Uint8Array {
  const copy = Psbt.fromBase64(psbt.toBase64());
  copy.finalizeInput(index);
  return copy.data.inputs[index]!.finalScriptWitness!;
}

/** Tampers with the unsigned transaction (inputs, outputs, version, locktime, sequence), else with fields. */
function tamperSigned(args: SignArgs & { tweaked: StandinKey }): void {
  const { psbt, tamper } = args;
  const first = args.inputs[0]!.index;
  const tx = (psbt.data.globalMap.unsignedTx as unknown as { tx: Transaction }).tx;
  switch (tamper) {
    case "addOutput":
      // Set directly: bitcoinjs will not add an output once inputs are signed.
      tx.addOutput(payments.p2wpkh({ pubkey: args.other.publicKey }).output!, 1000n);
      psbt.data.outputs.push({ unknownKeyVals: [] });
      return;
    case "changeOutput":
      tx.outs[tx.outs.length - 1]!.value -= 1n;
      return;
    case "changeInput":
      tx.ins[first]!.index += 1;
      return;
    case "version":
      tx.version = tx.version === 2 ? 1 : 2;
      return;
    case "locktime":
      tx.locktime = 800_000;
      return;
    case "sequence":
      tx.ins[first]!.sequence = 0xfffffffd;
      return;
    default:
      tamperFields(args);
  }
}

/** Tampers with PSBT fields and signatures (the unsigned transaction stays as sent). */
function tamperFields(args: SignArgs & { tweaked: StandinKey }): void {
  const { psbt, tamper, key } = args;
  const first = args.inputs[0]!.index;
  const tx = (psbt.data.globalMap.unsignedTx as unknown as { tx: Transaction }).tx;
  const p2wpkh = args.inputs.find((i) => !isTaproot(psbt, i.index))?.index ?? first;
  switch (tamper) {
    case "otherKey": {
      // The P2WPKH input signed by another account of the wallet, over the right sighash.
      const index = p2wpkh;
      const utxo = psbt.data.inputs[index]!.witnessUtxo!;
      const scriptCode = payments.p2pkh({ hash: utxo.script.slice(2) }).output!;
      const hash = tx.hashForWitnessV0(index, scriptCode, utxo.value, 0x01);
      const signature = script.signature.encode(args.other.sign(hash), 0x01);
      psbt.data.inputs[index]!.partialSig = [{ pubkey: args.other.publicKey, signature }];
      return;
    }
    case "inputField":
      psbt.data.inputs[first]!.witnessUtxo!.value += 1n;
      return;
    case "outputField":
      psbt.data.outputs[0]!.tapInternalKey = key.publicKey.slice(1, 33);
      return;
    case "globalField":
      psbt.data.globalMap.unknownKeyVals = [{ key: Uint8Array.of(0xfc, 0x01), value: Uint8Array.of(1) }];
      return;
    case "removeField":
      delete psbt.data.inputs[first]!.nonWitnessUtxo;
      delete psbt.data.inputs[first]!.witnessUtxo;
      return;
    case "extraSignature": {
      const input = psbt.data.inputs[p2wpkh]!;
      const sig = input.partialSig?.[0]?.signature ?? input.tapKeySig!;
      input.partialSig = [...(input.partialSig ?? []), { pubkey: args.other.publicKey, signature: sig }];
      return;
    }
    case "signUnlisted": {
      const unlisted = psbt.data.inputs.findIndex((_, i) => !args.inputs.some((l) => l.index === i));
      psbt.data.inputs[unlisted === -1 ? first : unlisted]!.tapKeySig = new Uint8Array(64).fill(7);
      return;
    }
    case "wrongSighash": {
      const input = psbt.data.inputs[first]!;
      if (input.tapKeySig) input.tapKeySig = Uint8Array.from([...input.tapKeySig.slice(0, 64), 0x83]);
      else
        input.partialSig![0]!.signature = Uint8Array.from([
          ...input.partialSig![0]!.signature.slice(0, -1),
          0x02,
        ]);
      return;
    }
    case "invalidSignature": {
      const input = psbt.data.inputs[first]!;
      const sig = input.tapKeySig ?? input.partialSig![0]!.signature;
      const flipped = Uint8Array.from(sig);
      flipped[input.tapKeySig ? 40 : sig.length - 3] = flipped[input.tapKeySig ? 40 : sig.length - 3]! ^ 1;
      if (input.tapKeySig) input.tapKeySig = flipped;
      else input.partialSig![0]!.signature = flipped;
      return;
    }
    default:
      return;
  }
}

/** The user's P2TR (BIP-86) and P2WPKH addresses of `key` for a bech32 prefix (`bc`, `tb`, `bcrt`). */
export function standinAddresses(key: StandinKey, bech32Prefix: string): { p2tr: string; p2wpkh: string } {
  const p2tr = payments.p2tr({ internalPubkey: key.publicKey.slice(1, 33) }).output!;
  const p2wpkh = payments.p2wpkh({ pubkey: key.publicKey }).output!;
  return {
    p2tr: address.toBech32(p2tr.slice(2), 1, bech32Prefix),
    p2wpkh: address.toBech32(p2wpkh.slice(2), 0, bech32Prefix),
  };
}

const toHex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

/** Options of every stand-in: its key, a second key (for `otherKey` / `extraSignature`), and the tamper. */
export interface StandinOptions {
  key: StandinKey;
  other: StandinKey;
  tamper?: Tamper | undefined;
  bech32Prefix?: string | undefined;
  /** Called with every sign request (a spy: a refused intent must never reach the wallet). */
  onSign?: (() => void) | undefined;
}

/** `window.unisat`: `getPublicKey()`, `getAccounts()`, and `signPsbt(psbtHex, { autoFinalized, toSignInputs })` → hex. */
export function createUnisatStandin(options: StandinOptions) {
  const tamper = options.tamper ?? "none";
  const mine = toHex(options.key.publicKey);
  const addresses = standinAddresses(options.key, options.bech32Prefix ?? "bc");
  return {
    getPublicKey: async () => mine,
    getAccounts: async () => [addresses.p2tr],
    signPsbt: async (
      psbtHex: string,
      opts?: {
        autoFinalized?: boolean;
        toSignInputs?: {
          index: number;
          publicKey?: string;
          address?: string;
          sighashTypes?: number[];
          disableTweakSigner?: boolean;
        }[];
      },
    ): Promise<string> => {
      options.onSign?.();
      if (typeof psbtHex !== "string" || !/^[0-9a-f]+$/i.test(psbtHex))
        throw new Error("psbtHex must be hex");
      const psbt = Psbt.fromHex(psbtHex);
      const toSign = opts?.toSignInputs ?? [];
      for (const input of toSign) {
        const ours =
          input.publicKey === mine || input.address === addresses.p2tr || input.address === addresses.p2wpkh;
        if (!ours) throw Object.assign(new Error("Invalid toSignInputs"), { code: -32602 });
      }
      // Unisat signs Taproot inputs with the tweaked key unless told otherwise (`disableTweakSigner`).
      const inputs = toSign.map((i) => ({
        index: i.index,
        sighashTypes: i.sighashTypes ?? [0x00, 0x01],
        untweaked: i.disableTweakSigner === true,
      }));
      const signed = signAsWallet({
        ...options,
        psbt,
        inputs,
        finalize: opts?.autoFinalized !== false,
        tamper,
      });
      return tamper === "notPsbt" ? "deadbeef" : signed.toHex();
    },
  };
}

/** sats-connect's `request`: `getAddresses` and `signPsbt({ psbt, signInputs, broadcast })`, `{ status, result | error }`. */
export function createSatsConnectStandin(options: StandinOptions) {
  const tamper = options.tamper ?? "none";
  const prefix = options.bech32Prefix ?? "bc";
  const addresses = standinAddresses(options.key, prefix);
  const publicKey = toHex(options.key.publicKey);
  return async (method: string, params: Record<string, unknown>): Promise<unknown> => {
    if (method === "getAddresses") {
      return {
        status: "success",
        result: {
          addresses: [
            { address: addresses.p2tr, publicKey, purpose: "ordinals", addressType: "p2tr" },
            { address: addresses.p2wpkh, publicKey, purpose: "payment", addressType: "p2wpkh" },
          ],
        },
      };
    }
    if (method !== "signPsbt")
      return { status: "error", error: { code: -32601, message: "Method not found" } };
    options.onSign?.();
    const {
      psbt: base64,
      signInputs,
      broadcast,
      allowedSignHash,
    } = params as {
      psbt: string;
      signInputs: Record<string, number[]>;
      broadcast?: boolean;
      allowedSignHash?: number;
    };
    if (broadcast)
      return { status: "error", error: { code: -32602, message: "broadcast not supported here" } };
    const foreign = Object.keys(signInputs).filter((a) => a !== addresses.p2tr && a !== addresses.p2wpkh);
    if (foreign.length > 0) return { status: "error", error: { code: -32602, message: "Invalid address" } };
    const sighashTypes = allowedSignHash === undefined ? [0x00, 0x01] : [allowedSignHash];
    const inputs = Object.values(signInputs)
      .flat()
      .map((index) => ({ index, sighashTypes }));
    try {
      const signed = signAsWallet({
        ...options,
        psbt: Psbt.fromBase64(base64),
        inputs,
        finalize: false,
        tamper,
      });
      return {
        status: "success",
        result: { psbt: tamper === "notPsbt" ? "bm90IGEgcHNidA==" : signed.toBase64() },
      };
    } catch (error) {
      if (error instanceof StandinRejection)
        return { status: "error", error: { code: -32000, message: error.message } };
      throw error;
    }
  };
}

/** `window.LeatherProvider.request`: `getAddresses` and `signPsbt({ hex, signAtIndex, allowedSighash, broadcast })`. */
export function createLeatherStandin(options: StandinOptions) {
  const tamper = options.tamper ?? "none";
  const addresses = standinAddresses(options.key, options.bech32Prefix ?? "bc");
  const publicKey = toHex(options.key.publicKey);
  let id = 0;
  return {
    request: async (method: string, params?: Record<string, unknown>): Promise<unknown> => {
      id += 1;
      const envelope = { jsonrpc: "2.0", id: String(id) };
      if (method === "getAddresses") {
        return {
          ...envelope,
          result: {
            addresses: [
              { symbol: "BTC", type: "p2wpkh", address: addresses.p2wpkh, publicKey },
              { symbol: "BTC", type: "p2tr", address: addresses.p2tr, publicKey },
            ],
          },
        };
      }
      if (method !== "signPsbt") throw { ...envelope, error: { code: -32601, message: "Method not found" } };
      options.onSign?.();
      const { hex, signAtIndex, allowedSighash, broadcast } = params as {
        hex: string;
        signAtIndex?: number | number[];
        allowedSighash?: number[];
        broadcast?: boolean;
      };
      const indexes =
        signAtIndex === undefined ? [] : Array.isArray(signAtIndex) ? signAtIndex : [signAtIndex];
      const sighashTypes = allowedSighash ?? [0x00, 0x01];
      try {
        const psbt = Psbt.fromHex(hex);
        const inputs = indexes.map((index) => ({ index, sighashTypes }));
        const signed = signAsWallet({ ...options, psbt, inputs, finalize: broadcast === true, tamper });
        return { ...envelope, result: { hex: tamper === "notPsbt" ? "00" : signed.toHex() } };
      } catch (error) {
        if (error instanceof StandinRejection)
          throw { ...envelope, error: { code: 4001, message: error.message } };
        throw error;
      }
    },
  };
}
