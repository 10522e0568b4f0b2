// Tampered deposit payloads, each refused before the user's key is used, plus the other members of each
// payload's class.
import { isSwapIntentError } from "@swapintent/client";
import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { crypto, Psbt, payments, script, Transaction } from "bitcoinjs-lib";
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
  spySigner,
  strangerKey,
  userKey,
} from "../test/fixtures.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import { signHtlcRefund } from "./signHtlcRefund.js";
import type { KeySigner, PsbtWalletSigner } from "./types.js";
import { verifyHtlcPsbt } from "./verifyHtlcPsbt/verifyHtlcPsbt.js";

const userPublicKey = hex(userKey.publicKey);
const tapTweak = crypto.taggedHash("TapTweak", userKey.publicKey.slice(1));

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

describe("the deposit's txid cannot change after the user signs", () => {
  const scripts: [string, Uint8Array][] = [
    ["P2PKH", payments.p2pkh({ pubkey: strangerKey.publicKey }).output!],
    ["P2SH-P2WPKH", payments.p2sh({ redeem: payments.p2wpkh({ pubkey: strangerKey.publicKey }) }).output!],
    ["bare multisig", payments.p2ms({ m: 1, pubkeys: [strangerKey.publicKey] }).output!],
    ["witness v2", Uint8Array.from([0x52, 0x20, ...new Uint8Array(32).fill(7)])],
    ["witness v0, 25-byte program", Uint8Array.from([0x00, 0x19, ...new Uint8Array(25).fill(7)])],
  ];
  it.each(scripts)(
    "refuses an unlisted %s input (its scriptSig is part of the txid)",
    async (_name, prevout) => {
      const deposit = tamper(withServiceInput({ serviceValue: 50_000n, changeValue: 9_000n }), (psbt) => {
        psbt.data.inputs[1]!.witnessUtxo = { script: prevout, value: 50_000n };
      });
      expect(await attempt(deposit)).toEqual({ code: "BTC_INPUT_NOT_SEGWIT", uses: 0 });
    },
  );

  it("refuses a scriptSig on a native segwit input", async () => {
    const deposit = tamper(withServiceInput({ serviceValue: 50_000n, changeValue: 9_000n }), (psbt) => {
      psbt.data.inputs[1]!.finalScriptSig = Uint8Array.of(0x51);
    });
    expect(await attempt(deposit)).toEqual({ code: "BTC_INPUT_NOT_SEGWIT", uses: 0 });
  });

  it("accepts a native P2WSH service input; the txid it reports is the signed transaction's", async () => {
    const p2wsh = payments.p2wsh({ redeem: { output: Uint8Array.of(0x51) } }).output!;
    const deposit = tamper(withServiceInput({ serviceValue: 50_000n, changeValue: 9_000n }), (psbt) => {
      psbt.data.inputs[1]!.witnessUtxo = { script: p2wsh, value: 50_000n };
    });
    const { psbt, verified } = await signHtlcPsbt({ ecc, ...deposit, userPublicKey, signer: userKey });
    const signed = Psbt.fromBase64(psbt);
    signed.finalizeInput(1, () => ({
      finalScriptSig: undefined,
      finalScriptWitness: Uint8Array.of(1, 1, 0x51),
    }));
    expect(signed.extractTransaction(true).getId()).toBe(verified.txid);
  });

  it("signHtlcRefund refuses a deposit PSBT whose txid could still change", async () => {
    const deposit = tamper(withServiceInput({ serviceValue: 50_000n, changeValue: 9_000n }), (psbt) => {
      psbt.data.inputs[1]!.witnessUtxo = { script: scripts[0]![1], value: 50_000n };
    });
    const signer = spySigner();
    const refused = signHtlcRefund({ ecc, depositPsbt: deposit.psbt, userPublicKey, signer, feeLots: 500n });
    await expect(refused).rejects.toMatchObject({ code: "BTC_INPUT_NOT_SEGWIT" });
    expect(signer.uses).toBe(0);
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

describe("every PSBT check finishes before the key is used", () => {
  const tapLeaf = {
    leafVersion: 0xc0,
    script: Uint8Array.of(0x51),
    controlBlock: Uint8Array.from([0xc0, ...new Uint8Array(32).fill(1)]),
  };
  const listedP2wpkhFields: [string, (input: Psbt["data"]["inputs"][number]) => void][] = [
    [
      "tapLeafScript",
      (i) => {
        i.tapLeafScript = [tapLeaf];
      },
    ],
    [
      "tapBip32Derivation",
      (i) => {
        i.tapBip32Derivation = [
          {
            masterFingerprint: new Uint8Array(4),
            path: "m/86'/0'/0'/0/0",
            pubkey: userKey.publicKey.slice(1),
            leafHashes: [],
          },
        ];
      },
    ],
    [
      "tapMerkleRoot",
      (i) => {
        i.tapMerkleRoot = new Uint8Array(32).fill(9);
      },
    ],
    [
      "tapInternalKey",
      (i) => {
        i.tapInternalKey = userKey.publicKey.slice(1);
      },
    ],
    [
      "tapKeySig",
      (i) => {
        i.tapKeySig = new Uint8Array(64).fill(1);
      },
    ],
    [
      "tapScriptSig",
      (i) => {
        i.tapScriptSig = [
          { pubkey: userKey.publicKey.slice(1), leafHash: new Uint8Array(32), signature: new Uint8Array(64) },
        ];
      },
    ],
    [
      "witnessScript",
      (i) => {
        i.witnessScript = Uint8Array.of(0x51);
      },
    ],
    [
      "redeemScript",
      (i) => {
        i.redeemScript = Uint8Array.of(0x51);
      },
    ],
    [
      "porCommitment",
      (i) => {
        i.porCommitment = "proof";
      },
    ],
    [
      "unknownKeyVals",
      (i) => {
        i.unknownKeyVals = [{ key: Uint8Array.of(0xfc), value: Uint8Array.of(1) }];
      },
    ],
    [
      "bip32Derivation of another key",
      (i) => {
        i.bip32Derivation = [
          { masterFingerprint: new Uint8Array(4), path: "m/0", pubkey: strangerKey.publicKey },
        ];
      },
    ],
  ];
  it.each(listedP2wpkhFields)(
    "refuses %s on a listed P2WPKH input with the key unused",
    async (_name, edit) => {
      const deposit = tamper(buildDeposit(), (psbt) => edit(psbt.data.inputs[1]!));
      expect(await attempt(deposit)).toEqual({ code: "BTC_INPUT_FIELD_NOT_ALLOWED", uses: 0 });
    },
  );

  it.each([
    [
      "tapLeafScript",
      (i: Psbt["data"]["inputs"][number]) => {
        i.tapLeafScript = [tapLeaf];
      },
    ],
    [
      "tapMerkleRoot",
      (i: Psbt["data"]["inputs"][number]) => {
        i.tapMerkleRoot = new Uint8Array(32).fill(9);
      },
    ],
    [
      "bip32Derivation",
      (i: Psbt["data"]["inputs"][number]) => {
        i.bip32Derivation = [
          { masterFingerprint: new Uint8Array(4), path: "m/0", pubkey: userKey.publicKey },
        ];
      },
    ],
  ])("refuses %s on a listed P2TR input with the key unused", async (_name, edit) => {
    const deposit = tamper(buildDeposit(), (psbt) => edit(psbt.data.inputs[0]!));
    expect(await attempt(deposit)).toEqual({ code: "BTC_INPUT_FIELD_NOT_ALLOWED", uses: 0 });
  });

  it("refuses global and output fields a deposit does not have", async () => {
    const edits: ((psbt: Psbt) => void)[] = [
      (p) => {
        p.data.globalMap.unknownKeyVals = [{ key: Uint8Array.of(0xfc), value: Uint8Array.of(1) }];
      },
      (p) => {
        p.data.outputs[0]!.bip32Derivation = [
          { masterFingerprint: new Uint8Array(4), path: "m/0", pubkey: userKey.publicKey },
        ];
      },
      (p) => {
        p.data.outputs[1]!.bip32Derivation = [
          { masterFingerprint: new Uint8Array(4), path: "m/0", pubkey: strangerKey.publicKey },
        ];
      },
      (p) => {
        p.data.outputs[1]!.tapInternalKey = strangerKey.publicKey.slice(1);
      },
      (p) => {
        p.data.outputs[1]!.witnessScript = Uint8Array.of(0x51);
      },
    ];
    for (const edit of edits) {
      expect(await attempt(tamper(buildDeposit(), edit))).toEqual({
        code: "BTC_PSBT_FIELD_NOT_ALLOWED",
        uses: 0,
      });
    }
    const ownChange = tamper(buildDeposit(), (p) => {
      p.data.outputs[1]!.tapInternalKey = userKey.publicKey.slice(1);
    });
    expect((await attempt(ownChange)).code).toBe("ACCEPTED");
  });

  it("refuses a signer without Schnorr before it signs the P2WPKH input listed first", async () => {
    const deposit = buildDeposit({
      inputs: [
        { kind: "p2wpkh", value: 50_000n },
        { kind: "p2tr", value: 60_000n },
      ],
    });
    let uses = 0;
    const ecdsaOnly: KeySigner = {
      publicKey: userKey.publicKey,
      sign: (h) => {
        uses++;
        return userKey.sign(h);
      },
    };
    const refused = signHtlcPsbt({ ecc, ...deposit, userPublicKey, signer: ecdsaOnly });
    await expect(refused).rejects.toMatchObject({ code: "BTC_SIGNER_UNSUPPORTED" });
    expect(uses).toBe(0);
  });
});

describe("wallet signatures the chain would refuse", () => {
  /** A wallet that signs correctly, then hands back `shape(signature)` for input 0. */
  function wallet(
    shape: (sig: Uint8Array) => Uint8Array,
    kind: "p2tr" | "p2wpkh",
    via: "field" | "witness" = "field",
  ): PsbtWalletSigner {
    return {
      publicKey: userKey.publicKey,
      signPsbt: async ({ psbt: base64 }) => {
        const p = Psbt.fromBase64(base64);
        if (kind === "p2tr") {
          p.signInput(0, userKey.tweak(tapTweak), [0x00, 0x01]);
          const sig = shape(p.data.inputs[0]!.tapKeySig!);
          if (via === "witness") {
            // A finalized input (bitcoinjs would not even serialize a tapKeySig of another length).
            delete p.data.inputs[0]!.tapKeySig;
            p.data.inputs[0]!.finalScriptWitness = Uint8Array.from([1, sig.length, ...sig]);
          } else p.data.inputs[0]!.tapKeySig = sig;
        } else {
          p.signInput(0, userKey, [0x01, 0x81]);
          const partial = p.data.inputs[0]!.partialSig![0]!;
          p.data.inputs[0]!.partialSig = [{ pubkey: partial.pubkey, signature: shape(partial.signature) }];
        }
        return p.toBase64();
      },
    };
  }
  // Set directly: bitcoinjs' addInput will not take sighashType 0 (DEFAULT), but a PSBT may carry it.
  const p2trDeposit = (sighashType?: number) =>
    tamper(buildDeposit({ inputs: [{ kind: "p2tr", value: 110_000n }] }), (psbt) => {
      if (sighashType !== undefined) psbt.data.inputs[0]!.sighashType = sighashType;
    });
  const p2wpkhDeposit = (sighashType?: number) =>
    buildDeposit({
      inputs: [{ kind: "p2wpkh", value: 110_000n, ...(sighashType === undefined ? {} : { sighashType }) }],
    });
  const sign = (deposit: Deposit, signer: PsbtWalletSigner) =>
    signHtlcPsbt({ ecc, ...deposit, userPublicKey, signer }).then(
      (r) => ({ code: "ACCEPTED", txHex: Psbt.fromBase64(r.psbt).extractTransaction().toHex() }),
      (e: unknown) => ({ code: isSwapIntentError(e) ? e.code : String(e), txHex: "" }),
    );

  it("refuses a 65-byte Taproot signature with sighash byte 0x00, which the interpreter refuses too", async () => {
    const deposit = p2trDeposit(0x00);
    const result = await sign(
      deposit,
      wallet((sig) => Uint8Array.from([...sig, 0x00]), "p2tr"),
    );
    expect(result.code).toBe("BTC_SIGHASH_NOT_ALLOWED");
    // The same transaction, finalized by hand, on bitcore's interpreter:
    const p = Psbt.fromBase64(deposit.psbt);
    p.signInput(0, userKey.tweak(tapTweak), [0x00]);
    const sig = Uint8Array.from([...p.data.inputs[0]!.tapKeySig!, 0x00]);
    const tx = Transaction.fromBuffer(p.data.globalMap.unsignedTx.toBuffer());
    tx.ins[0]!.witness = [sig];
    expect(runInterpreter({ txHex: tx.toHex(), prevouts: deposit.prevouts })).toEqual([
      "SCRIPT_ERR_SCHNORR_SIG_HASHTYPE",
    ]);
  });

  it.each([
    // DEFAULT and ALL are equivalent, so these two are checked against the digest their byte names: made over the
    // other one, they do not verify.
    [
      "65 bytes, 0x01, PSBT asks DEFAULT",
      undefined,
      (s: Uint8Array) => Uint8Array.from([...s, 0x01]),
      "BTC_SIGNATURE_INVALID",
    ],
    ["65 bytes, 0x02", 0x00, (s: Uint8Array) => Uint8Array.from([...s, 0x02]), "BTC_SIGHASH_NOT_ALLOWED"],
    ["65 bytes, 0x81", 0x00, (s: Uint8Array) => Uint8Array.from([...s, 0x81]), "BTC_SIGHASH_NOT_ALLOWED"],
    ["64 bytes, PSBT asks ALL", 0x01, (s: Uint8Array) => s.slice(0, 64), "BTC_SIGNATURE_INVALID"],
  ])("refuses a Taproot signature: %s", async (_name, sighashType, shape, code) => {
    expect((await sign(p2trDeposit(sighashType), wallet(shape, "p2tr"))).code).toBe(code);
  });

  it.each([
    ["63 bytes", (s: Uint8Array) => s.slice(0, 63)],
    ["66 bytes", (s: Uint8Array) => Uint8Array.from([...s, 0x01, 0x01])],
    ["a flipped bit", (s: Uint8Array) => Uint8Array.from(s, (b, i) => (i === 10 ? b ^ 1 : b))],
  ])("refuses a Taproot signature of %s", async (_name, shape) => {
    expect((await sign(p2trDeposit(), wallet(shape, "p2tr", "witness"))).code).toBe("BTC_SIGNATURE_INVALID");
  });

  it("accepts the two Taproot shapes the interpreter accepts", async () => {
    for (const sighashType of [undefined, 0x01]) {
      const deposit = p2trDeposit(sighashType);
      const result = await sign(
        deposit,
        wallet((s) => s, "p2tr"),
      );
      expect(result.code).toBe("ACCEPTED");
      expect(runInterpreter({ txHex: result.txHex, prevouts: deposit.prevouts })).toEqual([null]);
    }
  });

  /** DER with a redundant 0x00 before R (BIP-66 forbids it). */
  const padR = (sig: Uint8Array) => {
    const { signature, hashType } = script.signature.decode(sig);
    const r = signature.slice(0, 32);
    const s = signature.slice(32);
    const int = (x: Uint8Array) => {
      let i = 0;
      while (i < x.length - 1 && x[i] === 0 && x[i + 1]! < 0x80) i++;
      const v = x.slice(i);
      return v[0]! >= 0x80 ? Uint8Array.from([0, ...v]) : v;
    };
    const rr = Uint8Array.from([0, ...int(r)]);
    const ss = int(s);
    const body = [0x02, rr.length, ...rr, 0x02, ss.length, ...ss];
    return Uint8Array.from([0x30, body.length, ...body, hashType]);
  };
  /** The same signature with S replaced by n - S (valid by consensus, not relayed: LOW_S). */
  const highS = (sig: Uint8Array) => {
    const { signature, hashType } = script.signature.decode(sig);
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const s = BigInt(`0x${hex(signature.slice(32))}`);
    const flipped = Uint8Array.from(Buffer.from((n - s).toString(16).padStart(64, "0"), "hex"));
    return script.signature.encode(Uint8Array.from([...signature.slice(0, 32), ...flipped]), hashType);
  };
  it.each([
    ["non-strict DER (padded R)", padR, "BTC_SIGNATURE_INVALID"],
    ["high S", highS, "BTC_SIGNATURE_INVALID"],
    [
      "sighash byte 0x81",
      (s: Uint8Array) => Uint8Array.from([...s.slice(0, -1), 0x81]),
      "BTC_SIGHASH_NOT_ALLOWED",
    ],
    [
      "sighash byte 0x00",
      (s: Uint8Array) => Uint8Array.from([...s.slice(0, -1), 0x00]),
      "BTC_SIGHASH_NOT_ALLOWED",
    ],
    ["truncated DER", (s: Uint8Array) => Uint8Array.from([...s.slice(0, 20), 0x01]), "BTC_SIGNATURE_INVALID"],
  ])("refuses an ECDSA signature with %s", async (_name, shape, code) => {
    expect((await sign(p2wpkhDeposit(), wallet(shape, "p2wpkh"))).code).toBe(code);
  });

  it("the interpreter refuses the non-strict and high-S shapes too (so refusing them is right)", async () => {
    for (const [shape, error] of [
      [padR, "SCRIPT_ERR_SIG_DER_INVALID_FORMAT"],
      [highS, "SCRIPT_ERR_SIG_DER_HIGH_S"],
    ] as const) {
      const deposit = p2wpkhDeposit();
      const p = Psbt.fromBase64(deposit.psbt);
      p.signInput(0, userKey);
      const sig = shape(p.data.inputs[0]!.partialSig![0]!.signature);
      const tx = Transaction.fromBuffer(p.data.globalMap.unsignedTx.toBuffer());
      tx.ins[0]!.witness = [sig, userKey.publicKey];
      expect(runInterpreter({ txHex: tx.toHex(), prevouts: deposit.prevouts })).toEqual([error]);
    }
  });
});

describe("service strings in error details", () => {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  const unsafe = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/u;
  async function details(edit: (deposit: Deposit) => Deposit): Promise<{ code: string; text: string }> {
    const deposit = edit(buildDeposit());
    try {
      verifyHtlcPsbt({ ecc, ...deposit, userPublicKey });
    } catch (error) {
      if (!isSwapIntentError(error)) throw error;
      return {
        code: error.code,
        text: JSON.stringify(error.details, (_k, v) => (typeof v === "bigint" ? `${v}` : v)),
      };
    }
    return { code: "ACCEPTED", text: "" };
  }
  it.each([
    [
      "approvalMechanism",
      (d: Deposit) => ({
        ...d,
        intent: { ...d.intent, approvalMechanism: "htlc\u202e\nValid until 2099" } as never,
      }),
      "BTC_MECHANISM_MISMATCH",
    ],
    [
      "inputs",
      (d: Deposit) => ({
        ...d,
        intent: {
          ...d.intent,
          paramsToSign: { ...d.intent.paramsToSign, inputs: ["0\u200b\r\nReceive 1 BTC"] as never },
        },
      }),
      "BTC_INPUT_INDEX_INVALID",
    ],
    [
      "secretHash",
      (d: Deposit) => ({
        ...d,
        intent: { ...d.intent, secretHash: `${d.intent.secretHash}\u2066\u0007` as `0x${string}` },
      }),
      "BTC_HTLC_SECRET_HASH_MISMATCH",
    ],
  ])("escapes control, bidi and zero-width characters of %s", async (_name, edit, code) => {
    const { code: actual, text } = await details(edit);
    expect(actual).toBe(code);
    const values = Object.values(JSON.parse(text) as Record<string, unknown>)
      .map(String)
      .join(" ");
    expect(values).toMatch(/\\u\{(202e|200b|2066|2028)\}/);
    expect(unsafe.test(values)).toBe(false);
  });
});
