import { isSwapIntentError } from "@swapintent/client";
import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { Psbt, Transaction } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { buildDeposit, CSV, type Deposit, hex, strangerKey, userKey } from "../../test/fixtures.js";
import {
  createLeatherStandin,
  createSatsConnectStandin,
  createUnisatStandin,
  standinAddresses,
  TAMPERS,
  type Tamper,
} from "../../test/walletStandins.js";
import { isBitcoinError } from "../errors.js";
import { signHtlcPsbt } from "../signHtlcPsbt.js";
import { signHtlcRefund } from "../signHtlcRefund.js";
import type { PsbtWalletSigner } from "../types.js";
import {
  createLeatherWalletSigner,
  createSatsConnectWalletSigner,
  createUnisatWalletSigner,
  type LeatherProvider,
  type SatsConnectRequest,
  type UnisatProvider,
} from "../wallets.js";

const userPublicKey = hex(userKey.publicKey);

/** The wallet the adapter is built on, recording each call; the key lives in the stand-in. */
interface Harness {
  signer: PsbtWalletSigner;
  calls: unknown[][];
}

type AdapterName = "unisat" | "sats-connect" | "leather";

function harness(name: AdapterName, tamper: Tamper): Harness {
  const calls: unknown[][] = [];
  const options = { key: userKey, other: strangerKey, tamper };
  if (name === "unisat") {
    const standin = createUnisatStandin(options);
    const unisat: UnisatProvider = {
      signPsbt: (psbtHex, opts) => {
        calls.push([psbtHex, opts]);
        return standin.signPsbt(psbtHex, opts);
      },
    };
    return { signer: createUnisatWalletSigner({ unisat, publicKey: userPublicKey }), calls };
  }
  if (name === "sats-connect") {
    const standin = createSatsConnectStandin(options);
    const request = (async (method, params) => {
      calls.push([method, params]);
      return standin(method, params as never);
    }) as SatsConnectRequest;
    return { signer: createSatsConnectWalletSigner({ request, publicKey: userPublicKey }), calls };
  }
  const standin = createLeatherStandin(options);
  const leather = {
    request: async (method: "signPsbt", params: unknown) => {
      calls.push([method, params]);
      return standin.request(method, params as never);
    },
  } as LeatherProvider;
  return { signer: createLeatherWalletSigner({ leather, publicKey: userPublicKey }), calls };
}

/** A deposit with the user's P2TR and P2WPKH coins listed, and the service's own coin (unlisted) as input 2. */
function depositWithServiceCoin(): Deposit {
  return buildDeposit({
    inputs: [
      { kind: "p2tr", value: 60_000n },
      { kind: "p2wpkh", value: 50_000n },
      { kind: "p2wpkh", value: 2_000n, owner: strangerKey },
    ],
    listed: [0, 1],
  });
}

async function outcome(deposit: Deposit, signer: PsbtWalletSigner) {
  try {
    const signed = await signHtlcPsbt({
      ecc,
      intent: deposit.intent,
      quote: deposit.quote,
      userPublicKey,
      signer,
    });
    return { code: "ACCEPTED" as const, signed };
  } catch (error) {
    if (!isSwapIntentError(error)) throw error;
    return { code: error.code, error };
  }
}

/** The code each tamper must be refused with (one check each). */
const EXPECTED: Record<(typeof TAMPERS)[number], string> = {
  reject: "BTC_WALLET_REJECTED",
  notPsbt: "BTC_PSBT_INVALID",
  addOutput: "BTC_TX_MODIFIED",
  changeOutput: "BTC_TX_MODIFIED",
  changeInput: "BTC_TX_MODIFIED",
  version: "BTC_TX_MODIFIED",
  locktime: "BTC_TX_MODIFIED",
  sequence: "BTC_TX_MODIFIED",
  inputField: "BTC_PSBT_FIELD_MODIFIED",
  outputField: "BTC_PSBT_FIELD_MODIFIED",
  globalField: "BTC_PSBT_FIELD_MODIFIED",
  removeField: "BTC_PSBT_FIELD_MODIFIED",
  extraSignature: "BTC_SIGNATURE_UNEXPECTED",
  signUnlisted: "BTC_SIGNATURE_UNEXPECTED",
  otherKey: "BTC_SIGNATURE_UNEXPECTED",
  finalizeExtra: "BTC_SIGNATURE_UNEXPECTED",
  wrongSighash: "BTC_SIGHASH_NOT_ALLOWED",
  invalidSignature: "BTC_SIGNATURE_INVALID",
  unsigned: "BTC_SIGNATURE_INVALID",
};

/** The part of the details each refusal names (the facts a caller can show). */
const DETAIL: Partial<Record<(typeof TAMPERS)[number], Record<string, unknown>>> = {
  addOutput: { fields: ["outputs"] },
  changeOutput: { fields: ["outputs"] },
  changeInput: { fields: ["inputs"] },
  version: { fields: ["version"] },
  locktime: { fields: ["locktime"] },
  sequence: { fields: ["sequence"] },
  inputField: { where: "input 0", fields: ["witnessUtxo"] },
  outputField: { where: "output 0", fields: ["tapInternalKey"] },
  globalField: { where: "global", fields: ["unknownKeyVals"] },
  removeField: { where: "input 0", fields: ["witnessUtxo"] },
  extraSignature: { input: 1, field: "partialSig" },
  signUnlisted: { input: 2, field: "tapKeySig" },
  otherKey: { input: 1, field: "partialSig" },
  finalizeExtra: { input: 0, field: "finalScriptWitness" },
  wrongSighash: { input: 0, sighashType: 0x83, expected: [0, 1] },
  invalidSignature: { input: 0, reason: "doesNotVerify" },
  unsigned: { input: 0, reason: "missing" },
};

const ADAPTERS: AdapterName[] = ["unisat", "sats-connect", "leather"];

describe.each(ADAPTERS)("%s adapter", (name) => {
  it("signs exactly the verified inputs, and bitcore's interpreter accepts the finalized deposit", async () => {
    const deposit = buildDeposit();
    const { signer, calls } = harness(name, "none");
    const result = await outcome(deposit, signer);
    expect(result.code).toBe("ACCEPTED");
    const signed = Psbt.fromBase64(result.signed!.psbt);
    expect(
      runInterpreter({ txHex: signed.extractTransaction().toHex(), prevouts: deposit.prevouts }),
    ).toEqual([null, null]);
    expect(calls).toHaveLength(1);
  });

  it("accepts a wallet that finalized anyway when the witness is exactly the user's valid signature", async () => {
    const deposit = buildDeposit();
    const result = await outcome(deposit, harness(name, "finalized").signer);
    expect(result.code).toBe("ACCEPTED");
    const tx = Psbt.fromBase64(result.signed!.psbt).extractTransaction().toHex();
    expect(runInterpreter({ txHex: tx, prevouts: deposit.prevouts })).toEqual([null, null]);
  });

  it.each(TAMPERS)("refuses a wallet that tampers (%s), and the intent is never approved", async (tamper) => {
    const deposit = depositWithServiceCoin();
    const { signer, calls } = harness(name, tamper);
    const result = await outcome(deposit, signer);
    expect(result.code).toBe(EXPECTED[tamper]);
    expect(result.signed).toBeUndefined();
    expect(calls).toHaveLength(1);
    if (DETAIL[tamper]) expect(result.error!.details).toMatchObject(DETAIL[tamper]!);
    if (tamper === "reject") {
      // The wallet's own code: sats-connect's USER_REJECTION, the others' 4001.
      const code = name === "sats-connect" ? -32000 : 4001;
      expect(result.error!.details).toEqual({ wallet: name, code, message: "User rejected the request." });
    }
  });

  it("returns the refund path: the signed deposit and verified.htlc are all signHtlcRefund needs, with the wallet or the key", async () => {
    const deposit = buildDeposit();
    const { signer, calls } = harness(name, "none");
    const result = await outcome(deposit, signer);
    const { psbt, approval, verified } = result.signed!;
    expect(approval.signedData).toBe(psbt);
    expect({ csv: verified.htlc.csvBlocks, leaf: hex(verified.htlc.refundLeaf) }).toEqual({
      csv: CSV,
      leaf: hex(deposit.leaves.refund),
    });
    // The wallet signs the refund too (its leaf, with the untweaked key): asked once more, the spend is valid.
    const byWallet = await signHtlcRefund({
      ecc,
      depositPsbt: approval.signedData,
      userPublicKey,
      signer,
      feeLots: 300n,
    });
    expect(calls).toHaveLength(2);
    const htlcPrevout = { script: verified.htlc.script, value: verified.htlc.valueLots };
    expect(runInterpreter({ txHex: byWallet.txHex, prevouts: [htlcPrevout] })).toEqual([null]);
    // With the user's key as a Schnorr signer, the refund spends verified.txid:0 after the CSV delay.
    const refund = await signHtlcRefund({
      ecc,
      depositPsbt: approval.signedData,
      userPublicKey,
      signer: userKey,
      feeLots: 300n,
    });
    const spent = Transaction.fromHex(refund.txHex).ins[0]!;
    expect([Buffer.from(spent.hash).reverse().toString("hex"), spent.index, spent.sequence]).toEqual([
      verified.txid,
      0,
      CSV,
    ]);
    const htlc = { script: verified.htlc.script, value: verified.htlc.valueLots };
    expect(runInterpreter({ txHex: refund.txHex, prevouts: [htlc] })).toEqual([null]);
  });

  it("never calls the wallet when verification fails", async () => {
    const deposit = buildDeposit();
    const { signer, calls } = harness(name, "none");
    const wrongAmount = { sourceAmountLots: deposit.quote.sourceAmountLots + 1n };
    const result = await outcome({ ...deposit, quote: wrongAmount }, signer);
    expect(result.code).toBe("BTC_HTLC_AMOUNT_MISMATCH");
    const foreignKey = await outcome(deposit, { ...signer, publicKey: strangerKey.publicKey });
    expect(foreignKey.code).toBe("BTC_SIGNER_KEY_MISMATCH");
    expect(calls).toHaveLength(0);
  });
});

describe("what each adapter asks its wallet for", () => {
  const deposit = buildDeposit();
  const { p2tr, p2wpkh } = standinAddresses(userKey, "bc");

  it("unisat: hex PSBT, autoFinalized false, each input by the user's key with its verified sighash", async () => {
    const { signer, calls } = harness("unisat", "none");
    await outcome(deposit, signer);
    const [psbtHex, options] = calls[0]!;
    expect(Psbt.fromHex(psbtHex as string).toBase64()).toBe(deposit.psbt);
    expect(options).toEqual({
      autoFinalized: false,
      toSignInputs: [
        { index: 0, publicKey: userPublicKey, sighashTypes: [0x00] },
        { index: 1, publicKey: userPublicKey, sighashTypes: [0x01] },
      ],
    });
  });

  it("sats-connect: base64 PSBT, signInputs by the user's address of each script type, broadcast false", async () => {
    const { signer, calls } = harness("sats-connect", "none");
    await outcome(deposit, signer);
    expect(calls[0]).toEqual([
      "signPsbt",
      { psbt: deposit.psbt, signInputs: { [p2tr]: [0], [p2wpkh]: [1] }, broadcast: false },
    ]);
    // One sighash type for every input: it is named too.
    const single = buildDeposit({ inputs: [{ kind: "p2wpkh", value: 110_000n }] });
    const second = harness("sats-connect", "none");
    await outcome(single, second.signer);
    expect(second.calls[0]![1]).toMatchObject({ signInputs: { [p2wpkh]: [0] }, allowedSignHash: 0x01 });
  });

  it("leather: hex PSBT, signAtIndex the verified inputs, allowedSighash their types, broadcast false", async () => {
    const { signer, calls } = harness("leather", "none");
    await outcome(deposit, signer);
    const [method, params] = calls[0]! as [string, { hex: string }];
    expect(method).toBe("signPsbt");
    expect(params).toEqual({
      hex: params.hex,
      signAtIndex: [0, 1],
      allowedSighash: [0x00, 0x01],
      broadcast: false,
    });
    expect(Psbt.fromHex(params.hex).toBase64()).toBe(deposit.psbt);
  });

  it("refuses a public key that is not a 33-byte compressed key before any wallet exists", () => {
    const unisat: UnisatProvider = { signPsbt: async () => "" };
    for (const publicKey of ["02", "zz", hex(userKey.publicKey).replace(/^0[23]/, "04")]) {
      let code = "ACCEPTED";
      try {
        createUnisatWalletSigner({ unisat, publicKey });
      } catch (error) {
        if (isBitcoinError(error, "BTC_PUBLIC_KEY_INVALID")) code = error.code;
      }
      expect(code).toBe("BTC_PUBLIC_KEY_INVALID");
    }
  });

  it("a sats-connect answer that is neither success nor error is refused as a wallet failure", async () => {
    const request = (async () => ({ status: "pending" })) as unknown as SatsConnectRequest;
    const signer = createSatsConnectWalletSigner({ request, publicKey: userPublicKey });
    const result = await outcome(deposit, signer);
    expect(result.code).toBe("BTC_WALLET_REJECTED");
    expect(result.error!.details).toEqual({ wallet: "sats-connect", code: null, message: null });
  });
});

describe("the refused signatures are ones the chain refuses too (bitcore's interpreter)", () => {
  it.each([
    ["invalidSignature", 0],
    ["wrongSighash", 0],
    ["otherKey", 1],
  ] as const)("%s (input %i)", async (tamper, tampered) => {
    const deposit = buildDeposit();
    let returned = "";
    const signer: PsbtWalletSigner = {
      publicKey: userKey.publicKey,
      signPsbt: async (parameters) => {
        returned = await harness("sats-connect", tamper).signer.signPsbt(parameters);
        return returned;
      },
    };
    expect((await outcome(deposit, signer)).code).toBe(EXPECTED[tamper]);
    // What the wallet handed back, its signatures put in the witness as they are (no check on the way).
    const psbt = Psbt.fromBase64(returned);
    for (const input of psbt.data.inputs) {
      if (input.finalScriptWitness) continue;
      const partial = input.partialSig?.[0];
      const stack = partial ? [partial.signature, partial.pubkey] : [input.tapKeySig!];
      input.finalScriptWitness = Uint8Array.from([
        stack.length,
        ...stack.flatMap((item) => [item.length, ...item]),
      ]);
    }
    const results = runInterpreter({ txHex: psbt.extractTransaction().toHex(), prevouts: deposit.prevouts });
    expect(results[tampered]).not.toBeNull();
    expect(results[1 - tampered]).toBeNull();
  });
});

describe("a wallet answer outside the documented shape is a coded refusal, never a TypeError", () => {
  const deposit = buildDeposit();
  const unisat = (answer: unknown) =>
    createUnisatWalletSigner({
      unisat: { signPsbt: async () => answer as string },
      publicKey: userPublicKey,
    });
  const satsConnect = (answer: unknown) =>
    createSatsConnectWalletSigner({
      request: (async () => answer) as unknown as SatsConnectRequest,
      publicKey: userPublicKey,
    });
  const leather = (answer: unknown) =>
    createLeatherWalletSigner({
      leather: { request: async () => answer } as unknown as LeatherProvider,
      publicKey: userPublicKey,
    });
  it.each([
    ["unisat: a number", unisat(42), "BTC_PSBT_INVALID"],
    ["unisat: null", unisat(null), "BTC_PSBT_INVALID"],
    ["unisat: base64 instead of hex", unisat(deposit.psbt), "BTC_PSBT_INVALID"],
    ["sats-connect: nothing", satsConnect(undefined), "BTC_WALLET_REJECTED"],
    [
      "sats-connect: success without a psbt",
      satsConnect({ status: "success", result: {} }),
      "BTC_WALLET_REJECTED",
    ],
    ["sats-connect: a bare base64 string", satsConnect(deposit.psbt), "BTC_WALLET_REJECTED"],
    ["leather: nothing", leather(null), "BTC_WALLET_REJECTED"],
    [
      "leather: a resolved JSON-RPC error",
      leather({ error: { code: -32603, message: "x" } }),
      "BTC_WALLET_REJECTED",
    ],
    ["leather: base64 under result.hex", leather({ result: { hex: deposit.psbt } }), "BTC_PSBT_INVALID"],
  ])("%s", async (_name, signer, code) => {
    expect((await outcome(deposit, signer)).code).toBe(code);
  });
});
