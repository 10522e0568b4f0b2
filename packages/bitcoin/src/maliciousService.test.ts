// The Bitcoin signer attacked as a malicious service would: payloads, each refused with its code before the user's key is used, and the members of their classes.
import { isSwapIntentError } from "@swapintent/client";
import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { crypto, opcodes, Psbt, payments, script, Transaction } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { attempt, tamper } from "../test/attempt.js";
import {
  buildDeposit,
  type Deposit,
  hex,
  p2trOf,
  p2wpkhOf,
  spySigner,
  strangerKey,
  userKey,
  xOnly,
} from "../test/fixtures.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import { signHtlcRefund } from "./signHtlcRefund.js";
import type { HtlcPolicyParameters, PsbtWalletSigner } from "./types.js";

const userPublicKey = hex(userKey.publicKey);

/** One user P2TR coin: HTLC 100,000 + change 9,000, fee 1,000. */
const single = () =>
  buildDeposit({
    inputs: [{ kind: "p2tr", value: 110_000n }],
    outputs: [{ script: p2trOf(userKey), value: 9_000n }],
  });

describe("deposits nodes would not relay, but a miner would still mine", () => {
  it.each([0, 3, 4, 0x7fffffff, 0xffffffff])("refuses transaction version %i", async (version) => {
    const deposit = tamper(single(), (_psbt, tx) => {
      tx.version = version;
    });
    expect(await attempt(deposit)).toEqual({ code: "BTC_TX_NOT_STANDARD", uses: 0 });
  });

  it("accepts versions 1 and 2", async () => {
    for (const version of [1, 2]) {
      const deposit = tamper(single(), (_psbt, tx) => {
        tx.version = version;
      });
      expect((await attempt(deposit)).code).toBe("ACCEPTED");
    }
  });

  it("a version-0 deposit is valid by consensus (bitcore's interpreter): the service could still have it mined", () => {
    const deposit = tamper(single(), (_psbt, tx) => {
      tx.version = 0;
    });
    const psbt = Psbt.fromBase64(deposit.psbt);
    psbt.signInput(0, userKey.tweak(crypto.taggedHash("TapTweak", xOnly(userKey))));
    psbt.finalizeAllInputs();
    const tx = psbt.extractTransaction();
    expect(tx.version).toBe(0);
    expect(runInterpreter({ txHex: tx.toHex(), prevouts: deposit.prevouts })).toEqual([null]);
  });

  /** The user's P2TR coin plus `count` unlisted P2WSH service coins of 100 sat (each 41 bytes, 3 WU estimated). */
  const heavy = (count: number) =>
    tamper(single(), (psbt) => {
      const serviceScript = payments.p2wsh({ redeem: { output: Uint8Array.of(0x51) } }).output!;
      // Written into the transaction and the input maps directly (psbt.addInput re-checks every input each time).
      const tx = (psbt.data.globalMap.unsignedTx as unknown as { tx: Transaction }).tx;
      for (let i = 0; i < count; i++) {
        const hash = new Uint8Array(32);
        new DataView(hash.buffer).setUint32(0, i + 1);
        tx.addInput(hash, 0);
        psbt.data.inputs.push({ witnessUtxo: { script: serviceScript, value: 100n } } as never);
      }
    });
  const generous = { maxFeeLots: 1_000_000n, maxFeeBps: 1_000_000 };

  it("refuses a deposit above 400,000 weight units (MAX_STANDARD_TX_WEIGHT), accepts one below", async () => {
    expect(await attempt(heavy(2_450), generous)).toEqual({ code: "BTC_TX_NOT_STANDARD", uses: 0 });
    expect((await attempt(heavy(2_380), generous)).code).toBe("ACCEPTED");
  });
});

describe("the user's change split into outputs worth less than it costs to spend them", () => {
  it("refuses two or more change outputs, of either type, whatever their values", async () => {
    for (const outputs of [
      [p2trOf(userKey), p2trOf(userKey)],
      [p2trOf(userKey), p2wpkhOf(userKey)],
      Array.from({ length: 27 }, () => p2trOf(userKey)),
    ]) {
      const each = 9_000n / BigInt(outputs.length);
      // Coins of both types, so that change of either type is the user's (BTC_CHANGE_SCRIPT_MISMATCH otherwise).
      const deposit = buildDeposit({
        inputs: [
          { kind: "p2tr", value: 60_000n },
          { kind: "p2wpkh", value: 50_000n },
        ],
        outputs: outputs.map((script) => ({ script, value: each })),
      });
      expect(await attempt(deposit)).toEqual({ code: "BTC_CHANGE_SPLIT", uses: 0 });
    }
  });

  it("accepts one change output, or none", async () => {
    expect((await attempt(single())).code).toBe("ACCEPTED");
    const noChange = buildDeposit({ inputs: [{ kind: "p2tr", value: 101_000n }], outputs: [] });
    expect((await attempt(noChange)).code).toBe("ACCEPTED");
  });
});

describe("change to the user's key, but to the script type the wallet does not watch", () => {
  const changeTo = (script: Uint8Array) =>
    buildDeposit({ inputs: [{ kind: "p2tr", value: 110_000n }], outputs: [{ script, value: 9_000n }] });

  it("refuses P2WPKH change for a P2TR wallet (and P2TR change for a P2WPKH wallet) that pins policy.changeScriptType", async () => {
    expect(await attempt(changeTo(p2wpkhOf(userKey)), { changeScriptType: "p2tr" })).toEqual({
      code: "BTC_CHANGE_SCRIPT_MISMATCH",
      uses: 0,
    });
    expect(await attempt(changeTo(p2trOf(userKey)), { changeScriptType: "p2wpkh" })).toEqual({
      code: "BTC_CHANGE_SCRIPT_MISMATCH",
      uses: 0,
    });
  });

  it("accepts change of the pinned type; unpinned, of the coins' type (src/changeType.test.ts)", async () => {
    expect((await attempt(changeTo(p2trOf(userKey)), { changeScriptType: "p2tr" })).code).toBe("ACCEPTED");
    expect((await attempt(changeTo(p2trOf(userKey)))).code).toBe("ACCEPTED");
    expect(await attempt(changeTo(p2wpkhOf(userKey)))).toEqual({
      code: "BTC_CHANGE_SCRIPT_MISMATCH",
      uses: 0,
    });
  });

  it("refuses a changeScriptType that is not p2tr or p2wpkh", async () => {
    const policy = { changeScriptType: "p2sh" } as unknown as HtlcPolicyParameters;
    expect(await attempt(single(), policy)).toEqual({ code: "BTC_POLICY_INVALID", uses: 0 });
  });
});

describe("a time locktime is checked against the chain's median time past, not the clock", () => {
  const withLocktime = (secondsAgo: number) =>
    tamper(single(), (_psbt, tx) => {
      tx.ins[0]!.sequence = 0xfffffffd;
      tx.locktime = Math.floor(Date.now() / 1000) - secondsAgo;
    });

  it("refuses a time locktime less than two hours ago (median time past lags the clock by about an hour)", async () => {
    for (const ago of [-60, 0, 60, 3_600, 7_000]) {
      expect(await attempt(withLocktime(ago))).toEqual({ code: "BTC_TX_TIMELOCKED", uses: 0 });
    }
  });

  it("accepts one more than two hours ago", async () => {
    expect((await attempt(withLocktime(7_300))).code).toBe("ACCEPTED");
  });
});

describe("an unlisted input that names the user's key in any field", () => {
  /** The user's P2TR coin (listed) and a service coin (unlisted) whose prevout and PSBT fields `edit` sets. */
  const withServiceCoin = (edit: (input: Psbt["data"]["inputs"][number]) => void) =>
    tamper(
      buildDeposit({
        inputs: [
          { kind: "p2tr", value: 60_000n },
          { kind: "p2wpkh", value: 50_000n, owner: strangerKey },
        ],
        listed: [0],
      }),
      (psbt) => edit(psbt.data.inputs[1]!),
    );
  const multisig = payments.p2wsh({
    redeem: payments.p2ms({ m: 1, pubkeys: [userKey.publicKey, strangerKey.publicKey] }),
  });
  const userLeaf = script.compile([xOnly(userKey), opcodes.OP_CHECKSIG]);
  const leafTree = payments.p2tr({
    internalPubkey: xOnly(strangerKey),
    scriptTree: { output: userLeaf },
    redeem: { output: userLeaf },
  });
  const hashScript = payments.p2wsh({
    redeem: {
      output: script.compile([
        opcodes.OP_DUP,
        opcodes.OP_HASH160,
        crypto.hash160(userKey.publicKey),
        opcodes.OP_EQUALVERIFY,
        opcodes.OP_CHECKSIG,
      ]),
    },
  });

  it.each<[string, (input: Psbt["data"]["inputs"][number]) => void]>([
    [
      "a user+service multisig witnessScript, SIGHASH_NONE|ANYONECANPAY",
      (input) => {
        input.witnessUtxo = { script: multisig.output!, value: 50_000n };
        input.witnessScript = multisig.redeem!.output!;
        input.sighashType = 0x82;
      },
    ],
    [
      "a tapscript leaf with the user's x-only key, SIGHASH_SINGLE|ANYONECANPAY",
      (input) => {
        input.witnessUtxo = { script: leafTree.output!, value: 50_000n };
        input.tapLeafScript = [
          { leafVersion: 0xc0, script: userLeaf, controlBlock: leafTree.witness!.at(-1)! },
        ];
        input.sighashType = 0x83;
      },
    ],
    [
      "a witnessScript locked to the user's key hash",
      (input) => {
        input.witnessUtxo = { script: hashScript.output!, value: 50_000n };
        input.witnessScript = hashScript.redeem!.output!;
      },
    ],
    [
      "a P2TR prevout whose output key is the user's untweaked key",
      (input) => {
        input.witnessUtxo = { script: Uint8Array.from([0x51, 0x20, ...xOnly(userKey)]), value: 50_000n };
      },
    ],
    [
      "a tapScriptSig by the user's key",
      (input) => {
        input.tapScriptSig = [
          { pubkey: xOnly(userKey), leafHash: new Uint8Array(32).fill(1), signature: new Uint8Array(64) },
        ];
      },
    ],
  ])("refuses %s", async (_name, edit) => {
    expect(await attempt(withServiceCoin(edit))).toEqual({ code: "BTC_INPUT_NOT_LISTED_SIGNED", uses: 0 });
  });

  it("what the refused payload allows (bitcore's interpreter): a user signature with SIGHASH_NONE|ANYONECANPAY on a user+service 2-of-2 spends it in a transaction paying only the service", () => {
    const twoOfTwo = payments.p2wsh({
      redeem: payments.p2ms({ m: 2, pubkeys: [userKey.publicKey, strangerKey.publicKey] }),
    });
    const coin = { script: twoOfTwo.output!, value: 50_000n };
    const outpoint = { hash: new Uint8Array(32).fill(9), index: 0 };
    // A wallet that signs every input it can, with the sighash the PSBT asks for, in the PSBT the service sent.
    const offered = new Psbt();
    offered.setVersion(2);
    offered.addInput({
      ...outpoint,
      witnessUtxo: coin,
      witnessScript: twoOfTwo.redeem!.output!,
      sighashType: 0x82,
    });
    offered.addOutput({ script: p2trOf(userKey), value: 40_000n });
    offered.signInput(0, userKey, [0x82]);
    const userSignature = offered.data.inputs[0]!.partialSig![0]!.signature;
    // The service's own transaction: the same coin, every satoshi to the service.
    const sweep = new Psbt();
    sweep.setVersion(2);
    sweep.addInput({ ...outpoint, witnessUtxo: coin, witnessScript: twoOfTwo.redeem!.output! });
    sweep.addOutput({ script: p2wpkhOf(strangerKey), value: 49_000n });
    sweep.signInput(0, strangerKey);
    const serviceSignature = sweep.data.inputs[0]!.partialSig![0]!.signature;
    const stack = [new Uint8Array(), userSignature, serviceSignature, twoOfTwo.redeem!.output!];
    sweep.finalizeInput(0, () => ({
      finalScriptSig: undefined,
      finalScriptWitness: Uint8Array.from([stack.length, ...stack.flatMap((item) => [item.length, ...item])]),
    }));
    const txHex = sweep.extractTransaction(true).toHex();
    expect(runInterpreter({ txHex, prevouts: [coin] })).toEqual([null]);
  });

  it("refuses unknown and proprietary fields on an unlisted input (their meaning to a wallet is unknown)", async () => {
    for (const key of [Uint8Array.of(0xfc, 0x01), Uint8Array.of(0x42)]) {
      const deposit = withServiceCoin((input) => {
        input.unknownKeyVals = [{ key, value: Uint8Array.of(1) }];
      });
      expect(await attempt(deposit)).toEqual({ code: "BTC_PSBT_FIELD_NOT_ALLOWED", uses: 0 });
    }
  });

  it("still accepts a service coin whose fields name only the service's keys", async () => {
    const other = payments.p2wsh({ redeem: payments.p2ms({ m: 1, pubkeys: [strangerKey.publicKey] }) });
    const deposit = withServiceCoin((input) => {
      input.witnessUtxo = { script: other.output!, value: 50_000n };
      input.witnessScript = other.redeem!.output!;
      input.sighashType = 0x82;
    });
    expect((await attempt(deposit)).code).toBe("ACCEPTED");
  });

  it("a wallet's signPsbt sees only UTXO data on unlisted inputs: no derivation path, sighash or script to sign by", async () => {
    // The user's other coin (another key of the same wallet), offered with its derivation path and SIGHASH_NONE.
    const otherKey = strangerKey;
    const deposit = withServiceCoin((input) => {
      input.bip32Derivation = [
        { masterFingerprint: Uint8Array.of(1, 2, 3, 4), path: "m/84'/0'/0'/0/7", pubkey: otherKey.publicKey },
      ];
      input.sighashType = 0x82;
    });
    let seen: Psbt | undefined;
    const wallet: PsbtWalletSigner = {
      publicKey: userKey.publicKey,
      signPsbt: async ({ psbt: base64, inputs }) => {
        seen = Psbt.fromBase64(base64);
        const psbt = Psbt.fromBase64(base64);
        // A wallet that signs every input it recognizes, with the sighash the PSBT asks for.
        psbt.data.inputs.forEach((input, index) => {
          if (input.bip32Derivation?.some((d) => hex(d.pubkey) === hex(otherKey.publicKey)))
            psbt.signInput(index, otherKey, [input.sighashType ?? 1]);
        });
        for (const index of inputs)
          psbt.signInput(index, userKey.tweak(crypto.taggedHash("TapTweak", xOnly(userKey))));
        return psbt.toBase64();
      },
    };
    const { psbt } = await signHtlcPsbt({ ecc, ...deposit, userPublicKey, signer: wallet });
    expect(
      Object.keys(seen!.data.inputs[1]!)
        .filter((k) => k !== "unknownKeyVals")
        .sort(),
    ).toEqual(["witnessUtxo"]);
    expect(Psbt.fromBase64(psbt).data.inputs[1]!.partialSig).toBeUndefined();
  });
});

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
