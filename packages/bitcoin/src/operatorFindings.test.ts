// What a service operator who wants the user's coins could try: amounts the chain refuses, a key signer asked again after the caller aborted, and key bytes shared between calls.
import { createRequire } from "node:module";
import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { crypto, Psbt, Transaction } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { attempt, tamper } from "../test/attempt.js";
import {
  AMOUNT,
  buildDeposit,
  type Deposit,
  hex,
  p2trOf,
  resolverKey,
  strangerKey,
  userKey,
} from "../test/fixtures.js";
import { isBitcoinError } from "./errors.js";
import { getUserScripts } from "./getUserScripts.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import type { HtlcPolicyParameters, KeySigner } from "./types.js";
import { verifyHtlcPsbt } from "./verifyHtlcPsbt/verifyHtlcPsbt.js";

// bitcore-lib is the testing package's dependency: its Transaction.verify() runs consensus's CheckTransaction.
const bitcore = createRequire(new URL("../node_modules/@swapintent/testing/package.json", import.meta.url))(
  "bitcore-lib",
) as { Transaction: new (hex: string) => { verify(): true | string } };

/** 21,000,000 BTC in satoshis: consensus refuses any amount, or sum of amounts, above it (MoneyRange). */
const MAX_MONEY = 2_100_000_000_000_000n;
const userPublicKey = hex(userKey.publicKey);
const getTapTweak = () => crypto.taggedHash("TapTweak", userKey.publicKey.slice(1));

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

  it("refuses a service coin stated above MAX_MONEY whose value comes back as change (accepted before): bitcore's CheckTransaction refuses that transaction", async () => {
    const serviceValue = MAX_MONEY + 100_000n;
    const deposit = withServiceCoin({ serviceValue, changeValue: serviceValue + 60_000n - AMOUNT - fee });
    expect(new bitcore.Transaction(unsignedTxHex(deposit)).verify()).toBe(
      "transaction txout 1 greater than MAX_MONEY",
    );
    expect(await attempt(deposit)).toEqual({ code: "BTC_AMOUNT_OUT_OF_RANGE", uses: 0 });
  });

  it("refuses outputs that each fit but sum above MAX_MONEY (accepted before): bitcore refuses the total", async () => {
    const deposit = withServiceCoin({
      serviceValue: MAX_MONEY + AMOUNT + fee - 60_000n,
      changeValue: MAX_MONEY,
    });
    expect(new bitcore.Transaction(unsignedTxHex(deposit)).verify()).toBe(
      "transaction txout 1 total output greater than MAX_MONEY",
    );
    expect(await attempt(deposit)).toEqual({ code: "BTC_AMOUNT_OUT_OF_RANGE", uses: 0 });
  });

  it("refuses inputs that each fit but sum above MAX_MONEY, with every output and the fee in range (accepted before)", async () => {
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

describe("a key signer is never asked again once the caller aborted", () => {
  /** The user's key behind a signer whose first signature waits until `release`; counts every request. */
  function gatedSigner() {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const counts = { sign: 0, signSchnorr: 0 };
    const tweaked = userKey.tweak(Uint8Array.from(getTapTweak()));
    const signer: KeySigner = {
      publicKey: userKey.publicKey,
      sign: async (hash) => {
        counts.sign++;
        await gate;
        return userKey.sign(hash);
      },
      // An external signer: no `tweak`, its Schnorr signatures are made with the BIP-86-tweaked key.
      signSchnorr: async (hash) => {
        counts.signSchnorr++;
        await gate;
        return tweaked.signSchnorr(hash);
      },
    };
    return { signer, counts, release };
  }

  for (const kinds of [
    ["p2wpkh", "p2wpkh"],
    ["p2tr", "p2wpkh"],
    ["p2wpkh", "p2tr"],
  ] as const) {
    it(`${kinds.join(" + ")}: aborted during the first signature, the second is never requested`, async () => {
      const deposit = buildDeposit({
        inputs: kinds.map((kind, i) => ({ kind, value: 60_000n - BigInt(i) * 10_000n, nonWitness: true })),
      });
      const { signer, counts, release } = gatedSigner();
      const controller = new AbortController();
      const pending = signHtlcPsbt({ ecc, ...deposit, userPublicKey, signer, signal: controller.signal });
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(counts.sign + counts.signSchnorr).toBe(1);
      controller.abort();
      const outcome = await pending.then(
        () => "ACCEPTED",
        (error: unknown) => (isBitcoinError(error) ? error.code : error),
      );
      expect(outcome).toBe("BTC_SIGNING_ABORTED");
      // The signer answers after the abort: nothing more may be asked of it.
      release();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(counts.sign + counts.signSchnorr).toBe(1);
    });
  }

  it("without an abort the same signer signs both inputs and bitcore's interpreter accepts the deposit", async () => {
    const deposit = buildDeposit();
    const { signer, counts, release } = gatedSigner();
    release();
    const { psbt } = await signHtlcPsbt({
      ecc,
      ...deposit,
      userPublicKey,
      signer,
      signal: new AbortController().signal,
    });
    expect(counts).toEqual({ sign: 1, signSchnorr: 1 });
    const txHex = Psbt.fromBase64(psbt).extractTransaction().toHex();
    expect(runInterpreter({ txHex, prevouts: deposit.prevouts })).toEqual([null, null]);
  });
});

describe("key bytes are never shared between calls", () => {
  it("a caller that reuses the key array it passed (or wipes the returned key) does not change the next call", async () => {
    const deposit = buildDeposit();
    const passed = Uint8Array.from(userKey.publicKey);
    const first = verifyHtlcPsbt({ ecc, ...deposit, userPublicKey: passed });
    // The caller wipes its buffers after use, or reuses them for another key.
    passed.set(strangerKey.publicKey);
    first.userPublicKey.fill(0);
    const { verified, psbt } = await signHtlcPsbt({ ecc, ...deposit, userPublicKey, signer: userKey });
    expect(hex(verified.userPublicKey)).toBe(userPublicKey);
    const txHex = Psbt.fromBase64(psbt).extractTransaction().toHex();
    expect(runInterpreter({ txHex, prevouts: deposit.prevouts })).toEqual([null, null]);
  });

  it("getUserScripts hands out its own copies: writing into one result leaves the next intact", () => {
    const a = getUserScripts({ ecc, publicKey: userPublicKey });
    const expected = {
      publicKey: hex(a.publicKey),
      xOnly: hex(a.xOnly),
      p2tr: hex(a.p2tr),
      p2wpkh: hex(a.p2wpkh),
    };
    for (const bytes of [a.publicKey, a.xOnly, a.p2tr, a.p2wpkh]) bytes.fill(0);
    const b = getUserScripts({ ecc, publicKey: userPublicKey });
    expect({
      publicKey: hex(b.publicKey),
      xOnly: hex(b.xOnly),
      p2tr: hex(b.p2tr),
      p2wpkh: hex(b.p2wpkh),
    }).toEqual(expected);
    expect(expected.p2tr).toBe(hex(p2trOf(userKey)));
  });
});

describe("an intent whose deadline has passed (Bitcoin knows no deadline)", () => {
  const withDeadline = (deadlineSecs: unknown): Deposit => {
    const deposit = buildDeposit();
    return { ...deposit, intent: { ...deposit.intent, deadlineSecs: deadlineSecs as number } };
  };

  it("refuses a deadline in the past before the key is used, though the deposit it would sign is valid on chain", async () => {
    const past = withDeadline(Math.floor(Date.now() / 1000) - 1);
    expect(await attempt(past)).toEqual({ code: "BTC_DEADLINE_PASSED", uses: 0 });
    // The same deposit signed for an open intent passes bitcore's interpreter: nothing on chain would have
    // stopped the deposit signed for the expired one either.
    const open = withDeadline(Math.floor(Date.now() / 1000) + 600);
    const { psbt } = await signHtlcPsbt({ ecc, ...open, userPublicKey, signer: userKey });
    const txHex = Psbt.fromBase64(psbt).extractTransaction().toHex();
    expect(runInterpreter({ txHex, prevouts: open.prevouts })).toEqual([null, null]);
  });

  it("refuses a deadline that is not a non-negative integer of seconds (null in details)", async () => {
    for (const deadlineSecs of [undefined, null, "2000000000", Number.NaN, -1, 1.5e9 + 0.5, 2n ** 60n]) {
      expect(await attempt(withDeadline(deadlineSecs))).toEqual({ code: "BTC_DEADLINE_PASSED", uses: 0 });
    }
    try {
      verifyHtlcPsbt({ ecc, ...withDeadline("soon"), userPublicKey });
      expect.unreachable();
    } catch (error) {
      if (!isBitcoinError(error, "BTC_DEADLINE_PASSED")) throw error;
      expect(error.details.deadlineSecs).toBeNull();
      expect(Math.abs(error.details.nowMs - Date.now())).toBeLessThan(60_000);
    }
  });

  it("reports the deadline and the clock it was compared with", () => {
    const deadlineSecs = Math.floor(Date.now() / 1000) - 3_600;
    try {
      verifyHtlcPsbt({ ecc, ...withDeadline(deadlineSecs), userPublicKey });
      expect.unreachable();
    } catch (error) {
      if (!isBitcoinError(error, "BTC_DEADLINE_PASSED")) throw error;
      expect(error.details.deadlineSecs).toBe(deadlineSecs);
      expect(error.details.nowMs).toBeGreaterThan(deadlineSecs * 1000);
    }
  });
});

describe("the caller's clock (nowMs)", () => {
  const deadlineSecs = 1_800_000_000; // 2027-01-15
  const deposit = (() => {
    const d = buildDeposit();
    return { ...d, intent: { ...d.intent, deadlineSecs } };
  })();

  it("compares the deadline with nowMs when given, not with Date.now()", async () => {
    const before = await attempt({ ...deposit, nowMs: deadlineSecs * 1000 - 1 });
    const at = await attempt({ ...deposit, nowMs: deadlineSecs * 1000 });
    expect(before).toEqual({ code: "ACCEPTED", uses: 2 });
    expect(at).toEqual({ code: "BTC_DEADLINE_PASSED", uses: 0 });
  });

  it("compares a time locktime with nowMs too (two hours of median-time-past margin)", async () => {
    const nowMs = deadlineSecs * 1000 - 60_000;
    const locked = (locktime: number) =>
      tamper(deposit, (_psbt, tx) => {
        tx.locktime = locktime;
        tx.ins[0]!.sequence = 0xfffffffd;
      });
    const nowSecs = Math.floor(nowMs / 1000);
    expect(await attempt({ ...locked(nowSecs - 7_200), nowMs })).toEqual({ code: "ACCEPTED", uses: 2 });
    expect(await attempt({ ...locked(nowSecs - 7_199), nowMs })).toEqual({
      code: "BTC_TX_TIMELOCKED",
      uses: 0,
    });
  });

  it("refuses a nowMs that is not a non-negative integer of milliseconds", async () => {
    for (const nowMs of [Number.NaN, -1, 1.5, Number.POSITIVE_INFINITY, "0"]) {
      expect(await attempt({ ...deposit, nowMs: nowMs as number })).toEqual({
        code: "BTC_POLICY_INVALID",
        uses: 0,
      });
    }
  });
});

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

  it("refuses 3,000 extra inputs for their weight, before it looks at what they spend", async () => {
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

describe("a policy field the policy does not have (a misspelled cap)", () => {
  const deposit = buildDeposit();

  it("refuses a misspelled fee cap (accepted before, with the default cap silently in force)", async () => {
    // Spelled right, the cap refuses this deposit's fee (about 5.6 sat/vB); misspelled, it was ignored.
    expect(await attempt(deposit, { maxFeeRateSatPerVbyte: 2n })).toEqual({
      code: "BTC_FEE_TOO_HIGH",
      uses: 0,
    });
    const misspelled = { maxFeeRateSatPerVByte: 2n } as HtlcPolicyParameters;
    expect(await attempt(deposit, misspelled)).toEqual({ code: "BTC_POLICY_INVALID", uses: 0 });
  });

  it("names the unknown fields, and refuses a policy that is not an object of known fields", () => {
    const cases: [unknown, string[]][] = [
      [{ maxFeeLots: 1_000n, maxfeelots: 1n, resolverKey: "02" }, ["maxfeelots", "resolverKey"]],
      [JSON.parse('{"__proto__": {"maxFeeLots": "1"}}'), ["__proto__"]],
      ["strict", ["0", "1", "2", "3", "4", "5"]],
    ];
    for (const [policy, fields] of cases) {
      let refused = false;
      try {
        verifyHtlcPsbt({ ecc, ...deposit, userPublicKey, policy: policy as HtlcPolicyParameters });
      } catch (error) {
        if (!isBitcoinError(error, "BTC_POLICY_INVALID")) throw error;
        refused = true;
        expect(error.details.policy).toEqual(fields);
      }
      expect(refused).toBe(true);
    }
  });

  it("still accepts every known field, and undefined for any of them", () => {
    const policy: Required<HtlcPolicyParameters> = {
      minCsvBlocks: 6,
      maxCsvBlocks: 1008,
      maxFeeLots: 50_000n,
      maxFeeRateSatPerVbyte: 200n,
      maxFeeBps: 1_000,
      minFeeRateSatPerVbyte: 1n,
      maxDeadlineSecs: 86_400,
      maxLockTimeHeight: 900_000,
      resolverPublicKey: hex(resolverKey.publicKey),
      changeScriptType: "p2tr",
    };
    expect(verifyHtlcPsbt({ ecc, ...deposit, userPublicKey, policy }).feeLots).toBe(1_000n);
    const undefinedFields = Object.fromEntries(Object.keys(policy).map((key) => [key, undefined]));
    expect(verifyHtlcPsbt({ ecc, ...deposit, userPublicKey, policy: undefinedFields }).feeLots).toBe(1_000n);
  });
});
