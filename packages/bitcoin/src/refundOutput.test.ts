// What the refund may pay, as a buggy wallet could ask: an output nodes relay (Bitcoin Core's dust threshold of the
// destination's own type, not one number for every type), and never a script nobody can spend (OP_RETURN) or the
// HTLC itself (the resolver, who holds the secret, could claim it again). Each refused before the key signs.
import { isSwapIntentError } from "@swapintent/client";
import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { payments, Transaction } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { AMOUNT, buildDeposit, hex, p2wpkhOf, spySigner, userKey } from "../test/fixtures.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import { signHtlcRefund } from "./signHtlcRefund.js";

const userPublicKey = hex(userKey.publicKey);
const deposit = buildDeposit();
const signed = await signHtlcPsbt({
  ecc,
  intent: deposit.intent,
  quote: deposit.quote,
  userPublicKey,
  signer: userKey,
});

/** The refund's outcome paying `valueLots` to `destinationScript`: the code, or its output value. */
async function refund(destinationScript: Uint8Array, valueLots: bigint) {
  const signer = spySigner();
  try {
    const result = await signHtlcRefund({
      ecc,
      depositPsbt: signed.psbt,
      userPublicKey,
      signer,
      feeLots: AMOUNT - valueLots,
      destinationScript,
    });
    const prevouts = [{ script: deposit.htlcScript, value: AMOUNT }];
    expect(runInterpreter({ txHex: result.txHex, prevouts })).toEqual([null]);
    return Transaction.fromHex(result.txHex).outs[0]!.value;
  } catch (error) {
    expect(signer.uses).toBe(0);
    return isSwapIntentError(error) ? error.code : "OTHER";
  }
}

const p2pkh = payments.p2pkh({ pubkey: userKey.publicKey }).output!;
const p2sh = payments.p2sh({ redeem: payments.p2wpkh({ pubkey: userKey.publicKey }) }).output!;

describe("signHtlcRefund's output", () => {
  it("is at least the dust threshold of its own type (Bitcoin Core: 546 P2PKH, 540 P2SH, 294 P2WPKH, 330 P2TR)", async () => {
    // Below the threshold nodes do not relay the refund: the user finds out only when it never confirms.
    expect(await refund(p2pkh, 545n)).toBe("BTC_REFUND_INVALID");
    expect(await refund(p2pkh, 546n)).toBe(546n);
    expect(await refund(p2sh, 539n)).toBe("BTC_REFUND_INVALID");
    expect(await refund(p2sh, 540n)).toBe(540n);
    // P2WPKH's threshold is lower than the P2TR 330 that applied to every type before.
    expect(await refund(p2wpkhOf(userKey), 293n)).toBe("BTC_REFUND_INVALID");
    expect(await refund(p2wpkhOf(userKey), 294n)).toBe(294n);
    expect(await refund(deposit.prevouts[0]!.script, 329n)).toBe("BTC_REFUND_INVALID");
    expect(await refund(deposit.prevouts[0]!.script, 330n)).toBe(330n);
  });

  it("never pays a script nobody can spend, or the HTLC it refunds", async () => {
    expect(await refund(Uint8Array.from([0x6a]), 50_000n)).toBe("BTC_REFUND_INVALID");
    expect(await refund(Uint8Array.from([0x6a, 0x04, 1, 2, 3, 4]), 50_000n)).toBe("BTC_REFUND_INVALID");
    expect(await refund(deposit.htlcScript, 50_000n)).toBe("BTC_REFUND_INVALID");
  });
});
