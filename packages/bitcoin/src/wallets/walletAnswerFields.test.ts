// A wallet's answer on the one path every answer takes: fields, signatures, the transaction and the previous
// transactions, and the amounts the signatures commit to. Every accepted answer also runs on bitcore's interpreter.
import { Psbt, payments, script, type Transaction } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import { walletOutcome as outcome, tweaked, answeringWallet as wallet } from "../../test/answeringWallet.js";
import { buildDeposit, strangerKey, userKey, xOnly } from "../../test/fixtures.js";
import type { PsbtWalletSigner, SignPsbtParameters } from "../types.js";

const b64 = (p: Psbt) => p.toBase64();
const cases: [string, (p: Psbt, r: SignPsbtParameters) => unknown, string][] = [
  [
    "trailing bytes after the PSBT",
    (p) => Buffer.concat([p.toBuffer(), Buffer.of(0, 1, 2)]).toString("base64"),
    "BTC_PSBT_INVALID",
  ],
  ["whitespace inside the base64", (p) => b64(p).replace(/(.{40})/g, "$1\n "), "BTC_PSBT_INVALID"],
  [
    "base64 with its padding changed",
    (p) => (b64(p).endsWith("=") ? b64(p).replace(/=+$/, "") : `${b64(p)}====`),
    "BTC_PSBT_INVALID",
  ],
  ["base64url", (p) => b64(p).replace(/\+/g, "-").replace(/\//g, "_"), "BTC_PSBT_INVALID"],
  ["hex where base64 is due", (p) => p.toHex(), "BTC_PSBT_INVALID"],
  ["base64 with junk after it", (p) => `${b64(p)}!!junk`, "BTC_PSBT_INVALID"],
  ["a String object", (p) => new String(b64(p)), "BTC_PSBT_INVALID"],
  ["an object whose toString is the PSBT", (p) => ({ toString: () => b64(p) }), "BTC_PSBT_INVALID"],
  [
    "tapKeySig 65 bytes ending 0x00",
    (p) => {
      const i = p.data.inputs[0]!;
      i.tapKeySig = Uint8Array.from([...i.tapKeySig!, 0]);
      return b64(p);
    },
    "BTC_SIGHASH_NOT_ALLOWED",
  ],
  [
    "tapKeySig 65 bytes ALL|ANYONECANPAY",
    (p) => {
      const i = p.data.inputs[0]!;
      i.tapKeySig = Uint8Array.from([...i.tapKeySig!, 0x81]);
      return b64(p);
    },
    "BTC_SIGHASH_NOT_ALLOWED",
  ],
  [
    "tapKeySig 65 bytes ALL over the DEFAULT digest",
    (p) => {
      const i = p.data.inputs[0]!;
      i.tapKeySig = Uint8Array.from([...i.tapKeySig!, 1]);
      return b64(p);
    },
    // ALL is accepted for DEFAULT, but checked against the ALL digest, where this signature does not verify.
    "BTC_SIGNATURE_INVALID",
  ],
  [
    "tapScriptSig on a listed input",
    (p) => {
      p.data.inputs[0]!.tapScriptSig = [
        { pubkey: xOnly(userKey), leafHash: new Uint8Array(32), signature: p.data.inputs[0]!.tapKeySig! },
      ];
      return b64(p);
    },
    "BTC_SIGNATURE_UNEXPECTED",
  ],
  [
    "tapMerkleRoot added",
    (p) => {
      p.data.inputs[0]!.tapMerkleRoot = new Uint8Array(32).fill(1);
      return b64(p);
    },
    "BTC_PSBT_FIELD_MODIFIED",
  ],
  [
    "tapInternalKey swapped",
    (p) => {
      p.data.inputs[0]!.tapInternalKey = xOnly(strangerKey);
      return b64(p);
    },
    "BTC_PSBT_FIELD_MODIFIED",
  ],
  [
    "tapBip32Derivation added",
    (p) => {
      p.data.inputs[0]!.tapBip32Derivation = [
        {
          pubkey: xOnly(strangerKey),
          leafHashes: [],
          masterFingerprint: new Uint8Array(4),
          path: "m/86'/0'/0'/0/0",
        },
      ];
      return b64(p);
    },
    "BTC_PSBT_FIELD_MODIFIED",
  ],
  [
    "witnessUtxo script of a listed input",
    (p) => {
      const u = p.data.inputs[1]!.witnessUtxo!;
      p.data.inputs[1]!.witnessUtxo = {
        ...u,
        script: payments.p2wpkh({ pubkey: strangerKey.publicKey }).output!,
      };
      return b64(p);
    },
    "BTC_PSBT_FIELD_MODIFIED",
  ],
  [
    "proprietary key on a listed input",
    (p) => {
      p.data.inputs[1]!.unknownKeyVals = [{ key: Uint8Array.of(0xfc, 0), value: Uint8Array.of(1) }];
      return b64(p);
    },
    "BTC_PSBT_FIELD_MODIFIED",
  ],
  [
    "PSBT version 2 global",
    (p) => {
      p.data.globalMap.unknownKeyVals = [{ key: Uint8Array.of(0xfb), value: Uint8Array.of(2, 0, 0, 0) }];
      return b64(p);
    },
    "BTC_PSBT_FIELD_MODIFIED",
  ],
  [
    "sighashType set on a listed input",
    (p) => {
      p.data.inputs[1]!.sighashType = 0x01;
      return b64(p);
    },
    "BTC_PSBT_FIELD_MODIFIED",
  ],
  [
    "finalScriptSig on a segwit input",
    (p) => {
      p.data.inputs[1]!.finalScriptSig = Uint8Array.of(0x51);
      return b64(p);
    },
    "BTC_SIGNATURE_UNEXPECTED",
  ],
  [
    "partialSig by another key next to the user's",
    (p) => {
      const s = p.data.inputs[1]!.partialSig![0]!;
      p.data.inputs[1]!.partialSig = [s, { pubkey: strangerKey.publicKey, signature: s.signature }];
      return b64(p);
    },
    "BTC_SIGNATURE_UNEXPECTED",
  ],
  [
    "P2TR finalized with an annex",
    (p) => {
      p.finalizeInput(0);
      const w = p.data.inputs[0]!.finalScriptWitness!;
      p.data.inputs[0]!.finalScriptWitness = Uint8Array.from([2, ...w.slice(1), 2, 0x50, 0]);
      return b64(p);
    },
    "BTC_SIGNATURE_UNEXPECTED",
  ],
  [
    "P2WPKH finalized, partialSig left with another signature",
    (p) => {
      const s = p.data.inputs[1]!.partialSig![0]!;
      p.finalizeInput(1);
      p.data.inputs[1]!.partialSig = [{ pubkey: s.pubkey, signature: p.data.inputs[0]!.tapKeySig! }];
      return b64(p);
    },
    "BTC_SIGNATURE_UNEXPECTED",
  ],
];

describe("a hostile wallet's answer", () => {
  it.each(cases)("%s", async (_, answer, expected) => {
    const result = await outcome(buildDeposit(), wallet(answer));
    expect(result.code).toBe(expected);
    if (result.code === "ACCEPTED") expect(result.interpreter).toEqual([null, null]);
  });
});

/** The honest answer with `pairs` (serialized key-value pairs) written into input 1's map. */
function withPairs(p: Psbt, ...pairs: Uint8Array[]): string {
  const marker = Uint8Array.of(0x02, 0xfc, 0xee, 0x01, 0xee);
  p.data.inputs[1]!.unknownKeyVals = [{ key: marker.slice(1, 3), value: marker.slice(4) }];
  const bytes = Buffer.from(p.toBuffer());
  const at = bytes.indexOf(Buffer.from(marker));
  expect(at).toBeGreaterThan(0);
  return Buffer.concat([bytes.subarray(0, at), ...pairs, bytes.subarray(at + marker.length)]).toString(
    "base64",
  );
}

/** Input 1's witnessUtxo (key 0x01) as a serialized pair, claiming `value`. */
function witnessUtxoPair(p: Psbt, value: bigint): Uint8Array {
  const { script } = p.data.inputs[1]!.witnessUtxo!;
  const amount = new Uint8Array(8);
  new DataView(amount.buffer).setBigUint64(0, value, true);
  const data = Uint8Array.from([...amount, script.length, ...script]);
  return Uint8Array.from([1, 0x01, data.length, ...data]);
}

const N = BigInt("0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");

/** The high-S twin of a strict-DER ECDSA signature (valid by consensus, not relayed: BIP-62 LOW_S). */
function highS(sig: Uint8Array): Uint8Array {
  const { signature, hashType } = script.signature.decode(sig);
  const s = N - BigInt(`0x${Buffer.from(signature.subarray(32)).toString("hex")}`);
  const twin = Uint8Array.from([
    ...signature.subarray(0, 32),
    ...Buffer.from(s.toString(16).padStart(64, "0"), "hex"),
  ]);
  return script.signature.encode(twin, hashType);
}

describe("a hostile wallet's answer, at the byte level", () => {
  it("refuses a key written twice in one map (an unknown key)", async () => {
    const pair = Uint8Array.of(0x02, 0xfc, 0x01, 0x01, 0x07);
    const result = await outcome(
      buildDeposit(),
      wallet((p) => withPairs(p, pair, pair)),
    );
    expect(result).toMatchObject({ code: "BTC_PSBT_INVALID", details: { source: "wallet" } });
    // The same pair once parses, and is refused as the added field it is.
    const once = await outcome(
      buildDeposit(),
      wallet((p) => withPairs(p, pair)),
    );
    expect(once).toMatchObject({
      code: "BTC_PSBT_FIELD_MODIFIED",
      details: { where: "input 1", fields: ["unknownKeyVals"] },
    });
  });

  it("refuses a second witnessUtxo with another amount (which one a parser keeps would decide the fee)", async () => {
    const result = await outcome(
      buildDeposit(),
      wallet((p) => withPairs(p, witnessUtxoPair(p, p.data.inputs[1]!.witnessUtxo!.value + 1n))),
    );
    expect(result).toMatchObject({ code: "BTC_PSBT_INVALID", details: { source: "wallet" } });
  });

  it("refuses the high-S twin of the user's P2WPKH signature (valid by consensus, never relayed)", async () => {
    const result = await outcome(
      buildDeposit(),
      wallet((p) => {
        const sig = p.data.inputs[1]!.partialSig![0]!;
        p.data.inputs[1]!.partialSig = [{ pubkey: sig.pubkey, signature: highS(sig.signature) }];
        return b64(p);
      }),
    );
    expect(result).toMatchObject({
      code: "BTC_SIGNATURE_INVALID",
      details: { input: 1, reason: "doesNotVerify" },
    });
  });
});

describe("signatures over another amount (the amount commitment), moved into the answer as sent", () => {
  /** Signs a copy whose input `tampered` claims one more satoshi, then hands back the sent PSBT with those signatures. */
  const signingOtherAmount = (tampered: number): PsbtWalletSigner => ({
    publicKey: userKey.publicKey,
    signPsbt: async ({ psbt, signInputs }) => {
      const answer = Psbt.fromBase64(psbt);
      const lie = Psbt.fromBase64(psbt);
      const utxo = lie.data.inputs[tampered]!.witnessUtxo!;
      lie.data.inputs[tampered]!.witnessUtxo = { ...utxo, value: utxo.value + 1n };
      for (const { index, kind, sighashType } of signInputs) {
        lie.signInput(index, (kind === "p2tr" ? tweaked : userKey) as never, [sighashType]);
        const { tapKeySig, partialSig } = lie.data.inputs[index]!;
        answer.updateInput(index, kind === "p2tr" ? { tapKeySig: tapKeySig! } : { partialSig: partialSig! });
      }
      return answer.toBase64();
    },
  });

  it("P2WPKH signed over its own amount + 1 is refused", async () => {
    const deposit = buildDeposit({ inputs: [{ kind: "p2wpkh", value: 110_000n }] });
    const result = await outcome(deposit, signingOtherAmount(0));
    expect(result).toMatchObject({
      code: "BTC_SIGNATURE_INVALID",
      details: { input: 0, reason: "doesNotVerify" },
    });
  });

  it("P2TR signed over another input's amount + 1 is refused (BIP-341 commits to every amount)", async () => {
    const result = await outcome(buildDeposit(), signingOtherAmount(1));
    // Input 0 (P2TR) is checked first: its signature covers input 1's amount too.
    expect(result).toMatchObject({
      code: "BTC_SIGNATURE_INVALID",
      details: { input: 0, reason: "doesNotVerify" },
    });
  });
});

describe("a hostile wallet's answer, on the transaction and the previous transactions", () => {
  it("refuses the outputs swapped (same values and scripts, another order)", async () => {
    const result = await outcome(
      buildDeposit(),
      wallet((p) => {
        const tx = (p.data.globalMap.unsignedTx as unknown as { tx: Transaction }).tx;
        tx.outs.reverse();
        p.data.outputs.reverse();
        return b64(p);
      }),
    );
    expect(result).toMatchObject({
      code: "BTC_TX_MODIFIED",
      details: { where: "global", fields: ["outputs"] },
    });
  });

  it("refuses a listed input's nonWitnessUtxo removed, or replaced by another transaction", async () => {
    const deposit = buildDeposit({
      inputs: [
        { kind: "p2tr", value: 60_000n, nonWitness: true },
        { kind: "p2wpkh", value: 50_000n, nonWitness: true },
      ],
    });
    /** Input `index`'s nonWitnessUtxo pair (key 0x00) as serialized (a previous transaction under 253 bytes). */
    const pairOf = (p: Psbt, index: number) => {
      const tx = p.data.inputs[index]!.nonWitnessUtxo!;
      expect(tx.length).toBeLessThan(0xfd);
      return Buffer.from([1, 0x00, tx.length, ...tx]);
    };
    /** The honest answer, bytes edited: input 1's nonWitnessUtxo pair replaced by `by`. */
    const edited = (by: (p: Psbt) => Buffer) =>
      wallet((p) => {
        const bytes = Buffer.from(p.toBuffer());
        const pair = pairOf(p, 1);
        const at = bytes.indexOf(pair);
        expect(at).toBeGreaterThan(0);
        return Buffer.concat([bytes.subarray(0, at), by(p), bytes.subarray(at + pair.length)]).toString(
          "base64",
        );
      });
    const removed = await outcome(
      deposit,
      edited(() => Buffer.alloc(0)),
    );
    expect(removed).toMatchObject({
      code: "BTC_PSBT_FIELD_MODIFIED",
      details: { where: "input 1", fields: ["nonWitnessUtxo"] },
    });
    // Input 0's previous transaction in its place (parsed without complaint: its hash is checked only when used).
    const replaced = await outcome(
      deposit,
      edited((p) => pairOf(p, 0)),
    );
    expect(replaced).toMatchObject({
      code: "BTC_PSBT_FIELD_MODIFIED",
      details: { where: "input 1", fields: ["nonWitnessUtxo"] },
    });
  });
});
