// signHtlcRefund's inputs: service-chosen CSV numbers, and caller parameters of the wrong type or fee.
import { isSwapIntentError } from "@swapintent/client";
import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { Transaction } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { buildDeposit, type Deposit, hex, spySigner, userKey } from "../test/fixtures.js";
import { signHtlcRefund } from "./signHtlcRefund.js";

const userPublicKey = hex(userKey.publicKey);

describe("signHtlcRefund: service-chosen CSV numbers and caller input of the wrong type", () => {
  async function refund(
    deposit: Deposit,
    extra: Record<string, unknown> = {},
  ): Promise<{ code: string; uses: number; txHex?: string }> {
    const signer = spySigner();
    try {
      const { txHex } = await signHtlcRefund({
        ecc,
        depositPsbt: deposit.psbt,
        userPublicKey,
        signer,
        feeLots: 500n,
        ...extra,
      } as never);
      return { code: "ACCEPTED", uses: signer.uses, txHex };
    } catch (error) {
      if (isSwapIntentError(error)) return { code: error.code, uses: signer.uses };
      throw error;
    }
  }

  it.each([
    ["512-second units (type flag)", 0x400090],
    ["the disable flag (CSV is then a no-op)", 0x80000090],
    ["ignored bits 16-21 (65542 means 6 blocks)", 65_542],
    ["100,000 (not a block count BIP-68 can express)", 100_000],
  ])(
    "refuses a refund leaf whose CSV number has %s: csvBlocks would not be the blocks to wait",
    async (_n, csv) => {
      expect(await refund(buildDeposit({ csv }))).toEqual({
        code: "BTC_HTLC_TIMELOCK_OUT_OF_BOUNDS",
        uses: 0,
      });
    },
  );

  it("refuses a fee or destination of the wrong type with a code, not a TypeError", async () => {
    for (const extra of [
      { feeLots: 500 },
      { feeLots: "500" },
      { destinationScript: "0014" },
      { destinationScript: new Uint8Array() },
    ]) {
      expect(await refund(buildDeposit(), extra)).toEqual({ code: "BTC_REFUND_INVALID", uses: 0 });
    }
  });

  it("refuses a fee below 1 sat/vB of the refund transaction (not relayed); at 1 sat/vB bitcore accepts it", async () => {
    const deposit = buildDeposit();
    const vsizeOf = (txHex: string) => BigInt(Transaction.fromHex(txHex).virtualSize());
    const { txHex } = await refund(deposit);
    const vsize = vsizeOf(txHex!);
    expect(await refund(deposit, { feeLots: vsize - 1n })).toEqual({ code: "BTC_REFUND_INVALID", uses: 0 });
    const atMinimum = await refund(deposit, { feeLots: vsize });
    expect(atMinimum.code).toBe("ACCEPTED");
    const tx = Transaction.fromHex(atMinimum.txHex!);
    expect(tx.outs[0]!.value).toBe(100_000n - vsize);
    // Spendable once the CSV delay has passed: the interpreter checks the leaf against the input's nSequence.
    expect(
      runInterpreter({
        txHex: atMinimum.txHex!,
        prevouts: [{ script: deposit.htlcScript, value: 100_000n }],
      }),
    ).toEqual([null]);
  });
});
