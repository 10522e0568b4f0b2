import { isSwapIntentError } from "@swapintent/client";
import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { Psbt, payments, Transaction } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import {
  AMOUNT,
  buildDeposit,
  CSV,
  hex,
  NUMS,
  p2trOf,
  p2wpkhOf,
  strangerKey,
  userKey,
} from "../test/fixtures.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import { signHtlcRefund } from "./signHtlcRefund.js";

const userPublicKey = hex(userKey.publicKey);

async function signedDeposit() {
  const deposit = buildDeposit();
  const { psbt } = await signHtlcPsbt({
    ecc,
    intent: deposit.intent,
    quote: deposit.quote,
    userPublicKey,
    signer: userKey,
  });
  return { ...deposit, signed: psbt };
}

/** A refund spend written here by hand with chosen nSequence/version, signed by the user's key. */
function handRefund(args: {
  deposit: Awaited<ReturnType<typeof signedDeposit>>;
  sequence: number;
  version: number;
}) {
  const { deposit } = args;
  const redeem = payments.p2tr({
    internalPubkey: NUMS,
    scriptTree: [{ output: deposit.leaves.claim }, { output: deposit.leaves.refund }],
    redeem: { output: deposit.leaves.refund, redeemVersion: 0xc0 },
  });
  const depositTx = Psbt.fromBase64(deposit.signed).extractTransaction();
  const psbt = new Psbt();
  psbt.setVersion(args.version);
  psbt.addInput({
    hash: depositTx.getId(),
    index: 0,
    sequence: args.sequence,
    witnessUtxo: { script: deposit.htlcScript, value: AMOUNT },
    tapLeafScript: [
      { leafVersion: 0xc0, script: deposit.leaves.refund, controlBlock: redeem.witness!.at(-1)! },
    ],
  });
  psbt.addOutput({ script: p2trOf(userKey), value: AMOUNT - 500n });
  psbt.signTaprootInput(0, userKey);
  psbt.finalizeInput(0);
  return psbt.extractTransaction().toHex();
}

describe("signHtlcRefund", () => {
  it("spends the HTLC through the refund leaf; the interpreter accepts it", async () => {
    const deposit = await signedDeposit();
    const refund = await signHtlcRefund({
      ecc,
      depositPsbt: deposit.signed,
      userPublicKey,
      signer: userKey,
      feeLots: 300n,
    });
    const tx = Transaction.fromHex(refund.txHex);
    const depositTx = Psbt.fromBase64(deposit.signed).extractTransaction();
    expect(tx.version).toBe(2);
    expect(tx.ins[0]!.sequence).toBe(CSV);
    expect(hex(tx.ins[0]!.hash)).toBe(hex(depositTx.getHash()));
    expect(tx.ins[0]!.index).toBe(0);
    expect(tx.ins[0]!.witness).toHaveLength(3); // signature, refund leaf, control block
    expect(hex(tx.ins[0]!.witness[1]!)).toBe(hex(deposit.leaves.refund));
    expect(tx.outs[0]!.value).toBe(AMOUNT - 300n);
    expect(hex(tx.outs[0]!.script)).toBe(hex(p2trOf(userKey)));
    expect(
      runInterpreter({ txHex: refund.txHex, prevouts: [{ script: deposit.htlcScript, value: AMOUNT }] }),
    ).toEqual([null]);
  });

  it("pays a chosen destination", async () => {
    const deposit = await signedDeposit();
    const refund = await signHtlcRefund({
      ecc,
      depositPsbt: deposit.signed,
      userPublicKey,
      signer: userKey,
      feeLots: 300n,
      destinationScript: p2wpkhOf(userKey),
    });
    expect(hex(Transaction.fromHex(refund.txHex).outs[0]!.script)).toBe(hex(p2wpkhOf(userKey)));
  });

  it("is refused by the interpreter before the timelock (nSequence below the CSV delay)", async () => {
    const deposit = await signedDeposit();
    const early = handRefund({ deposit, sequence: CSV - 1, version: 2 });
    expect(
      runInterpreter({ txHex: early, prevouts: [{ script: deposit.htlcScript, value: AMOUNT }] }),
    ).toEqual(["SCRIPT_ERR_UNSATISFIED_LOCKTIME"]);
    const versionOne = handRefund({ deposit, sequence: CSV, version: 1 });
    expect(
      runInterpreter({ txHex: versionOne, prevouts: [{ script: deposit.htlcScript, value: AMOUNT }] }),
    ).toEqual(["SCRIPT_ERR_UNSATISFIED_LOCKTIME"]);
    const onTime = handRefund({ deposit, sequence: CSV, version: 2 });
    expect(
      runInterpreter({ txHex: onTime, prevouts: [{ script: deposit.htlcScript, value: AMOUNT }] }),
    ).toEqual([null]);
  });

  it("refuses a stranger's key and a fee that leaves nothing", async () => {
    const deposit = await signedDeposit();
    const codeOf = async (p: Promise<unknown>) =>
      p.then(
        () => "ACCEPTED",
        (e) => (isSwapIntentError(e) ? e.code : "OTHER"),
      );
    expect(
      await codeOf(
        signHtlcRefund({
          ecc,
          depositPsbt: deposit.signed,
          userPublicKey,
          signer: strangerKey,
          feeLots: 300n,
        }),
      ),
    ).toBe("BTC_SIGNER_KEY_MISMATCH");
    expect(
      await codeOf(
        signHtlcRefund({
          ecc,
          depositPsbt: deposit.signed,
          userPublicKey: hex(strangerKey.publicKey),
          signer: strangerKey,
          feeLots: 300n,
        }),
      ),
    ).toBe("BTC_HTLC_REFUND_KEY_MISMATCH");
    expect(
      await codeOf(
        signHtlcRefund({ ecc, depositPsbt: deposit.signed, userPublicKey, signer: userKey, feeLots: AMOUNT }),
      ),
    ).toBe("BTC_REFUND_INVALID");
  });
});
