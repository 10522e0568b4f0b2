import { Psbt, Transaction } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { attempt, tamper } from "../test/attempt.js";
import { buildDeposit, type Deposit, hex, p2trOf, userKey } from "../test/fixtures.js";
import { isBitcoinError } from "./errors.js";
import { verifyHtlcPsbt } from "./verifyHtlcPsbt/verifyHtlcPsbt.js";

const userPublicKey = hex(userKey.publicKey);

describe("a PSBT far above the relay weight is refused before any per-input work", () => {
  /** The deposit plus `count` inputs spending the user's own P2TR script, none listed (pushed directly: fast). */
  function oversized(count: number): Deposit {
    return tamper(buildDeposit(), (psbt, tx) => {
      for (let i = 0; i < count; i++) {
        const hash = new Uint8Array(32).fill(0xab);
        hash[0] = i & 0xff;
        hash[1] = i >> 8;
        tx.ins.push({ hash, index: 7, script: new Uint8Array(), sequence: 0xffffffff, witness: [] });
        psbt.data.inputs.push({
          unknownKeyVals: [],
          witnessUtxo: { script: p2trOf(userKey), value: 1_000n },
        } as never);
      }
    });
  }

  // Building and parsing a 3,000-input PSBT takes 10-25 s on a loaded 2-core machine: above the default timeout.
  it("refuses 3,000 extra inputs for their weight, before it looks at what they spend", {
    timeout: 90_000,
  }, async () => {
    const deposit = oversized(3_000);
    expect(await attempt(deposit)).toEqual({ code: "BTC_TX_NOT_STANDARD", uses: 0 });
    try {
      verifyHtlcPsbt({ ecc, ...deposit, userPublicKey });
      expect.unreachable();
    } catch (error) {
      if (!isBitcoinError(error, "BTC_TX_NOT_STANDARD")) throw error;
      // The floor: the unsigned transaction's own weight (bitcoinjs), plus the segwit marker and flag.
      const unsigned = Transaction.fromBuffer(
        Psbt.fromBase64(deposit.psbt).data.globalMap.unsignedTx.toBuffer(),
      );
      expect(error.details).toEqual({ estimatedWeight: BigInt(unsigned.weight()) + 2n });
    }
  });

  it("below the floor the same inputs are refused for what they spend (the user's script, unlisted)", async () => {
    expect(await attempt(oversized(100))).toEqual({ code: "BTC_INPUT_NOT_LISTED_SIGNED", uses: 0 });
  });
});
