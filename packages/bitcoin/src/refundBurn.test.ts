// A refund destination that no key or script can ever spend burns the user's coins as surely as OP_RETURN: a
// witness version 0 program that is neither 20 nor 32 bytes fails every spend (BIP-141), and a Taproot output
// whose 32 bytes are no x coordinate on the curve has no valid output key (BIP-341). Both refused before the key
// signs. Every other witness version and length is kept: future soft forks give them meaning (Bitcoin Core relays
// them as WITNESS_UNKNOWN). Dust thresholds of the other types pinned at Bitcoin Core's values (dustrelayfee
// 3 sat/vB; 148 vbytes to spend a non-witness output, 67 a witness program).
import { isSwapIntentError } from "@swapintent/client";
import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { Transaction } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { AMOUNT, buildDeposit, hex, spySigner, userKey } from "../test/fixtures.js";
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
async function refund(destinationScript: Uint8Array, valueLots = 50_000n) {
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
    // Valid on bitcore's interpreter, and the output is what was asked.
    const prevouts = [{ script: deposit.htlcScript, value: AMOUNT }];
    expect(runInterpreter({ txHex: result.txHex, prevouts })).toEqual([null]);
    const output = Transaction.fromHex(result.txHex).outs[0]!;
    expect(hex(output.script)).toBe(hex(destinationScript));
    return output.value;
  } catch (error) {
    expect(signer.uses).toBe(0);
    return isSwapIntentError(error) ? error.code : "OTHER";
  }
}

const program = (op: number, length: number, fill = 7) =>
  Uint8Array.from([op, length, ...new Uint8Array(length).fill(fill)]);

/** The first 32-byte x (counting up from 1…1) that is not on secp256k1, and x = p - 1 + 1 (out of the field). */
function offCurve(): Uint8Array[] {
  const x = new Uint8Array(32).fill(1);
  while (ecc.isXOnlyPoint(x)) x[31]!++;
  return [x, new Uint8Array(32).fill(0xff)];
}

describe("signHtlcRefund never pays a witness program no one can spend", () => {
  it("witness v0 of a length other than 20 or 32 bytes (every spend fails, BIP-141)", async () => {
    for (const length of [2, 16, 19, 21, 31, 33, 40]) {
      expect(await refund(program(0x00, length)), `v0 ${length} bytes`).toBe("BTC_REFUND_INVALID");
    }
    expect(await refund(program(0x00, 20))).toBe(50_000n);
    expect(await refund(program(0x00, 32))).toBe(50_000n);
  });

  it("a Taproot output whose x is not on the curve (no valid output key, BIP-341)", async () => {
    for (const x of offCurve()) {
      expect(await refund(Uint8Array.from([0x51, 0x20, ...x])), hex(x)).toBe("BTC_REFUND_INVALID");
    }
    const onCurve = Uint8Array.from([0x51, 0x20, ...userKey.publicKey.slice(1)]);
    expect(await refund(onCurve)).toBe(50_000n);
  });

  it("pay-to-anchor (OP_1 0x4e73): a standard output anyone can spend with an empty witness", async () => {
    expect(await refund(Uint8Array.from([0x51, 0x02, 0x4e, 0x73]))).toBe("BTC_REFUND_INVALID");
  });

  it("keeps the witness programs a soft fork may give meaning (v1 of other lengths, v2..v16)", async () => {
    expect(await refund(program(0x51, 2))).toBe(50_000n);
    expect(await refund(program(0x51, 33))).toBe(50_000n);
    expect(await refund(program(0x52, 32))).toBe(50_000n);
    expect(await refund(program(0x60, 40))).toBe(50_000n);
  });
});

describe("dust thresholds at Bitcoin Core's values for the other types", () => {
  it("P2WSH 330, P2PK (compressed) 576, an unknown 2-byte witness program 240", async () => {
    const p2pk = Uint8Array.from([0x21, ...userKey.publicKey, 0xac]);
    for (const [script, threshold] of [
      [program(0x00, 32), 330n],
      [p2pk, 576n],
      [program(0x52, 2), 240n],
    ] as const) {
      expect(await refund(script, threshold - 1n)).toBe("BTC_REFUND_INVALID");
      expect(await refund(script, threshold)).toBe(threshold);
    }
  });
});
