import { Psbt, payments } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { attempt, tamper } from "../test/attempt.js";
import {
  buildDeposit,
  type Deposit,
  hex,
  p2trOf,
  spySigner,
  strangerKey,
  userKey,
} from "../test/fixtures.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import { signHtlcRefund } from "./signHtlcRefund.js";

const userPublicKey = hex(userKey.publicKey);

/** A deposit with the user's P2TR input (listed) and a stranger's input of the service (unlisted). */
function withServiceInput(args: { serviceValue: bigint; changeValue: bigint }): Deposit {
  return buildDeposit({
    inputs: [
      { kind: "p2tr", value: 60_000n },
      { kind: "p2wpkh", value: args.serviceValue, owner: strangerKey },
    ],
    listed: [0],
    outputs: [{ script: p2trOf(userKey), value: args.changeValue }],
  });
}

describe("the deposit's txid cannot change after the user signs", () => {
  const scripts: [string, Uint8Array][] = [
    ["P2PKH", payments.p2pkh({ pubkey: strangerKey.publicKey }).output!],
    ["P2SH-P2WPKH", payments.p2sh({ redeem: payments.p2wpkh({ pubkey: strangerKey.publicKey }) }).output!],
    ["bare multisig", payments.p2ms({ m: 1, pubkeys: [strangerKey.publicKey] }).output!],
    ["witness v2", Uint8Array.from([0x52, 0x20, ...new Uint8Array(32).fill(7)])],
    ["witness v0, 25-byte program", Uint8Array.from([0x00, 0x19, ...new Uint8Array(25).fill(7)])],
  ];
  it.each(scripts)(
    "refuses an unlisted %s input (its scriptSig is part of the txid)",
    async (_name, prevout) => {
      const deposit = tamper(withServiceInput({ serviceValue: 50_000n, changeValue: 9_000n }), (psbt) => {
        psbt.data.inputs[1]!.witnessUtxo = { script: prevout, value: 50_000n };
      });
      expect(await attempt(deposit)).toEqual({ code: "BTC_INPUT_NOT_SEGWIT", uses: 0 });
    },
  );

  it("refuses a scriptSig on a native segwit input", async () => {
    const deposit = tamper(withServiceInput({ serviceValue: 50_000n, changeValue: 9_000n }), (psbt) => {
      psbt.data.inputs[1]!.finalScriptSig = Uint8Array.of(0x51);
    });
    expect(await attempt(deposit)).toEqual({ code: "BTC_INPUT_NOT_SEGWIT", uses: 0 });
  });

  it("accepts a native P2WSH service input; the txid it reports is the signed transaction's", async () => {
    const p2wsh = payments.p2wsh({ redeem: { output: Uint8Array.of(0x51) } }).output!;
    const deposit = tamper(withServiceInput({ serviceValue: 50_000n, changeValue: 9_000n }), (psbt) => {
      psbt.data.inputs[1]!.witnessUtxo = { script: p2wsh, value: 50_000n };
    });
    const { psbt, verified } = await signHtlcPsbt({ ecc, ...deposit, userPublicKey, signer: userKey });
    const signed = Psbt.fromBase64(psbt);
    signed.finalizeInput(1, () => ({
      finalScriptSig: undefined,
      finalScriptWitness: Uint8Array.of(1, 1, 0x51),
    }));
    expect(signed.extractTransaction(true).getId()).toBe(verified.txid);
  });

  it("signHtlcRefund refuses a deposit PSBT whose txid could still change", async () => {
    const deposit = tamper(withServiceInput({ serviceValue: 50_000n, changeValue: 9_000n }), (psbt) => {
      psbt.data.inputs[1]!.witnessUtxo = { script: scripts[0]![1], value: 50_000n };
    });
    const signer = spySigner();
    const refused = signHtlcRefund({ ecc, depositPsbt: deposit.psbt, userPublicKey, signer, feeLots: 500n });
    await expect(refused).rejects.toMatchObject({ code: "BTC_INPUT_NOT_SEGWIT" });
    expect(signer.uses).toBe(0);
  });
});
