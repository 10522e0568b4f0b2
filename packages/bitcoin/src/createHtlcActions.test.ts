import * as pureEcc from "@bitcoinerlab/secp256k1";
import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { Psbt } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { AMOUNT, buildDeposit, hex, userKey } from "../test/fixtures.js";
import { createHtlcActions } from "./createHtlcActions.js";

describe("createHtlcActions", () => {
  it.each([
    ["tiny-secp256k1 (WASM)", ecc],
    ["@bitcoinerlab/secp256k1 (pure JS)", pureEcc],
  ])("verifies, signs and refunds with %s", async (_name, backend) => {
    const actions = createHtlcActions({ ecc: backend, policy: { maxCsvBlocks: 200 } });
    const deposit = buildDeposit();
    const userPublicKey = hex(userKey.publicKey);
    expect(
      actions.verify({ intent: deposit.intent, quote: deposit.quote, userPublicKey }).htlc.valueLots,
    ).toBe(AMOUNT);
    const { psbt } = await actions.sign({
      intent: deposit.intent,
      quote: deposit.quote,
      userPublicKey,
      signer: userKey,
    });
    expect(
      runInterpreter({
        txHex: Psbt.fromBase64(psbt).extractTransaction().toHex(),
        prevouts: deposit.prevouts,
      }),
    ).toEqual([null, null]);
    const refund = await actions.signRefund({
      depositPsbt: psbt,
      userPublicKey,
      signer: userKey,
      feeLots: 400n,
    });
    expect(
      runInterpreter({ txHex: refund.txHex, prevouts: [{ script: deposit.htlcScript, value: AMOUNT }] }),
    ).toEqual([null]);
  });

  it("applies its policy", () => {
    const actions = createHtlcActions({ ecc, policy: { maxCsvBlocks: 100 } });
    const deposit = buildDeposit();
    expect(() =>
      actions.verify({ intent: deposit.intent, quote: deposit.quote, userPublicKey: hex(userKey.publicKey) }),
    ).toThrow(expect.objectContaining({ code: "BTC_HTLC_TIMELOCK_OUT_OF_BOUNDS" }));
  });
});
