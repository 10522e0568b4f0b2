// The deposit handed to signHtlcRefund, and the refund signature a key signer returns: malformed data is a
// coded refusal, never a failure of the secp256k1 backend.
import { Psbt } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { buildDeposit, hex, spySigner, strangerKey, userKey } from "../test/fixtures.js";
import { isBitcoinError } from "./errors.js";
import { signHtlcRefund } from "./signHtlcRefund.js";

const userPublicKey = hex(userKey.publicKey);

describe("the deposit handed to signHtlcRefund, attacked", () => {
  it("an HTLC internal key off the curve is the HTLC's fault (BTC_HTLC_SCRIPT_MISMATCH), never an ecc failure", async () => {
    // Before: tiny-secp256k1's "Expected Point" escaped raw from bitcoinjs' p2tr, then (read-once ecc) it named the
    // backend. The NUMS check now runs before any point math on the service's key.
    for (const key of [new Uint8Array(32).fill(0xff), new Uint8Array(32), strangerKey.publicKey.slice(1)]) {
      const deposit = buildDeposit();
      const psbt = Psbt.fromBase64(deposit.intent.paramsToSign.psbt);
      psbt.data.outputs[0]!.tapInternalKey = key;
      const signer = spySigner();
      const error = await signHtlcRefund({
        ecc,
        depositPsbt: psbt.toBase64(),
        userPublicKey,
        signer,
        feeLots: 300n,
      }).catch((e: unknown) => e);
      expect(isBitcoinError(error, "BTC_HTLC_SCRIPT_MISMATCH"), String(error)).toBe(true);
      expect(signer.uses).toBe(0);
    }
  });
});

describe("a buggy key signer's refund signature", () => {
  it("is BTC_SIGNATURE_INVALID whatever its bytes, never an ecc failure", async () => {
    const deposit = buildDeposit();
    for (const bad of [new Uint8Array(64).fill(0xff), new Uint8Array(64), new Uint8Array(64).fill(1)]) {
      const signer = { publicKey: userKey.publicKey, sign: () => bad, signSchnorr: () => bad };
      const error = await signHtlcRefund({
        ecc,
        depositPsbt: deposit.intent.paramsToSign.psbt,
        userPublicKey,
        signer,
        feeLots: 300n,
      }).catch((e: unknown) => e);
      expect(isBitcoinError(error, "BTC_SIGNATURE_INVALID"), String(error)).toBe(true);
    }
  });
});
