// Amounts below zero. bitcoinjs reads every PSBT and transaction amount as a signed 64-bit integer, so eight 0xff
// bytes are -1 sat to it, while consensus (MoneyRange), @scure/btc-signer and wallets built on it read the same bytes
// as an unsigned 2^64 - 1. A negative amount is never valid on chain; it must be refused before any key or wallet is
// asked, like an amount above 21,000,000 BTC.
import { Transaction as ScureTransaction } from "@scure/btc-signer";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { attempt, tamper } from "../test/attempt.js";
import { buildDeposit, type Deposit, hex, p2trOf, strangerKey, userKey } from "../test/fixtures.js";
import { createUnisatStandin } from "../test/walletStandins.js";
import { isBitcoinError } from "./errors.js";
import { MAX_MONEY_LOTS } from "./internal/scriptTypes.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import { verifyHtlcPsbt } from "./verifyHtlcPsbt/verifyHtlcPsbt.js";
import { createUnisatWalletSigner } from "./wallets.js";

const userPublicKey = hex(userKey.publicKey);

/** A deposit whose input `index` states `valueLots` in its witnessUtxo (the unsigned transaction unchanged). */
function withStatedValue(deposit: Deposit, index: number, valueLots: bigint): Deposit {
  return tamper(deposit, (psbt) => {
    const input = psbt.data.inputs[index]!;
    input.witnessUtxo = { script: input.witnessUtxo!.script, value: valueLots };
  });
}

/** The user's P2TR coin (60,000 sat, listed) and a service coin stated at -1 sat (eight 0xff bytes). */
function serviceCoinBelowZero(): Deposit {
  const deposit = buildDeposit({
    inputs: [
      { kind: "p2tr", value: 60_000n },
      { kind: "p2tr", value: 50_000n, owner: strangerKey },
    ],
    listed: [0],
    htlcValue: 50_000n,
  });
  const stated = withStatedValue(deposit, 1, -1n);
  return { ...stated, quote: { sourceAmountLots: 50_000n } };
}

/** The details of the refusal `verifyHtlcPsbt` throws for `deposit`, or "ACCEPTED". */
function refusal(deposit: Deposit): unknown {
  try {
    verifyHtlcPsbt({ ecc, ...deposit, userPublicKey });
    return "ACCEPTED";
  } catch (error) {
    if (!isBitcoinError(error)) throw error;
    return { code: error.code, details: error.details };
  }
}

describe("amounts below zero (bitcoinjs reads amounts as signed; consensus and scure as unsigned)", () => {
  it("refuses a service coin stated at -1 sat before the key is used, not left to fail inside bitcoinjs while signing", async () => {
    const deposit = serviceCoinBelowZero();
    // What an independent PSBT parser (and a wallet built on it) reads for the same bytes: 2^64 - 1 sat.
    const scure = ScureTransaction.fromPSBT(Buffer.from(deposit.psbt, "base64"), {
      allowUnknownInputs: true,
    });
    expect(scure.getInput(1).witnessUtxo!.amount).toBe(2n ** 64n - 1n);
    expect(refusal(deposit)).toEqual({
      code: "BTC_AMOUNT_OUT_OF_RANGE",
      details: { where: "input 1", valueLots: -1n, maxLots: MAX_MONEY_LOTS },
    });
    expect(await attempt(deposit)).toEqual({ code: "BTC_AMOUNT_OUT_OF_RANGE", uses: 0 });
  });

  it("never hands a deposit with a coin below zero to a wallet", async () => {
    let asked = 0;
    const unisat = createUnisatStandin({ key: userKey, other: strangerKey, onSign: () => asked++ });
    const signer = createUnisatWalletSigner({ unisat, publicKey: userPublicKey });
    const outcome = await signHtlcPsbt({ ecc, ...serviceCoinBelowZero(), userPublicKey, signer }).then(
      () => "ACCEPTED",
      (error: unknown) => (isBitcoinError(error) ? error.code : error),
    );
    expect({ outcome, asked }).toEqual({ outcome: "BTC_AMOUNT_OUT_OF_RANGE", asked: 0 });
  });

  it("refuses a listed coin stated below zero whose sum with the other coins still pays the outputs and a fee", async () => {
    const deposit = buildDeposit({
      inputs: [
        { kind: "p2tr", value: 160_000n },
        { kind: "p2tr", value: 50_000n },
      ],
      outputs: [{ script: p2trOf(userKey), value: 58_000n }],
    });
    const stated = withStatedValue(deposit, 1, -1_000n);
    expect(refusal(stated)).toEqual({
      code: "BTC_AMOUNT_OUT_OF_RANGE",
      details: { where: "input 1", valueLots: -1_000n, maxLots: MAX_MONEY_LOTS },
    });
    expect(await attempt(stated)).toEqual({ code: "BTC_AMOUNT_OUT_OF_RANGE", uses: 0 });
  });

  it("refuses an output below zero as out of range (not as dust), in the unsigned transaction", async () => {
    const deposit = tamper(buildDeposit(), (_psbt, tx) => {
      tx.outs[1]!.value = -1n;
    });
    expect(refusal(deposit)).toEqual({
      code: "BTC_AMOUNT_OUT_OF_RANGE",
      details: { where: "output 1", valueLots: -1n, maxLots: MAX_MONEY_LOTS },
    });
    expect(await attempt(deposit)).toEqual({ code: "BTC_AMOUNT_OUT_OF_RANGE", uses: 0 });
  });

  it("still accepts a coin stated at 0 sat: zero is in range (its lie is committed by the P2TR signature)", async () => {
    const zero = withStatedValue(serviceCoinBelowZero(), 1, 0n);
    expect(await attempt(zero)).toEqual({ code: "ACCEPTED", uses: 1 });
  });
});
