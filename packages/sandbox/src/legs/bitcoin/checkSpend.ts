import { verifyScripts } from "@swapintent/testing/bitcore";
import type { Transaction } from "bitcoinjs-lib";
import { LegRejection } from "../types.js";
import { fromHex } from "./fees.js";
import type { Utxo } from "./ledger.js";
import type { StartedBitcoinLeg } from "./types.js";

/**
 * Check every input of `tx` against the ledger (unspent, `UTXO_SPENT`; outputs within inputs, `TX_VALUE_INVALID`),
 * its locks (`TX_NOT_FINAL`) and bitcore's interpreter (`PSBT_REJECTED`); returns the prevouts it spends.
 */
export function checkSpend({ leg, tx }: { leg: StartedBitcoinLeg; tx: Transaction }): Utxo[] {
  const { ledger } = leg;
  const prevouts = tx.ins.map((input) => {
    const outpoint = { txid: Buffer.from(input.hash).reverse().toString("hex"), vout: input.index };
    const utxo = ledger.get(outpoint);
    if (!utxo)
      throw new LegRejection(
        "UTXO_SPENT",
        `input ${outpoint.txid}:${outpoint.vout} is not an unspent output of the sandbox chain`,
      );
    return utxo;
  });
  const spent = prevouts.reduce((sum, p) => sum + p.value, 0n);
  const paid = tx.outs.reduce((sum, o) => sum + o.value, 0n);
  if (paid > spent)
    throw new LegRejection("TX_VALUE_INVALID", `the outputs (${paid} sat) exceed the inputs (${spent} sat)`);
  const nowMs = leg.ctx.clock.nowMs();
  assertFinal({ tx, height: ledger.height(), nowMs });
  assertRelativeLocks({ tx, prevouts, height: ledger.height(), nowMs });
  const errors = verifyScripts({
    txHex: tx.toHex(),
    prevouts: prevouts.map((p) => ({ script: fromHex(p.script), value: p.value })),
  });
  const failed = errors.findIndex((e) => e !== null);
  if (failed >= 0)
    throw new LegRejection(
      "PSBT_REJECTED",
      `input ${failed} fails the script interpreter: ${errors[failed]}`,
    );
  return prevouts;
}

/** nLockTime: final when the next block's height is above the lock height (or the clock past the lock time), or every input opts out. */
function assertFinal(args: { tx: Transaction; height: number; nowMs: number }): void {
  const { tx } = args;
  if (tx.locktime === 0 || tx.ins.every((input) => input.sequence === 0xffffffff)) return;
  const passed = tx.locktime < 500_000_000 ? tx.locktime <= args.height : tx.locktime * 1000 <= args.nowMs;
  if (!passed) throw new LegRejection("TX_NOT_FINAL", `the transaction is locked until ${tx.locktime}`);
}

/** BIP-68: every input of a version-2 transaction waits its relative lock against the ledger's heights. */
function assertRelativeLocks(args: {
  tx: Transaction;
  prevouts: Utxo[];
  height: number;
  nowMs: number;
}): void {
  if (args.tx.version < 2) return;
  args.tx.ins.forEach((input, i) => {
    const sequence = input.sequence;
    if (sequence & 0x80000000) return; // relative lock disabled
    const prev = args.prevouts[i]!;
    const value = sequence & 0xffff;
    if (sequence & 0x00400000) {
      const waitedMs = args.nowMs - prev.timeMs;
      if (waitedMs < value * 512_000) {
        throw new LegRejection("TX_NOT_FINAL", `input ${i} is time-locked (BIP-68) for longer`);
      }
    } else if (args.height - prev.height < value) {
      throw new LegRejection(
        "TX_NOT_FINAL",
        `input ${i} is locked for ${value} blocks (BIP-68); ${args.height - prev.height} have passed`,
      );
    }
  });
}
