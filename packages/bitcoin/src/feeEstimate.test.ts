import { Psbt } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { attempt, tamper } from "../test/attempt.js";
import {
  AMOUNT,
  buildDeposit,
  type Deposit,
  hex,
  p2trOf,
  p2wpkhOf,
  strangerKey,
  userKey,
} from "../test/fixtures.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import { verifyHtlcPsbt } from "./verifyHtlcPsbt/verifyHtlcPsbt.js";

const userPublicKey = hex(userKey.publicKey);

/** A deposit with the user's P2TR input (listed) and a stranger's input of the service (unlisted). */
function withServiceInput(args: { serviceValue: bigint; changeValue: bigint }): Deposit {
  return buildDeposit({
    inputs: [
      { kind: "p2tr", value: 60_000n },
      { kind: "p2wpkh", value: args.serviceValue, owner: strangerKey },
    ],
    listed: [0],
    outputs: [{ script: p2trOf(userKey), value: args.changeValue }],
  });
}

describe("fee cap: the size comes from script types, never from service witness data", () => {
  it("refuses 49,000 sat on a 222 vB deposit under 20 sat/vB, whatever witness the service put on its input", async () => {
    const honest = withServiceInput({ serviceValue: 90_000n, changeValue: 1_000n });
    const faked = tamper(honest, (psbt) => {
      psbt.data.inputs[1]!.finalScriptWitness = Uint8Array.from([
        1,
        0xfd,
        0xe0,
        0x2e,
        ...new Uint8Array(12_000),
      ]);
    });
    const policy = { maxFeeRateSatPerVbyte: 20n, maxFeeLots: 100_000n };
    for (const deposit of [honest, faked]) {
      expect(await attempt(deposit, policy)).toEqual({ code: "BTC_FEE_TOO_HIGH", uses: 0 });
    }
    const estimate = () =>
      verifyHtlcPsbt({
        ecc,
        ...faked,
        userPublicKey,
        policy: { maxFeeLots: 100_000n, maxFeeRateSatPerVbyte: 1_000n, maxFeeBps: 1_000_000 },
      });
    expect(estimate().estimatedVsize).toBe(222n);
  });

  it("estimates the vsize bitcoinjs measures on the signed transaction (within one byte per ECDSA signature)", async () => {
    for (const deposit of [
      buildDeposit(),
      buildDeposit({ inputs: [{ kind: "p2tr", value: 110_000n, sighashType: 1 }] }),
      buildDeposit({ inputs: [{ kind: "p2wpkh", value: 110_000n }] }),
    ]) {
      const { psbt, verified } = await signHtlcPsbt({ ecc, ...deposit, userPublicKey, signer: userKey });
      const real = BigInt(Psbt.fromBase64(psbt).extractTransaction().virtualSize());
      const ecdsaInputs = BigInt(verified.inputs.filter((i) => i.kind === "p2wpkh").length);
      expect(verified.estimatedVsize - real).toBeGreaterThanOrEqual(0n);
      expect(verified.estimatedVsize - real).toBeLessThanOrEqual(ecdsaInputs);
    }
  });
});

describe("dust outputs and a fee below the minimum relay rate", () => {
  const withChange = (script: Uint8Array, value: bigint) => buildDeposit({ outputs: [{ script, value }] });
  it.each([
    ["P2TR", p2trOf(userKey), 330n],
    ["P2WPKH", p2wpkhOf(userKey), 294n],
  ])("refuses %s change below its dust limit, accepts it at the limit", async (_name, change, limit) => {
    expect(await attempt(withChange(change, 0n))).toEqual({ code: "BTC_OUTPUT_DUST", uses: 0 });
    expect(await attempt(withChange(change, limit - 1n))).toEqual({ code: "BTC_OUTPUT_DUST", uses: 0 });
    // The rest of the 10,000 sat above the quote is fee here (about 9%, 54 sat/vB): a wallet that allows it.
    const policy = { maxFeeBps: 1_000, maxFeeRateSatPerVbyte: 200n };
    expect((await attempt(withChange(change, limit), policy)).code).toBe("ACCEPTED");
  });

  it("refuses an HTLC below the dust limit even when the quote says so", async () => {
    const deposit = buildDeposit({
      htlcValue: 329n,
      outputs: [{ script: p2trOf(userKey), value: 108_000n }],
    });
    expect(await attempt({ ...deposit, quote: { sourceAmountLots: 329n } })).toEqual({
      code: "BTC_OUTPUT_DUST",
      uses: 0,
    });
  });

  it("refuses a zero fee and one below 1 sat/vB (or the policy's minimum)", async () => {
    const inputs = 110_000n;
    const zero = withChange(p2trOf(userKey), inputs - AMOUNT);
    expect(await attempt(zero)).toEqual({ code: "BTC_FEE_TOO_LOW", uses: 0 });
    const vsize = verifyHtlcPsbt({
      ecc,
      ...zero,
      userPublicKey,
      policy: { minFeeRateSatPerVbyte: 0n },
    }).estimatedVsize;
    const justBelow = withChange(p2trOf(userKey), inputs - AMOUNT - vsize + 1n);
    expect(await attempt(justBelow)).toEqual({ code: "BTC_FEE_TOO_LOW", uses: 0 });
    const atMinimum = withChange(p2trOf(userKey), inputs - AMOUNT - vsize);
    expect((await attempt(atMinimum)).code).toBe("ACCEPTED");
    expect(await attempt(atMinimum, { minFeeRateSatPerVbyte: 2n })).toEqual({
      code: "BTC_FEE_TOO_LOW",
      uses: 0,
    });
  });
});
