import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifyScripts } from "./verifyScripts.js";

/** P2WSH of `witnessScript`, spent by a witness stack holding only the script (no signatures). */
function p2wsh(witnessScript: number) {
  const hash = createHash("sha256").update(Uint8Array.of(witnessScript)).digest("hex");
  return {
    prevout: { script: Buffer.from(`0020${hash}`, "hex"), value: 1000n },
    witness: `0101${hex(witnessScript)}`,
  };
}

const hex = (byte: number) => byte.toString(16).padStart(2, "0");

/** A segwit version-2 transaction spending one null outpoint per witness, with one empty output. */
function rawTx(witnesses: string[]): string {
  // outpoint (null txid, index 0), empty scriptSig, final sequence
  const input = `${"00".repeat(32)}0000000000ffffffff`;
  const n = hex(witnesses.length);
  return `020000000001${n}${input.repeat(witnesses.length)}01${"00".repeat(8)}00${witnesses.join("")}00000000`;
}

// OP_TRUE: a script anyone can satisfy; OP_FALSE: one no one can.
const anyoneCanSpend = p2wsh(0x51);
const noOneCanSpend = p2wsh(0x00);

describe("verifyScripts", () => {
  it("passes an input whose prevout script the interpreter accepts, and names the error of one it refuses", () => {
    const txHex = rawTx([anyoneCanSpend.witness, noOneCanSpend.witness]);
    const [passed, refused] = verifyScripts({
      txHex,
      prevouts: [anyoneCanSpend.prevout, noOneCanSpend.prevout],
    });
    expect(passed).toBeNull();
    expect(refused).toBe("SCRIPT_ERR_EVAL_FALSE_IN_STACK");
  });

  it.each([0, 1, 3])("refuses %i prevouts for a two-input transaction", (count) => {
    const txHex = rawTx([anyoneCanSpend.witness, anyoneCanSpend.witness]);
    expect(() => verifyScripts({ txHex, prevouts: Array(count).fill(anyoneCanSpend.prevout) })).toThrow(
      "one prevout per input is required",
    );
  });
});
