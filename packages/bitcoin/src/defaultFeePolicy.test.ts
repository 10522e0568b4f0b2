// The default policy protects a wallet that passes none: the service picks the fee, and whatever it adds beyond a
// relay fee comes out of the user's change.
import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { Psbt } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { attempt } from "../test/attempt.js";
import { AMOUNT, buildDeposit, hex, p2trOf, p2wpkhOf, strangerKey, userKey } from "../test/fixtures.js";
import { DEFAULT_HTLC_POLICY } from "./constants.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import { verifyHtlcPsbt } from "./verifyHtlcPsbt/verifyHtlcPsbt.js";

const userPublicKey = hex(userKey.publicKey);

/** The user's one P2TR coin of 115,400 sat, the 100,000-sat HTLC, and change of 115,400 - 100,000 - `feeLots`. */
const withFee = (feeLots: bigint) =>
  buildDeposit({
    inputs: [{ kind: "p2tr", value: 115_400n }],
    outputs: [{ script: p2trOf(userKey), value: 115_400n - AMOUNT - feeLots }],
  });

describe("the default fee caps", () => {
  it("are 25 sat/vB, 2% of the swap and 20,000 sat", () => {
    expect(DEFAULT_HTLC_POLICY).toMatchObject({
      maxFeeRateSatPerVbyte: 25n,
      maxFeeBps: 200,
      maxFeeLots: 20_000n,
    });
  });

  it("refuse a deposit that folds 5,400 sat of the user's change into the fee (5.4% of the swap, about 35 sat/vB here)", async () => {
    const folded = withFee(5_400n);
    // What the fee would be: a valid deposit, as the chain sees it, with the user's change cut.
    const verified = verifyHtlcPsbt({
      ecc,
      ...folded,
      userPublicKey,
      policy: { maxFeeRateSatPerVbyte: 200n, maxFeeBps: 1_000, maxFeeLots: 50_000n },
    });
    expect(verified.feeLots).toBe(5_400n);
    expect(verified.feeLots / verified.estimatedVsize).toBeGreaterThanOrEqual(30n);
    const { psbt } = await signHtlcPsbt({
      ecc,
      ...folded,
      userPublicKey,
      signer: userKey,
      policy: { maxFeeRateSatPerVbyte: 200n, maxFeeBps: 1_000, maxFeeLots: 50_000n },
    });
    const txHex = Psbt.fromBase64(psbt).extractTransaction().toHex();
    expect(runInterpreter({ txHex, prevouts: folded.prevouts })).toEqual([null]);
    // With no policy, it is refused before the key is used.
    expect(await attempt(folded)).toEqual({ code: "BTC_FEE_TOO_HIGH", uses: 0 });
  });

  it("refuse a fee above the rate cap even within the share cap (a 2-BTC swap, 4,500 sat at about 29 sat/vB)", async () => {
    const big = 200_000_000n;
    const deposit = buildDeposit({
      inputs: [{ kind: "p2tr", value: big + 14_500n }],
      htlcValue: big,
      outputs: [{ script: p2trOf(userKey), value: 10_000n }],
    });
    const quoted = { ...deposit, quote: { sourceAmountLots: big } };
    expect(await attempt(quoted)).toEqual({ code: "BTC_FEE_TOO_HIGH", uses: 0 });
    expect((await attempt(quoted, { maxFeeRateSatPerVbyte: 30n })).code).toBe("ACCEPTED");
  });

  it("accept a relay-rate fee with no policy (a 2 sat/vB deposit of the user's two coins)", async () => {
    const deposit = buildDeposit({
      inputs: [
        { kind: "p2tr", value: 60_000n },
        { kind: "p2wpkh", value: 50_000n },
      ],
      outputs: [{ script: p2trOf(userKey), value: 10_000n - 400n }],
    });
    expect((await attempt(deposit)).code).toBe("ACCEPTED");
  });

  it("count only the user's part of the fee against the share cap: the service's own coin may pay the rest", async () => {
    // The user's coins pay 1,000 sat (1%); the service's coin of 2,000 sat goes to the fee too (3% in all).
    const deposit = buildDeposit({
      inputs: [
        { kind: "p2tr", value: 60_000n },
        { kind: "p2wpkh", value: 50_000n },
        { kind: "p2wpkh", value: 2_000n, owner: strangerKey },
      ],
      listed: [0, 1],
    });
    expect((await attempt(deposit)).code).toBe("ACCEPTED");
    // The user's part above 2% is refused whatever the service's coin brings.
    const greedy = buildDeposit({
      inputs: [
        { kind: "p2tr", value: 60_000n },
        { kind: "p2wpkh", value: 50_000n },
        { kind: "p2wpkh", value: 2_000n, owner: strangerKey },
      ],
      listed: [0, 1],
      outputs: [{ script: p2trOf(userKey), value: 7_999n }],
    });
    expect(await attempt(greedy)).toEqual({ code: "BTC_FEE_TOO_HIGH", uses: 0 });
    expect(p2wpkhOf(strangerKey)).not.toEqual(p2wpkhOf(userKey));
  });
});
