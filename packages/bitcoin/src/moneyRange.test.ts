// Amounts the chain refuses: every input, output and both sums within 0..21,000,000 BTC (consensus MoneyRange).
import { createRequire } from "node:module";
import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { Psbt } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { attempt } from "../test/attempt.js";
import { AMOUNT, buildDeposit, type Deposit, hex, p2trOf, strangerKey, userKey } from "../test/fixtures.js";
import { isBitcoinError } from "./errors.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import { verifyHtlcPsbt } from "./verifyHtlcPsbt/verifyHtlcPsbt.js";

// bitcore-lib is the testing package's dependency: its Transaction.verify() runs consensus's CheckTransaction.
const bitcore = createRequire(new URL("../node_modules/@swapintent/testing/package.json", import.meta.url))(
  "bitcore-lib",
) as { Transaction: new (hex: string) => { verify(): true | string } };

/** 21,000,000 BTC in satoshis: consensus refuses any amount, or sum of amounts, above it (MoneyRange). */
const MAX_MONEY = 2_100_000_000_000_000n;
const userPublicKey = hex(userKey.publicKey);

/** The user's P2TR coin (listed) and a coin of the service (unlisted) whose value the service states. */
function withServiceCoin(args: { serviceValue: bigint; changeValue: bigint; htlcValue?: bigint }): Deposit {
  return buildDeposit({
    inputs: [
      { kind: "p2tr", value: 60_000n },
      { kind: "p2wpkh", value: args.serviceValue, owner: strangerKey },
    ],
    listed: [0],
    htlcValue: args.htlcValue ?? AMOUNT,
    outputs: [{ script: p2trOf(userKey), value: args.changeValue }],
  });
}

/** The deposit's unsigned transaction, as hex (what consensus's context-free checks see). */
const unsignedTxHex = (deposit: Deposit) =>
  Buffer.from(Psbt.fromBase64(deposit.psbt).data.globalMap.unsignedTx.toBuffer()).toString("hex");

describe("amounts the chain refuses (above 21,000,000 BTC)", () => {
  const fee = 5_000n;

  it("refuses a service coin stated above MAX_MONEY whose value comes back as change: bitcore's CheckTransaction refuses that transaction", async () => {
    const serviceValue = MAX_MONEY + 100_000n;
    const deposit = withServiceCoin({ serviceValue, changeValue: serviceValue + 60_000n - AMOUNT - fee });
    expect(new bitcore.Transaction(unsignedTxHex(deposit)).verify()).toBe(
      "transaction txout 1 greater than MAX_MONEY",
    );
    expect(await attempt(deposit)).toEqual({ code: "BTC_AMOUNT_OUT_OF_RANGE", uses: 0 });
  });

  it("refuses outputs that each fit but sum above MAX_MONEY: bitcore refuses the total", async () => {
    const deposit = withServiceCoin({
      serviceValue: MAX_MONEY + AMOUNT + fee - 60_000n,
      changeValue: MAX_MONEY,
    });
    expect(new bitcore.Transaction(unsignedTxHex(deposit)).verify()).toBe(
      "transaction txout 1 total output greater than MAX_MONEY",
    );
    expect(await attempt(deposit)).toEqual({ code: "BTC_AMOUNT_OUT_OF_RANGE", uses: 0 });
  });

  it("refuses inputs that each fit but sum above MAX_MONEY, with every output and the fee in range", async () => {
    // No two coins can hold more than every bitcoin there is: the stated values are a lie (bad-txns-inputvalues-outofrange).
    const deposit = withServiceCoin({
      serviceValue: MAX_MONEY + 1_000n - 60_000n,
      changeValue: MAX_MONEY - 4_000n - AMOUNT,
    });
    expect(new bitcore.Transaction(unsignedTxHex(deposit)).verify()).toBe(true);
    expect(await attempt(deposit)).toEqual({ code: "BTC_AMOUNT_OUT_OF_RANGE", uses: 0 });
  });

  it("says where: the input, the inputs' sum, the output, or the outputs' sum", () => {
    const cases: [Deposit, string][] = [
      [withServiceCoin({ serviceValue: MAX_MONEY + 1n, changeValue: 1_000_000n }), "input 1"],
      [
        withServiceCoin({
          serviceValue: MAX_MONEY + 1_000n - 60_000n,
          changeValue: MAX_MONEY - 4_000n - AMOUNT,
        }),
        "inputs",
      ],
      [withServiceCoin({ serviceValue: MAX_MONEY - 60_000n, changeValue: MAX_MONEY + 1n }), "output 1"],
      [withServiceCoin({ serviceValue: MAX_MONEY - 60_000n, changeValue: MAX_MONEY }), "outputs"],
    ];
    for (const [deposit, where] of cases) {
      let refused = false;
      try {
        verifyHtlcPsbt({ ecc, ...deposit, userPublicKey });
      } catch (error) {
        if (!isBitcoinError(error, "BTC_AMOUNT_OUT_OF_RANGE")) throw error;
        refused = true;
        expect(error.details).toEqual({ where, valueLots: error.details.valueLots, maxLots: MAX_MONEY });
        expect(error.details.valueLots > MAX_MONEY).toBe(true);
      }
      expect(refused).toBe(true);
    }
  });

  it("refuses a quote above MAX_MONEY (BTC_QUOTE_INVALID) even when the HTLC locks it", async () => {
    const htlcValue = MAX_MONEY + 1n;
    const deposit = withServiceCoin({
      serviceValue: htlcValue + 14_000n - 60_000n,
      changeValue: 9_000n,
      htlcValue,
    });
    const quote = { sourceAmountLots: htlcValue };
    expect(await attempt({ ...deposit, quote })).toEqual({ code: "BTC_QUOTE_INVALID", uses: 0 });
  });

  it("accepts inputs summing to exactly MAX_MONEY; bitcore accepts the signed deposit", async () => {
    const serviceValue = MAX_MONEY - 60_000n;
    const deposit = withServiceCoin({ serviceValue, changeValue: serviceValue + 60_000n - AMOUNT - fee });
    // A 5,000-sat fee is about 30 sat/vB here: above the default rate cap, so the wallet raises it.
    const policy = { maxFeeRateSatPerVbyte: 200n };
    expect(await attempt(deposit, policy)).toEqual({ code: "ACCEPTED", uses: 1 });
    const { psbt } = await signHtlcPsbt({ ecc, ...deposit, userPublicKey, signer: userKey, policy });
    // The service signs its own coin, then the deposit is complete: every input and CheckTransaction pass.
    const signed = Psbt.fromBase64(psbt);
    signed.signInput(1, strangerKey).finalizeInput(1);
    const txHex = signed.extractTransaction(true).toHex();
    expect(runInterpreter({ txHex, prevouts: deposit.prevouts })).toEqual([null, null]);
    expect(new bitcore.Transaction(txHex).verify()).toBe(true);
  });
});
