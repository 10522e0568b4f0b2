import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { crypto, Psbt, payments, type Transaction } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import { attempt, tamper } from "../test/attempt.js";
import { buildDeposit, p2trOf, userKey, xOnly } from "../test/fixtures.js";

/** One user P2TR coin: HTLC 100,000 + change 9,000, fee 1,000. */
const single = () =>
  buildDeposit({
    inputs: [{ kind: "p2tr", value: 110_000n }],
    outputs: [{ script: p2trOf(userKey), value: 9_000n }],
  });

describe("deposits nodes would not relay, but a miner would still mine", () => {
  it.each([0, 3, 4, 0x7fffffff, 0xffffffff])("refuses transaction version %i", async (version) => {
    const deposit = tamper(single(), (_psbt, tx) => {
      tx.version = version;
    });
    expect(await attempt(deposit)).toEqual({ code: "BTC_TX_NOT_STANDARD", uses: 0 });
  });

  it("accepts versions 1 and 2", async () => {
    for (const version of [1, 2]) {
      const deposit = tamper(single(), (_psbt, tx) => {
        tx.version = version;
      });
      expect((await attempt(deposit)).code).toBe("ACCEPTED");
    }
  });

  it("a version-0 deposit is valid by consensus (bitcore's interpreter): the service could still have it mined", () => {
    const deposit = tamper(single(), (_psbt, tx) => {
      tx.version = 0;
    });
    const psbt = Psbt.fromBase64(deposit.psbt);
    psbt.signInput(0, userKey.tweak(crypto.taggedHash("TapTweak", xOnly(userKey))));
    psbt.finalizeAllInputs();
    const tx = psbt.extractTransaction();
    expect(tx.version).toBe(0);
    expect(runInterpreter({ txHex: tx.toHex(), prevouts: deposit.prevouts })).toEqual([null]);
  });

  /** The user's P2TR coin plus `count` unlisted P2WSH service coins of 100 sat (each 41 bytes, 3 WU estimated). */
  const heavy = (count: number) =>
    tamper(single(), (psbt) => {
      const serviceScript = payments.p2wsh({ redeem: { output: Uint8Array.of(0x51) } }).output!;
      // Written into the transaction and the input maps directly (psbt.addInput re-checks every input each time).
      const tx = (psbt.data.globalMap.unsignedTx as unknown as { tx: Transaction }).tx;
      for (let i = 0; i < count; i++) {
        const hash = new Uint8Array(32);
        new DataView(hash.buffer).setUint32(0, i + 1);
        tx.addInput(hash, 0);
        psbt.data.inputs.push({ witnessUtxo: { script: serviceScript, value: 100n } } as never);
      }
    });
  const generous = { maxFeeLots: 1_000_000n, maxFeeBps: 1_000_000 };

  it("refuses a deposit above 400,000 weight units (MAX_STANDARD_TX_WEIGHT), accepts one below", async () => {
    expect(await attempt(heavy(2_450), generous)).toEqual({ code: "BTC_TX_NOT_STANDARD", uses: 0 });
    expect((await attempt(heavy(2_380), generous)).code).toBe("ACCEPTED");
  });
});
