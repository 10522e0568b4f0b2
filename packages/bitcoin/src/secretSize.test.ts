// The claim leaf has no `OP_SIZE 32 OP_EQUALVERIFY`, by decision (README, "Why the claim leaf does not check the
// secret's size"). The cross-chain secret-size attack hurts whoever must reuse a secret revealed on one chain to
// claim on another; the user here never claims with the secret: the refund leaf needs only the user's key and the
// delay. These tests pin both facts on bitcore's interpreter, so a change to either template shows up here.
import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { crypto, Psbt, payments } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { AMOUNT, buildDeposit, CSV, hex, NUMS, p2trOf, resolverKey, userKey } from "../test/fixtures.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import { signHtlcRefund } from "./signHtlcRefund.js";

const userPublicKey = hex(userKey.publicKey);

/** A compact-size-prefixed witness stack (each item < 253 bytes). */
function witnessOf(items: Uint8Array[]): Uint8Array {
  return Uint8Array.from([items.length, ...items.flatMap((item) => [item.length, ...item])]);
}

/** The resolver's claim of the deposit's HTLC with `secret`, hex. */
function claimWith(args: {
  deposit: ReturnType<typeof buildDeposit>;
  depositTxid: string;
  secret: Uint8Array;
}) {
  const { deposit } = args;
  const redeem = payments.p2tr({
    internalPubkey: NUMS,
    scriptTree: [{ output: deposit.leaves.claim }, { output: deposit.leaves.refund }],
    redeem: { output: deposit.leaves.claim, redeemVersion: 0xc0 },
  });
  const controlBlock = redeem.witness!.at(-1)!;
  const psbt = new Psbt();
  psbt.setVersion(2);
  psbt.addInput({
    hash: args.depositTxid,
    index: 0,
    witnessUtxo: { script: deposit.htlcScript, value: AMOUNT },
    tapLeafScript: [{ leafVersion: 0xc0, script: deposit.leaves.claim, controlBlock }],
  });
  psbt.addOutput({ script: p2trOf(resolverKey), value: AMOUNT - 500n });
  psbt.signTaprootInput(0, resolverKey);
  psbt.finalizeTaprootInput(0, undefined, (_i, input) => ({
    finalScriptWitness: witnessOf([
      input.tapScriptSig![0]!.signature,
      args.secret,
      deposit.leaves.claim,
      controlBlock,
    ]),
  }));
  return psbt.extractTransaction().toHex();
}

describe("the secret's size is the resolver's concern, never the user's", () => {
  it("whatever the secret's length, the user's refund needs no secret and passes the interpreter", async () => {
    for (const length of [16, 32, 64, 200]) {
      const secret = new Uint8Array(length).fill(0x5e);
      const deposit = buildDeposit({ secretHash: crypto.sha256(secret) });
      deposit.intent.secretHash = `0x${hex(crypto.sha256(secret))}`;
      const signed = await signHtlcPsbt({
        ecc,
        intent: deposit.intent,
        quote: deposit.quote,
        userPublicKey,
        signer: userKey,
      });
      const prevouts = [{ script: deposit.htlcScript, value: AMOUNT }];
      const refund = await signHtlcRefund({
        ecc,
        depositPsbt: signed.psbt,
        userPublicKey,
        signer: userKey,
        feeLots: 300n,
      });
      expect(refund.csvBlocks).toBe(CSV);
      expect(runInterpreter({ txHex: refund.txHex, prevouts })).toEqual([null]);
      // The leaf takes any preimage of the hash (no size check): only the resolver, who chose it, is bound by it.
      const claim = claimWith({ deposit, depositTxid: signed.verified.txid, secret });
      expect(runInterpreter({ txHex: claim, prevouts })).toEqual([null]);
      const wrong = claimWith({ deposit, depositTxid: signed.verified.txid, secret: secret.slice(1) });
      expect(runInterpreter({ txHex: wrong, prevouts })[0]).not.toBeNull();
    }
  });
});
