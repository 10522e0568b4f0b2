// What the user pays, read by @scure/btc-signer (a PSBT parser someone else wrote) and checked by bitcore's script
// interpreter: every accepted deposit pays exactly the quoted amount into the HTLC, sends every other output to
// the user, and costs the user at most the fee caps; every tampered deposit (extra, duplicated or OP_RETURN outputs,
// dust change, other sighash types, previous transactions that disagree, service inputs) is refused with a code
// before the key is used, or cannot be mined.
import { Transaction as ScureTransaction } from "@scure/btc-signer";
import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { Psbt, Transaction } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { attempt, tamper } from "../test/attempt.js";
import {
  AMOUNT,
  buildDeposit,
  type Deposit,
  type DepositOptions,
  hex,
  p2trOf,
  p2wpkhOf,
  strangerKey,
  userKey,
} from "../test/fixtures.js";
import { DEFAULT_HTLC_POLICY } from "./constants.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import type { HtlcPolicyParameters } from "./types.js";

const userPublicKey = hex(userKey.publicKey);
const USER_SCRIPTS = [hex(p2trOf(userKey)), hex(p2wpkhOf(userKey))];
const HTLC_SCRIPT = hex(buildDeposit().htlcScript);

/**
 * The user's side of a deposit as @scure/btc-signer reads it: what the user's inputs hold, what comes back to the
 * user, what the HTLC locks, and the estimated vsize of the user's part (overhead, the user's inputs, every output).
 */
function readWithScure(psbtBase64: string) {
  const tx = ScureTransaction.fromPSBT(Buffer.from(psbtBase64, "base64"), { allowUnknownInputs: true });
  let userIn = 0n;
  let serviceIn = 0n;
  let userWeight = 4 * (4 + 1 + 1 + 4) + 2; // version, counts, locktime; segwit marker and flag
  for (let i = 0; i < tx.inputsLength; i++) {
    const { witnessUtxo } = tx.getInput(i);
    const mine = USER_SCRIPTS.includes(hex(witnessUtxo!.script));
    if (!mine) {
      serviceIn += witnessUtxo!.amount;
      continue;
    }
    userIn += witnessUtxo!.amount;
    userWeight += 41 * 4 + (witnessUtxo!.script.length === 34 ? 66 : 108);
  }
  let change = 0n;
  const foreign: number[] = [];
  for (let i = 0; i < tx.outputsLength; i++) {
    const { script, amount } = tx.getOutput(i);
    userWeight += (8 + 1 + script!.length) * 4;
    if (i === 0) continue;
    if (USER_SCRIPTS.includes(hex(script!))) change += amount!;
    else foreign.push(i);
  }
  const htlc = tx.getOutput(0);
  return {
    htlcScript: hex(htlc.script!),
    htlcLots: htlc.amount!,
    foreign,
    userPaysLots: userIn - change,
    serviceIn,
    userVsize: BigInt(Math.ceil(userWeight / 4)),
  };
}

/** Sign as the user; on acceptance, the facts the oracle checks. */
async function signAndRead(deposit: Deposit, policy?: HtlcPolicyParameters) {
  const { psbt, verified } = await signHtlcPsbt({ ecc, ...deposit, userPublicKey, signer: userKey, policy });
  return { psbt, verified, facts: readWithScure(psbt) };
}

/** The oracle: the HTLC locks the quote, nothing leaves to anyone else, the user's fee share is within the caps. */
function assertUserPaysOnlyAmountAndFee(
  facts: ReturnType<typeof readWithScure>,
  quoted: bigint,
  policy: HtlcPolicyParameters = {},
): void {
  const caps = {
    maxFeeLots: policy.maxFeeLots ?? DEFAULT_HTLC_POLICY.maxFeeLots,
    maxFeeBps: policy.maxFeeBps ?? DEFAULT_HTLC_POLICY.maxFeeBps,
    maxFeeRateSatPerVbyte: policy.maxFeeRateSatPerVbyte ?? DEFAULT_HTLC_POLICY.maxFeeRateSatPerVbyte,
  };
  expect(facts.htlcScript).toBe(HTLC_SCRIPT);
  expect(facts.htlcLots).toBe(quoted);
  expect(facts.foreign).toEqual([]);
  const userFee = facts.userPaysLots - quoted;
  expect(userFee <= caps.maxFeeLots).toBe(true);
  expect(userFee * 10_000n <= quoted * BigInt(caps.maxFeeBps)).toBe(true);
  expect(userFee <= caps.maxFeeRateSatPerVbyte * facts.userVsize).toBe(true);
}

describe("accepted deposits cost the user exactly the amount plus a capped fee (read by @scure/btc-signer)", () => {
  const honest: [string, DepositOptions][] = [
    ["P2TR + P2WPKH coins, P2TR change", {}],
    [
      "one P2WPKH coin, P2WPKH change",
      {
        inputs: [{ kind: "p2wpkh", value: 110_000n }],
        outputs: [{ script: p2wpkhOf(userKey), value: 9_000n }],
      },
    ],
    ["no change (the dust went to the fee)", { inputs: [{ kind: "p2tr", value: 100_500n }], outputs: [] }],
    [
      "change at the dust limit",
      {
        inputs: [{ kind: "p2tr", value: 101_330n }],
        outputs: [{ script: p2trOf(userKey), value: 330n }],
      },
    ],
  ];
  for (const [name, options] of honest) {
    it(name, async () => {
      const deposit = buildDeposit(options);
      const { psbt, facts } = await signAndRead(deposit);
      assertUserPaysOnlyAmountAndFee(facts, AMOUNT);
      const txHex = Psbt.fromBase64(psbt).extractTransaction().toHex();
      expect(runInterpreter({ txHex, prevouts: deposit.prevouts }).every((v) => v === null)).toBe(true);
    });
  }

  it("a service coin that pays part of the fee lowers what the user pays (sponsorship), never raises it", async () => {
    const deposit = buildDeposit({
      inputs: [
        { kind: "p2tr", value: 100_000n },
        { kind: "p2tr", value: 5_000n, owner: strangerKey },
      ],
      listed: [0],
      outputs: [{ script: p2trOf(userKey), value: 4_500n }],
    });
    const { facts } = await signAndRead(deposit);
    expect(facts.serviceIn).toBe(5_000n);
    // The user's coin of 100,000 sat pays the 100,000-sat HTLC and gets 4,500 sat back: the service paid the fee.
    expect(facts.userPaysLots).toBe(95_500n);
    assertUserPaysOnlyAmountAndFee(facts, AMOUNT);
  });
});

describe("tampered deposits are refused with a code before the key is used", () => {
  const stranger = p2trOf(strangerKey);
  const opReturn = Uint8Array.from([0x6a, 0x04, 0xde, 0xad, 0xbe, 0xef]);
  const htlc = buildDeposit().htlcScript;
  const shapes: [string, () => Deposit, string, HtlcPolicyParameters?][] = [
    [
      "an extra output to a stranger",
      () =>
        buildDeposit({
          outputs: [
            { script: p2trOf(userKey), value: 8_000n },
            { script: stranger, value: 1_000n },
          ],
        }),
      "BTC_OUTPUT_NOT_USERS",
    ],
    [
      "the HTLC duplicated (the user would lock the amount twice)",
      () =>
        buildDeposit({
          inputs: [{ kind: "p2tr", value: 210_000n }],
          outputs: [
            { script: htlc, value: AMOUNT },
            { script: p2trOf(userKey), value: 9_000n },
          ],
        }),
      "BTC_OUTPUT_NOT_USERS",
    ],
    [
      "the change duplicated",
      () =>
        buildDeposit({
          inputs: [{ kind: "p2tr", value: 119_000n }],
          outputs: [
            { script: p2trOf(userKey), value: 9_000n },
            { script: p2trOf(userKey), value: 9_000n },
          ],
        }),
      "BTC_CHANGE_SPLIT",
    ],
    [
      "an OP_RETURN of 0 sat",
      () =>
        buildDeposit({
          outputs: [
            { script: p2trOf(userKey), value: 9_000n },
            { script: opReturn, value: 0n },
          ],
        }),
      "BTC_OUTPUT_NOT_USERS",
    ],
    [
      "an OP_RETURN burning 1,000 sat",
      () =>
        buildDeposit({
          outputs: [
            { script: p2trOf(userKey), value: 8_000n },
            { script: opReturn, value: 1_000n },
          ],
        }),
      "BTC_OUTPUT_NOT_USERS",
    ],
    [
      "the change replaced by an OP_RETURN",
      () => buildDeposit({ outputs: [{ script: opReturn, value: 9_000n }] }),
      "BTC_OUTPUT_NOT_USERS",
    ],
    [
      "P2TR change below 330 sat",
      () =>
        buildDeposit({
          inputs: [{ kind: "p2tr", value: 101_329n }],
          outputs: [{ script: p2trOf(userKey), value: 329n }],
        }),
      "BTC_OUTPUT_DUST",
    ],
    [
      "P2WPKH change below 294 sat",
      () =>
        buildDeposit({
          inputs: [{ kind: "p2wpkh", value: 101_293n }],
          outputs: [{ script: p2wpkhOf(userKey), value: 293n }],
        }),
      "BTC_OUTPUT_DUST",
    ],
    ["the HTLC one sat short", () => buildDeposit({ htlcValue: AMOUNT - 1n }), "BTC_HTLC_AMOUNT_MISMATCH"],
    ["the HTLC one sat over", () => buildDeposit({ htlcValue: AMOUNT + 1n }), "BTC_HTLC_AMOUNT_MISMATCH"],
    [
      "HTLC and change swapped",
      () =>
        tamper(buildDeposit(), (psbt, tx) => {
          tx.outs.reverse();
          psbt.data.outputs.reverse();
        }),
      "BTC_PSBT_FIELD_NOT_ALLOWED",
    ],
    ...[0x02, 0x03, 0x04, 0x80, 0x81, 0x82, 0x83].map((sighashType): [string, () => Deposit, string] => [
      `a P2TR input asking for sighash 0x${sighashType.toString(16)}`,
      () => buildDeposit({ inputs: [{ kind: "p2tr", value: 110_000n, sighashType }] }),
      "BTC_SIGHASH_NOT_ALLOWED",
    ]),
    ...[0x00, 0x02, 0x03, 0x81, 0x82, 0x83].map((sighashType): [string, () => Deposit, string] => [
      `a P2WPKH input asking for sighash 0x${sighashType.toString(16)}`,
      // Set directly: bitcoinjs' updater will not add a sighash type of 0 to an input.
      () =>
        tamper(buildDeposit({ inputs: [{ kind: "p2wpkh", value: 110_000n }] }), (psbt) => {
          psbt.data.inputs[0]!.sighashType = sighashType;
        }),
      "BTC_SIGHASH_NOT_ALLOWED",
    ]),
    [
      "a previous transaction (nonWitnessUtxo) of another coin",
      () =>
        tamper(buildDeposit({ inputs: [{ kind: "p2wpkh", value: 110_000n, nonWitness: true }] }), (psbt) => {
          const other = Transaction.fromBuffer(psbt.data.inputs[0]!.nonWitnessUtxo!);
          other.locktime = 1;
          psbt.data.inputs[0]!.nonWitnessUtxo = other.toBuffer();
        }),
      "BTC_UTXO_MISMATCH",
    ],
    [
      "witnessUtxo stating less than the previous transaction holds (a hidden fee)",
      () =>
        buildDeposit({
          inputs: [
            { kind: "p2wpkh", value: 60_000n, nonWitness: true, claimedValue: 50_000n },
            { kind: "p2wpkh", value: 50_000n, nonWitness: true },
          ],
          outputs: [],
        }),
      "BTC_UTXO_MISMATCH",
    ],
    [
      "witnessUtxo stating more than the previous transaction holds",
      () =>
        buildDeposit({
          inputs: [{ kind: "p2tr", value: 100_000n, nonWitness: true, claimedValue: 110_000n }],
        }),
      "BTC_UTXO_MISMATCH",
    ],
    [
      "witnessUtxo naming another script than the previous transaction's output",
      () =>
        tamper(buildDeposit({ inputs: [{ kind: "p2wpkh", value: 110_000n, nonWitness: true }] }), (psbt) => {
          psbt.data.inputs[0]!.witnessUtxo = { script: p2trOf(userKey), value: 110_000n };
        }),
      "BTC_UTXO_MISMATCH",
    ],
    [
      "P2WPKH coins only, one without its previous transaction",
      () =>
        buildDeposit({
          inputs: [
            { kind: "p2wpkh", value: 60_000n, nonWitness: true },
            { kind: "p2wpkh", value: 50_000n },
          ],
        }),
      "BTC_NON_WITNESS_UTXO_REQUIRED",
    ],
    [
      "a service coin spent by the user's own P2WPKH script (unlisted)",
      () =>
        buildDeposit({
          inputs: [
            { kind: "p2tr", value: 60_000n },
            { kind: "p2wpkh", value: 50_000n },
          ],
          listed: [0],
        }),
      "BTC_INPUT_NOT_LISTED_SIGNED",
    ],
  ];
  shapes.push([
    "the same coin spent twice (its value counted twice; bitcoinjs' parser refuses it, as consensus does)",
    () =>
      tamper(
        buildDeposit({
          inputs: [
            { kind: "p2tr", value: 60_000n },
            { kind: "p2tr", value: 50_000n },
          ],
        }),
        (psbt, tx) => {
          tx.ins[1]!.hash = tx.ins[0]!.hash;
          tx.ins[1]!.index = tx.ins[0]!.index;
          psbt.data.inputs[1]!.witnessUtxo = psbt.data.inputs[0]!.witnessUtxo!;
        },
      ),
    "BTC_PSBT_INVALID",
  ]);
  for (const [name, build, code, policy] of shapes) {
    it(`${name}: ${code}`, async () => {
      expect(await attempt(build(), policy)).toEqual({ code, uses: 0 });
    });
  }
});

describe("service coins cannot make the user pay for them", () => {
  /**
   * The user's P2TR coin pays a 1,000,000-sat HTLC; the service adds `count` unlisted coins of 330 sat each (its
   * dust, uneconomic to spend alone) and sets the change so that the whole fee is `fee`.
   */
  function withServiceDust(args: { count: number; fee: bigint }): Deposit {
    const amount = 1_000_000n;
    const coin = 1_100_000n;
    const dust = 330n * BigInt(args.count);
    const deposit = buildDeposit({
      inputs: [
        { kind: "p2tr", value: coin },
        ...Array.from({ length: args.count }, () => ({
          kind: "p2tr" as const,
          value: 330n,
          owner: strangerKey,
        })),
      ],
      listed: [0],
      htlcValue: amount,
      outputs: [{ script: p2trOf(userKey), value: coin + dust - amount - args.fee }],
    });
    return { ...deposit, quote: { sourceAmountLots: amount } };
  }
  const tight: HtlcPolicyParameters = { maxFeeRateSatPerVbyte: 20n };

  it("refuses a fee within the per-vbyte cap only because the service's own coins were counted in the size", async () => {
    // The user's part (overhead, one P2TR coin, HTLC and change) is about 154 vB: 20 sat/vB allows 3,080 sat.
    // Ten service coins add 575 vB, so 14,000 sat passes the cap on the whole size, while the service's coins
    // bring 3,300 sat: the user would pay 10,700 sat, 69 sat per vbyte of its own transaction.
    const deposit = withServiceDust({ count: 10, fee: 14_000n });
    expect(await attempt(deposit, tight)).toEqual({ code: "BTC_FEE_TOO_HIGH", uses: 0 });
  });

  it("accepts the same shape when the user's share stays within the cap on its own part", async () => {
    const deposit = withServiceDust({ count: 10, fee: 6_000n });
    const { facts } = await signAndRead(deposit, tight);
    // 6,000 sat of fee, 3,300 of it from the service's coins: the user pays 2,700 sat, under 20 x 154 vB.
    expect(facts.userPaysLots - 1_000_000n).toBe(2_700n);
    assertUserPaysOnlyAmountAndFee(facts, 1_000_000n, tight);
  });

  it("a service coin stated below its real value cannot be mined: the user's Taproot signature commits to it", async () => {
    const deposit = buildDeposit({
      inputs: [
        { kind: "p2tr", value: 100_000n },
        { kind: "p2wpkh", value: 50_000n, owner: strangerKey, claimedValue: 10_000n },
      ],
      listed: [0],
      outputs: [{ script: p2trOf(userKey), value: 9_000n }],
    });
    const { psbt } = await signAndRead(deposit);
    const signed = Psbt.fromBase64(psbt);
    signed.signInput(1, strangerKey).finalizeInput(1);
    const txHex = signed.extractTransaction(true).toHex();
    // bitcore with the real prevouts (50,000 sat): the user's signature covered the 10,000 the PSBT stated.
    const verdicts = runInterpreter({ txHex, prevouts: deposit.prevouts });
    expect(verdicts[0]).not.toBeNull();
  });
});
