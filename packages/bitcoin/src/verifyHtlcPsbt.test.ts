import { isSwapIntentError } from "@swapintent/client";
import { Psbt, payments, Transaction } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import {
  AMOUNT,
  buildDeposit,
  type DepositOptions,
  hex,
  NUMS,
  p2trOf,
  p2wpkhOf,
  resolverKey,
  SECRET_HASH,
  strangerKey,
  userKey,
  xOnly,
} from "../test/fixtures.js";
import { verifyHtlcPsbt } from "./verifyHtlcPsbt/verifyHtlcPsbt.js";

const userPublicKey = hex(userKey.publicKey);

function codeOf(options: DepositOptions, mutate?: (d: ReturnType<typeof buildDeposit>) => void): string {
  const deposit = buildDeposit(options);
  mutate?.(deposit);
  try {
    verifyHtlcPsbt({ ecc, intent: deposit.intent, quote: deposit.quote, userPublicKey });
  } catch (error) {
    if (isSwapIntentError(error)) return error.code;
    throw error;
  }
  return "ACCEPTED";
}

describe("verifyHtlcPsbt", () => {
  it("accepts the documented deposit and reports the HTLC it found", () => {
    const deposit = buildDeposit();
    const verified = verifyHtlcPsbt({ ecc, intent: deposit.intent, quote: deposit.quote, userPublicKey });
    expect(verified.htlc.valueLots).toBe(AMOUNT);
    expect(verified.htlc.csvBlocks).toBe(144);
    expect(hex(verified.htlc.secretHash)).toBe(hex(SECRET_HASH));
    expect(hex(verified.htlc.resolverXOnly)).toBe(hex(xOnly(resolverKey)));
    expect(hex(verified.htlc.script)).toBe(hex(deposit.htlcScript));
    expect(verified.feeLots).toBe(60_000n + 50_000n - AMOUNT - 9_000n);
    expect(verified.inputs).toEqual([
      { index: 0, kind: "p2tr" },
      { index: 1, kind: "p2wpkh" },
    ]);
  });

  it("does not change the caller's PSBT string", () => {
    const deposit = buildDeposit();
    const before = deposit.intent.paramsToSign.psbt;
    verifyHtlcPsbt({ ecc, intent: deposit.intent, quote: deposit.quote, userPublicKey });
    expect(deposit.intent.paramsToSign.psbt).toBe(before);
  });

  it.each<[string, DepositOptions, string]>([
    [
      "an extra output to a stranger",
      {
        outputs: [
          { script: p2trOf(userKey), value: 4_000n },
          { script: p2wpkhOf(strangerKey), value: 5_000n },
        ],
      },
      "BTC_OUTPUT_NOT_USERS",
    ],
    [
      "change to a stranger",
      { outputs: [{ script: p2trOf(strangerKey), value: 9_000n }] },
      "BTC_OUTPUT_NOT_USERS",
    ],
    [
      "a short HTLC amount",
      { htlcValue: AMOUNT - 1n, outputs: [{ script: p2trOf(userKey), value: 9_001n }] },
      "BTC_HTLC_AMOUNT_MISMATCH",
    ],
    ["a wrong secret hash", { secretHash: new Uint8Array(32).fill(7) }, "BTC_HTLC_SECRET_HASH_MISMATCH"],
    [
      "a refund key that is not the user's",
      { refundKey: xOnly(strangerKey) },
      "BTC_HTLC_REFUND_KEY_MISMATCH",
    ],
    ["an overlong timelock", { csv: 5000 }, "BTC_HTLC_TIMELOCK_OUT_OF_BOUNDS"],
    ["a too short timelock", { csv: 2 }, "BTC_HTLC_TIMELOCK_OUT_OF_BOUNDS"],
    [
      "a fee over the cap",
      {
        inputs: [
          { kind: "p2tr", value: 60_000n },
          { kind: "p2wpkh", value: 150_000n },
        ],
      },
      "BTC_FEE_TOO_HIGH",
    ],
    [
      "outputs above the inputs",
      { outputs: [{ script: p2trOf(userKey), value: 20_000n }] },
      "BTC_FEE_INVALID",
    ],
    [
      "SIGHASH_NONE",
      {
        inputs: [
          { kind: "p2tr", value: 60_000n },
          { kind: "p2wpkh", value: 50_000n, sighashType: 0x02 },
        ],
      },
      "BTC_SIGHASH_NOT_ALLOWED",
    ],
    [
      "SIGHASH_SINGLE",
      {
        inputs: [
          { kind: "p2tr", value: 60_000n, sighashType: 0x03 },
          { kind: "p2wpkh", value: 50_000n },
        ],
      },
      "BTC_SIGHASH_NOT_ALLOWED",
    ],
    [
      "SIGHASH_ALL|ANYONECANPAY",
      {
        inputs: [
          { kind: "p2tr", value: 60_000n },
          { kind: "p2wpkh", value: 50_000n, sighashType: 0x81 },
        ],
      },
      "BTC_SIGHASH_NOT_ALLOWED",
    ],
    [
      "an unlisted input of the user's that a wallet would sign",
      { listed: [0] },
      "BTC_INPUT_NOT_LISTED_SIGNED",
    ],
    [
      "a foreign input listed",
      {
        inputs: [
          { kind: "p2tr", value: 60_000n },
          { kind: "p2wpkh", value: 50_000n, owner: strangerKey },
        ],
      },
      "BTC_INPUT_NOT_USERS",
    ],
    [
      "witnessUtxo disagreeing with nonWitnessUtxo",
      {
        inputs: [
          { kind: "p2tr", value: 60_000n },
          { kind: "p2wpkh", value: 50_000n, nonWitness: true, claimedValue: 40_000n },
        ],
      },
      "BTC_UTXO_MISMATCH",
    ],
    [
      "a non-HTLC script in output 0 (no tap tree)",
      { htlcScript: p2wpkhOf(strangerKey), htlcWithoutTapFields: true },
      "BTC_HTLC_MISSING",
    ],
    [
      "an output 0 script that is not the tap tree's output",
      { htlcScript: p2trOf(strangerKey) },
      "BTC_HTLC_SCRIPT_MISMATCH",
    ],
    [
      "a key-path-spendable HTLC (internal key not NUMS)",
      { internalKey: xOnly(resolverKey) },
      "BTC_HTLC_INTERNAL_KEY_MISMATCH",
    ],
    [
      "two P2WPKH inputs without their previous transactions (BIP-143 amount lies)",
      {
        inputs: [
          { kind: "p2wpkh", value: 60_000n },
          { kind: "p2wpkh", value: 50_000n, nonWitness: true },
        ],
      },
      "BTC_NON_WITNESS_UTXO_REQUIRED",
    ],
    [
      "a P2WPKH input beside an unlisted 'foreign' input whose script and amount nothing commits to",
      {
        inputs: [
          { kind: "p2wpkh", value: 60_000n, nonWitness: true },
          { kind: "p2wpkh", value: 50_000n, owner: strangerKey },
        ],
        listed: [0],
      },
      "BTC_NON_WITNESS_UTXO_REQUIRED",
    ],
    ["an input index out of range", { listed: [0, 1, 2] }, "BTC_INPUT_INDEX_INVALID"],
    ["a duplicated input index", { listed: [0, 0, 1] }, "BTC_INPUT_INDEX_INVALID"],
  ])("refuses %s", (_name, options, code) => {
    expect(codeOf(options)).toBe(code);
  });

  it("refuses tap-tree tricks: a hidden third leaf, a two-leaf tapTree for a three-leaf output, another leaf version", () => {
    const { claim, refund } = buildDeposit().leaves;
    const anyoneCanSpend = Uint8Array.of(0x51);
    const threeLeafOutput = payments.p2tr({
      internalPubkey: NUMS,
      scriptTree: [{ output: claim }, [{ output: refund }, { output: anyoneCanSpend }]],
    }).output!;
    const withTree =
      (leaves: { depth: number; leafVersion: number; script: Uint8Array }[], output?: Uint8Array) =>
      (d: ReturnType<typeof buildDeposit>) => {
        const psbt = Psbt.fromBase64(d.intent.paramsToSign.psbt);
        if (output) {
          // Rebuild the transaction with output 0 replaced (same value), keeping the PSBT fields.
          const tx = Transaction.fromBuffer(psbt.data.globalMap.unsignedTx.toBuffer());
          tx.outs[0]!.script = output;
          const rebuilt = new Psbt();
          rebuilt.setVersion(tx.version);
          tx.ins.forEach((input, i) => {
            rebuilt.addInput({ hash: input.hash, index: input.index, ...psbt.data.inputs[i]! });
          });
          for (const o of tx.outs) rebuilt.addOutput({ script: o.script, value: o.value });
          rebuilt.data.outputs[0]!.tapInternalKey = NUMS;
          rebuilt.data.outputs[0]!.tapTree = { leaves };
          (d.intent.paramsToSign as { psbt: string }).psbt = rebuilt.toBase64();
          return;
        }
        psbt.data.outputs[0]!.tapTree = { leaves };
        (d.intent.paramsToSign as { psbt: string }).psbt = psbt.toBase64();
      };
    const leaf = (script: Uint8Array, depth = 1, leafVersion = 0xc0) => ({ depth, leafVersion, script });
    expect(
      codeOf({}, withTree([leaf(claim), leaf(refund, 2), leaf(anyoneCanSpend, 2)], threeLeafOutput)),
    ).toBe("BTC_HTLC_SCRIPT_MISMATCH");
    expect(codeOf({}, withTree([leaf(claim), leaf(refund)], threeLeafOutput))).toBe(
      "BTC_HTLC_SCRIPT_MISMATCH",
    );
    expect(codeOf({}, withTree([leaf(claim, 1, 0xc2), leaf(refund)]))).toBe("BTC_HTLC_SCRIPT_MISMATCH");
  });

  it("refuses a P2TR input whose tapInternalKey is not the user's key", () => {
    expect(
      codeOf({}, (d) => {
        const psbt = Psbt.fromBase64(d.intent.paramsToSign.psbt);
        psbt.data.inputs[0]!.tapInternalKey = xOnly(strangerKey);
        (d.intent.paramsToSign as { psbt: string }).psbt = psbt.toBase64();
      }),
    ).toBe("BTC_INPUT_NOT_USERS");
  });

  it.each<[string, (p: Psbt) => void]>([
    ["a redeemScript on a P2WPKH input", (p) => p.updateInput(1, { redeemScript: p2wpkhOf(userKey) })],
    ["a witnessScript on a P2WPKH input", (p) => (p.data.inputs[1]!.witnessScript = Uint8Array.of(0x51))],
    ["a tapInternalKey on a P2WPKH input", (p) => (p.data.inputs[1]!.tapInternalKey = xOnly(resolverKey))],
    ["a pre-filled final witness", (p) => (p.data.inputs[1]!.finalScriptWitness = Uint8Array.of(1, 0))],
    ["a pre-filled key-path signature", (p) => (p.data.inputs[0]!.tapKeySig = new Uint8Array(64).fill(1))],
    [
      "a pre-filled stranger's partial signature",
      (p) =>
        (p.data.inputs[1]!.partialSig = [
          { pubkey: strangerKey.publicKey, signature: Uint8Array.of(0x30, 0x06, 2, 1, 1, 2, 1, 1, 1) },
        ]),
    ],
    [
      "a tapBip32Derivation that asks for a script-path signature",
      (p) =>
        (p.data.inputs[0]!.tapBip32Derivation = [
          {
            masterFingerprint: new Uint8Array(4),
            path: "m/86'/1'/0'/0/0",
            pubkey: xOnly(userKey),
            leafHashes: [new Uint8Array(32).fill(9)],
          },
        ]),
    ],
  ])("refuses a listed input with %s", (_name, edit) => {
    expect(
      codeOf({}, (d) => {
        const psbt = Psbt.fromBase64(d.intent.paramsToSign.psbt);
        edit(psbt);
        (d.intent.paramsToSign as { psbt: string }).psbt = psbt.toBase64();
      }),
    ).toBe("BTC_INPUT_FIELD_NOT_ALLOWED");
  });

  it("accepts a key-path tapBip32Derivation on a listed P2TR input", () => {
    expect(
      codeOf({}, (d) => {
        const psbt = Psbt.fromBase64(d.intent.paramsToSign.psbt);
        psbt.updateInput(0, {
          tapBip32Derivation: [
            {
              masterFingerprint: new Uint8Array(4),
              path: "m/86'/1'/0'/0/0",
              pubkey: xOnly(userKey),
              leafHashes: [],
            },
          ],
        });
        (d.intent.paramsToSign as { psbt: string }).psbt = psbt.toBase64();
      }),
    ).toBe("ACCEPTED");
  });

  it("refuses an unlisted foreign input that names the user's key in its derivation", () => {
    expect(
      codeOf(
        {
          inputs: [
            { kind: "p2tr", value: 60_000n },
            { kind: "p2wpkh", value: 50_000n, owner: strangerKey },
          ],
          listed: [0],
        },
        (d) => {
          const psbt = Psbt.fromBase64(d.intent.paramsToSign.psbt);
          psbt.updateInput(1, {
            bip32Derivation: [
              { masterFingerprint: new Uint8Array(4), path: "m/84'/1'/0'/0/0", pubkey: userKey.publicKey },
            ],
          });
          (d.intent.paramsToSign as { psbt: string }).psbt = psbt.toBase64();
        },
      ),
    ).toBe("BTC_INPUT_NOT_LISTED_SIGNED");
  });

  it("accepts P2WPKH-only deposits without nonWitnessUtxo when a single input cannot be combined, or a P2TR input commits to all amounts", () => {
    expect(codeOf({ inputs: [{ kind: "p2wpkh", value: 110_000n }] })).toBe("ACCEPTED");
    expect(
      codeOf({
        inputs: [
          { kind: "p2tr", value: 60_000n },
          { kind: "p2wpkh", value: 50_000n },
        ],
      }),
    ).toBe("ACCEPTED");
  });

  it("refuses an input without witnessUtxo", () => {
    expect(
      codeOf({}, (d) => {
        const psbt = Psbt.fromBase64(d.intent.paramsToSign.psbt);
        delete psbt.data.inputs[1]!.witnessUtxo;
        (d.intent.paramsToSign as { psbt: string }).psbt = psbt.toBase64();
      }),
    ).toBe("BTC_UTXO_MISSING");
  });

  it("refuses a claim key other than a pinned resolver key", () => {
    const deposit = buildDeposit({ claimKey: xOnly(strangerKey) });
    expect(() =>
      verifyHtlcPsbt({
        ecc,
        intent: deposit.intent,
        quote: deposit.quote,
        userPublicKey,
        policy: { resolverPublicKey: hex(resolverKey.publicKey) },
      }),
    ).toThrow(expect.objectContaining({ code: "BTC_HTLC_CLAIM_KEY_MISMATCH" }));
  });

  it("honours a configured fee cap and timelock bounds", () => {
    const deposit = buildDeposit();
    const verify = (policy: Parameters<typeof verifyHtlcPsbt>[0]["policy"]) =>
      verifyHtlcPsbt({ ecc, intent: deposit.intent, quote: deposit.quote, userPublicKey, policy });
    expect(() => verify({ maxFeeLots: 999n })).toThrow(expect.objectContaining({ code: "BTC_FEE_TOO_HIGH" }));
    expect(() => verify({ maxFeeRateSatPerVbyte: 1n })).toThrow(
      expect.objectContaining({ code: "BTC_FEE_TOO_HIGH" }),
    );
    expect(() => verify({ maxCsvBlocks: 143 })).toThrow(
      expect.objectContaining({ code: "BTC_HTLC_TIMELOCK_OUT_OF_BOUNDS" }),
    );
    expect(verify({ maxFeeLots: 1_000n, minCsvBlocks: 144, maxCsvBlocks: 144 }).feeLots).toBe(1_000n);
  });

  it("refuses a deposit delayed by nLockTime or a BIP-68 relative lock", () => {
    const withTx = (edit: (p: Psbt) => void) => (d: ReturnType<typeof buildDeposit>) => {
      const psbt = Psbt.fromBase64(d.intent.paramsToSign.psbt);
      edit(psbt);
      (d.intent.paramsToSign as { psbt: string }).psbt = psbt.toBase64();
    };
    const locked = (locktime: number) =>
      withTx((p) => {
        p.setLocktime(locktime);
        p.setInputSequence(0, 0xfffffffd);
      });
    // A time far in the future, and any block height when the wallet gave no maximum.
    expect(codeOf({}, locked(2_100_000_000))).toBe("BTC_TX_TIMELOCKED");
    expect(codeOf({}, locked(900_000))).toBe("BTC_TX_TIMELOCKED");
    // A relative lock of 10 blocks, and of 10 x 512 seconds, on a version-2 transaction.
    // Version 0xffffffff counts as >= 2 for BIP-68 (the node compares it unsigned).
    for (const [version, sequence] of [
      [2, 10],
      [2, 0x400000 | 10],
      [0xffffffff, 10],
    ] as const) {
      expect(
        codeOf(
          {},
          withTx((p) => {
            p.setVersion(version);
            p.setInputSequence(1, sequence);
          }),
        ),
      ).toBe("BTC_TX_TIMELOCKED");
    }
    // Version 1: BIP-68 does not apply.
    expect(
      codeOf(
        {},
        withTx((p) => {
          p.setVersion(1);
          p.setInputSequence(1, 10);
        }),
      ),
    ).toBe("ACCEPTED");
    // Not enforced: every sequence final, so nLockTime is ignored by consensus.
    expect(
      codeOf(
        {},
        withTx((p) => p.setLocktime(900_000)),
      ),
    ).toBe("ACCEPTED");
    // A past time, RBF sequences, and a height up to the wallet's maximum are fine.
    expect(codeOf({}, locked(1_600_000_000))).toBe("ACCEPTED");
    const deposit = buildDeposit();
    locked(900_000)(deposit);
    const verify = (maxLockTimeHeight: number) =>
      verifyHtlcPsbt({
        ecc,
        intent: deposit.intent,
        quote: deposit.quote,
        userPublicKey,
        policy: { maxLockTimeHeight },
      });
    expect(verify(900_001).feeLots).toBeGreaterThan(0n);
    expect(() => verify(899_999)).toThrow(expect.objectContaining({ code: "BTC_TX_TIMELOCKED" }));
  });

  it("refuses CSV numbers with BIP-68 flag bits even at the policy's largest maximum", () => {
    const verifyCsv = (csv: number) => {
      const deposit = buildDeposit({ csv });
      return () =>
        verifyHtlcPsbt({
          ecc,
          intent: deposit.intent,
          quote: deposit.quote,
          userPublicKey,
          policy: { maxCsvBlocks: 0xffff },
        });
    };
    // Type flag (bit 22): 10 units of 512 seconds, not 4,194,314 blocks.
    expect(verifyCsv(0x400000 | 10)).toThrow(
      expect.objectContaining({ code: "BTC_HTLC_TIMELOCK_OUT_OF_BOUNDS" }),
    );
    // Bits 16-21 are ignored by BIP-68: 65,542 means 6 blocks.
    expect(verifyCsv(0x10000 + 6)).toThrow(
      expect.objectContaining({ code: "BTC_HTLC_TIMELOCK_OUT_OF_BOUNDS" }),
    );
    expect(verifyCsv(0xffff)().htlc.csvBlocks).toBe(0xffff);
  });

  it("keeps the default caps when a policy field is explicitly undefined, and refuses mistyped policies", () => {
    // 170,000 - 100,000 - 9,000 = 61,000 sat fee: above the default 50,000 cap.
    const deposit = buildDeposit({
      inputs: [
        { kind: "p2tr", value: 100_000n },
        { kind: "p2wpkh", value: 70_000n },
      ],
    });
    const verify = (policy: Record<string, unknown>) => () =>
      verifyHtlcPsbt({
        ecc,
        intent: deposit.intent,
        quote: deposit.quote,
        userPublicKey,
        policy: policy as Parameters<typeof verifyHtlcPsbt>[0]["policy"],
      });
    expect(verify({ maxFeeLots: 100_000n, maxFeeRateSatPerVbyte: 1_000n, maxFeeBps: 10_000 })().feeLots).toBe(
      61_000n,
    );
    expect(verify({ maxFeeLots: undefined, maxFeeRateSatPerVbyte: 1_000n, maxFeeBps: 10_000 })).toThrow(
      expect.objectContaining({ code: "BTC_FEE_TOO_HIGH" }),
    );
    const long = buildDeposit({ csv: 5000 });
    expect(() =>
      verifyHtlcPsbt({
        ecc,
        intent: long.intent,
        quote: long.quote,
        userPublicKey,
        policy: { maxCsvBlocks: undefined } as unknown as Parameters<typeof verifyHtlcPsbt>[0]["policy"],
      }),
    ).toThrow(expect.objectContaining({ code: "BTC_HTLC_TIMELOCK_OUT_OF_BOUNDS" }));
    for (const bad of [
      { maxFeeLots: 10_000 },
      { maxFeeRateSatPerVbyte: 200 },
      { minCsvBlocks: "6" },
      { maxCsvBlocks: Number.NaN },
      { maxLockTimeHeight: -1 },
    ]) {
      expect(verify(bad)).toThrow(expect.objectContaining({ code: "BTC_POLICY_INVALID" }));
    }
  });

  it("refuses garbage, a non-htlc intent and a bad public key with their codes", () => {
    const deposit = buildDeposit();
    expect(() =>
      verifyHtlcPsbt({
        ecc,
        intent: { ...deposit.intent, paramsToSign: { psbt: "bm90IGEgcHNidA==", inputs: [0] } },
        quote: deposit.quote,
        userPublicKey,
      }),
    ).toThrow(expect.objectContaining({ code: "BTC_PSBT_INVALID" }));
    expect(() =>
      verifyHtlcPsbt({
        ecc,
        intent: { ...deposit.intent, approvalMechanism: "cosign", paramsToSign: { transaction: "00" } },
        quote: deposit.quote,
        userPublicKey,
      }),
    ).toThrow(expect.objectContaining({ code: "BTC_MECHANISM_MISMATCH" }));
    expect(() =>
      verifyHtlcPsbt({ ecc, intent: deposit.intent, quote: deposit.quote, userPublicKey: hex(NUMS) }),
    ).toThrow(expect.objectContaining({ code: "BTC_PUBLIC_KEY_INVALID" }));
  });

  it("never puts the secret or a key's private part in an error", () => {
    const deposit = buildDeposit({ secretHash: new Uint8Array(32).fill(7) });
    try {
      verifyHtlcPsbt({ ecc, intent: deposit.intent, quote: deposit.quote, userPublicKey });
      expect.unreachable();
    } catch (error) {
      const text = String((error as Error).message);
      expect(text).not.toContain(hex(userKey.privateKey!));
      expect(text).toContain("BTC_HTLC_SECRET_HASH_MISMATCH");
    }
  });
});
