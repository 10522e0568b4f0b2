// A wallet's Taproot key-path signature: DEFAULT (64 bytes) and ALL (65 bytes ending 0x01) commit to the same data
// (BIP-341: every input and output), so either is accepted for either; NONE, SINGLE and ANYONECANPAY commit to less
// and are refused, although the chain would accept them. Each outcome is checked on bitcore's interpreter.
import { isSwapIntentError } from "@swapintent/client";
import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { crypto, Psbt, Transaction } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { buildDeposit, type Deposit, hex, userKey } from "../test/fixtures.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import type { PsbtWalletSigner } from "./types.js";

const userPublicKey = hex(userKey.publicKey);
const tweaked = userKey.tweak(crypto.taggedHash("TapTweak", userKey.publicKey.slice(1)));

/** The user's P2TR coin (input 0, PSBT sighash `asked`) and P2WPKH coin (input 1). */
const depositAsking = (asked: number | undefined): Deposit =>
  buildDeposit({
    inputs: [
      { kind: "p2tr", value: 60_000n, ...(asked === undefined ? {} : { sighashType: asked }) },
      { kind: "p2wpkh", value: 50_000n },
    ],
  });

/** A wallet that signs input 0 for real with `hashType` (the digest that type names), input 1 with ALL. */
const signingWith = (hashType: number): PsbtWalletSigner => ({
  publicKey: userKey.publicKey,
  signPsbt: async ({ psbt }) => {
    const p = Psbt.fromBase64(psbt);
    const tx = Transaction.fromBuffer(p.data.globalMap.unsignedTx.toBuffer());
    const utxos = p.data.inputs.map((input) => input.witnessUtxo!);
    const digest = tx.hashForWitnessV1(
      0,
      utxos.map((u) => u.script),
      utxos.map((u) => u.value),
      hashType,
    );
    const signature = tweaked.signSchnorr(digest);
    p.data.inputs[0]!.tapKeySig = hashType === 0 ? signature : Uint8Array.from([...signature, hashType]);
    p.signInput(1, userKey);
    return p.toBase64();
  },
});

async function sign(deposit: Deposit, signer: PsbtWalletSigner) {
  try {
    const { psbt } = await signHtlcPsbt({ ecc, ...deposit, userPublicKey, signer });
    return { code: "ACCEPTED", tx: Psbt.fromBase64(psbt).extractTransaction() };
  } catch (error) {
    if (!isSwapIntentError(error)) throw error;
    return { code: error.code, details: error.details, tx: undefined };
  }
}

/** What the wallet answered, finalized by hand as it is (no check), on the interpreter: input 0's result. */
async function onChain(deposit: Deposit, signer: PsbtWalletSigner) {
  const answer = Psbt.fromBase64(
    await signer.signPsbt({ psbt: deposit.psbt, inputs: [0, 1], signInputs: [] }),
  );
  const tx = Transaction.fromBuffer(answer.data.globalMap.unsignedTx.toBuffer());
  tx.ins[0]!.witness = [answer.data.inputs[0]!.tapKeySig!];
  const partial = answer.data.inputs[1]!.partialSig![0]!;
  tx.ins[1]!.witness = [partial.signature, partial.pubkey];
  return runInterpreter({ txHex: tx.toHex(), prevouts: deposit.prevouts });
}

describe("Taproot sighash types a wallet may answer with", () => {
  it.each([
    ["a 65-byte ALL signature when DEFAULT was asked", undefined, 0x01, 65],
    ["a 64-byte DEFAULT signature when DEFAULT was asked", undefined, 0x00, 64],
    ["a 64-byte DEFAULT signature when ALL was asked", 0x01, 0x00, 64],
    ["a 65-byte ALL signature when ALL was asked", 0x01, 0x01, 65],
  ])("accepts %s: the interpreter accepts the deposit", async (_name, asked, answered, length) => {
    const deposit = depositAsking(asked);
    const result = await sign(deposit, signingWith(answered));
    expect(result.code).toBe("ACCEPTED");
    expect(result.tx!.ins[0]!.witness[0]).toHaveLength(length);
    expect(runInterpreter({ txHex: result.tx!.toHex(), prevouts: deposit.prevouts })).toEqual([null, null]);
  });

  it.each([
    ["NONE", 0x02],
    ["SINGLE", 0x03],
    ["ALL|ANYONECANPAY", 0x81],
    ["NONE|ANYONECANPAY", 0x82],
    ["SINGLE|ANYONECANPAY", 0x83],
  ])("refuses a valid %s signature, which the chain would accept", async (_name, hashType) => {
    for (const asked of [undefined, 0x01]) {
      const deposit = depositAsking(asked);
      const result = await sign(deposit, signingWith(hashType));
      expect(result).toMatchObject({
        code: "BTC_SIGHASH_NOT_ALLOWED",
        details: { input: 0, sighashType: hashType, expected: [0x00, 0x01] },
      });
      expect(await onChain(deposit, signingWith(hashType))).toEqual([null, null]);
    }
  });

  it("refuses a 65-byte signature ending 0x00, which the chain refuses too", async () => {
    const deposit = depositAsking(undefined);
    const zeroByte: PsbtWalletSigner = {
      publicKey: userKey.publicKey,
      signPsbt: async (parameters) => {
        const p = Psbt.fromBase64(await signingWith(0x00).signPsbt(parameters));
        p.data.inputs[0]!.tapKeySig = Uint8Array.from([...p.data.inputs[0]!.tapKeySig!, 0x00]);
        return p.toBase64();
      },
    };
    expect((await sign(deposit, zeroByte)).code).toBe("BTC_SIGHASH_NOT_ALLOWED");
    expect((await onChain(deposit, zeroByte))[0]).toBe("SCRIPT_ERR_SCHNORR_SIG_HASHTYPE");
  });
});
