import * as pureEcc from "@bitcoinerlab/secp256k1";
import { isSwapIntentError } from "@swapintent/client";
import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { Psbt } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { buildDeposit, hex, p2trOf, strangerKey, userKey } from "../test/fixtures.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import type { SignPsbtParameters } from "./types.js";

const userPublicKey = hex(userKey.publicKey);

function extract(psbtBase64: string): string {
  return Psbt.fromBase64(psbtBase64).extractTransaction().toHex();
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isSwapIntentError(error)) return error.code;
    throw error;
  }
  return "ACCEPTED";
}

describe("signHtlcPsbt", () => {
  it("signs a P2TR and a P2WPKH input that bitcore's interpreter accepts", async () => {
    const deposit = buildDeposit();
    const { psbt, approval } = await signHtlcPsbt({
      ecc,
      intent: deposit.intent,
      quote: deposit.quote,
      userPublicKey,
      signer: userKey,
    });
    expect(approval).toEqual({ type: "psbt", signedData: psbt });
    const parsed = Psbt.fromBase64(psbt);
    expect(parsed.data.inputs.every((i) => i.finalScriptWitness !== undefined)).toBe(true);
    expect(runInterpreter({ txHex: extract(psbt), prevouts: deposit.prevouts })).toEqual([null, null]);
  });

  it("keeps the unsigned transaction byte-identical", async () => {
    const deposit = buildDeposit();
    const { psbt } = await signHtlcPsbt({
      ecc,
      intent: deposit.intent,
      quote: deposit.quote,
      userPublicKey,
      signer: userKey,
    });
    const before = Psbt.fromBase64(deposit.psbt).data.globalMap.unsignedTx.toBuffer();
    const after = Psbt.fromBase64(psbt).data.globalMap.unsignedTx.toBuffer();
    expect(hex(after)).toBe(hex(before));
  });

  it("signs a P2TR input that asks for SIGHASH_ALL explicitly (65-byte signature)", async () => {
    const deposit = buildDeposit({
      inputs: [
        { kind: "p2tr", value: 60_000n, sighashType: 0x01 },
        { kind: "p2wpkh", value: 50_000n, sighashType: 0x01 },
      ],
    });
    const { psbt } = await signHtlcPsbt({
      ecc,
      intent: deposit.intent,
      quote: deposit.quote,
      userPublicKey,
      signer: userKey,
    });
    const tx = Psbt.fromBase64(psbt).extractTransaction();
    expect(tx.ins[0]!.witness[0]).toHaveLength(65);
    expect(runInterpreter({ txHex: tx.toHex(), prevouts: deposit.prevouts })).toEqual([null, null]);
  });

  it("makes signatures the interpreter refuses once a byte is flipped", async () => {
    const deposit = buildDeposit();
    const { psbt } = await signHtlcPsbt({
      ecc,
      intent: deposit.intent,
      quote: deposit.quote,
      userPublicKey,
      signer: userKey,
    });
    const tx = Psbt.fromBase64(psbt).extractTransaction();
    const schnorr = tx.ins[0]!.witness[0]!;
    schnorr[10] = schnorr[10]! ^ 0x01;
    const ecdsa = tx.ins[1]!.witness[0]!;
    ecdsa[20] = ecdsa[20]! ^ 0x01;
    const result = runInterpreter({ txHex: tx.toHex(), prevouts: deposit.prevouts });
    // bitcore reports a failed Schnorr check without an error string; the ECDSA one names NULLFAIL.
    expect(result[0]).not.toBeNull();
    expect(result[1]).toMatch(/SIG/);
  });

  it("signs with the pure-JS backend (@bitcoinerlab/secp256k1) and the interpreter accepts it", async () => {
    const deposit = buildDeposit();
    const { psbt } = await signHtlcPsbt({
      ecc: pureEcc,
      intent: deposit.intent,
      quote: deposit.quote,
      userPublicKey,
      signer: userKey,
    });
    expect(runInterpreter({ txHex: extract(psbt), prevouts: deposit.prevouts })).toEqual([null, null]);
  });

  it("signs with an external async signer (tweaked Schnorr key, no tweak method)", async () => {
    const deposit = buildDeposit();
    const tweakedForTaproot = userKey.tweak(
      (await import("bitcoinjs-lib")).crypto.taggedHash("TapTweak", userKey.publicKey.slice(1)),
    );
    const signer = {
      publicKey: userKey.publicKey,
      sign: async (hash: Uint8Array) => userKey.sign(hash),
      signSchnorr: async (hash: Uint8Array) => tweakedForTaproot.signSchnorr(hash),
    };
    const { psbt } = await signHtlcPsbt({
      ecc,
      intent: deposit.intent,
      quote: deposit.quote,
      userPublicKey,
      signer,
    });
    expect(runInterpreter({ txHex: extract(psbt), prevouts: deposit.prevouts })).toEqual([null, null]);
  });

  it("refuses an external signer whose Schnorr signatures are not for the tweaked key", async () => {
    const deposit = buildDeposit();
    const signer = {
      publicKey: userKey.publicKey,
      sign: async (hash: Uint8Array) => userKey.sign(hash),
      signSchnorr: async (hash: Uint8Array) => userKey.signSchnorr(hash),
    };
    expect(
      await codeOf(
        signHtlcPsbt({ ecc, intent: deposit.intent, quote: deposit.quote, userPublicKey, signer }),
      ),
    ).toBe("BTC_SIGNATURE_INVALID");
  });

  it("refuses an external signer's high-S ECDSA signature, which nodes do not relay (LOW_S)", async () => {
    const deposit = buildDeposit();
    const { crypto } = await import("bitcoinjs-lib");
    const tweaked = userKey.tweak(crypto.taggedHash("TapTweak", userKey.publicKey.slice(1)));
    const n = BigInt("0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");
    const highS = (sig: Uint8Array) => {
      const s = n - BigInt(`0x${hex(sig.slice(32))}`);
      return Uint8Array.from([...sig.slice(0, 32), ...Buffer.from(s.toString(16).padStart(64, "0"), "hex")]);
    };
    const signer = {
      publicKey: userKey.publicKey,
      sign: async (hash: Uint8Array) => highS(userKey.sign(hash)),
      signSchnorr: async (hash: Uint8Array) => tweaked.signSchnorr(hash),
    };
    // bitcore's interpreter (with LOW_S) refuses such a signature.
    const p = Psbt.fromBase64(deposit.psbt);
    p.signInput(0, tweaked);
    p.signInput(1, { publicKey: userKey.publicKey, sign: (hash: Uint8Array) => highS(userKey.sign(hash)) });
    p.finalizeAllInputs();
    expect(runInterpreter({ txHex: p.extractTransaction().toHex(), prevouts: deposit.prevouts })[1]).toMatch(
      /LOW_S|HIGH_S/,
    );
    expect(
      await codeOf(
        signHtlcPsbt({ ecc, intent: deposit.intent, quote: deposit.quote, userPublicKey, signer }),
      ),
    ).toBe("BTC_SIGNATURE_INVALID");
  });

  it("refuses an external signer that returns malformed Schnorr bytes with a typed error", async () => {
    const deposit = buildDeposit();
    const signer = {
      publicKey: userKey.publicKey,
      sign: async (hash: Uint8Array) => userKey.sign(hash),
      signSchnorr: async () => new Uint8Array(10).fill(1),
    };
    expect(
      await codeOf(
        signHtlcPsbt({ ecc, intent: deposit.intent, quote: deposit.quote, userPublicKey, signer }),
      ),
    ).toBe("BTC_SIGNATURE_INVALID");
  });

  it("signs through a wallet's signPsbt and re-verifies what it returns", async () => {
    const deposit = buildDeposit();
    const seen: number[][] = [];
    const wallet = {
      publicKey: userKey.publicKey,
      signPsbt: async ({ psbt: base64, inputs }: SignPsbtParameters) => {
        seen.push(inputs);
        const p = Psbt.fromBase64(base64);
        for (const i of inputs) {
          if (p.data.inputs[i]!.tapInternalKey) {
            p.signInput(
              i,
              userKey.tweak(
                (await import("bitcoinjs-lib")).crypto.taggedHash("TapTweak", userKey.publicKey.slice(1)),
              ),
            );
          } else p.signInput(i, userKey);
          p.finalizeInput(i);
        }
        return p.toBase64();
      },
    };
    const { psbt } = await signHtlcPsbt({
      ecc,
      intent: deposit.intent,
      quote: deposit.quote,
      userPublicKey,
      signer: wallet,
    });
    expect(seen).toEqual([[0, 1]]);
    expect(runInterpreter({ txHex: extract(psbt), prevouts: deposit.prevouts })).toEqual([null, null]);
  });

  it("refuses a wallet that changes the transaction", async () => {
    const deposit = buildDeposit();
    const wallet = {
      publicKey: userKey.publicKey,
      signPsbt: async ({ psbt: base64 }: SignPsbtParameters) => {
        const p = Psbt.fromBase64(base64);
        p.setLocktime(5);
        return p.toBase64();
      },
    };
    expect(
      await codeOf(
        signHtlcPsbt({ ecc, intent: deposit.intent, quote: deposit.quote, userPublicKey, signer: wallet }),
      ),
    ).toBe("BTC_TX_MODIFIED");
  });

  it("refuses a wallet Taproot signature whose sighash byte is not the one its digest was made for", async () => {
    // The wallet signs the SIGHASH_DEFAULT digest but appends SIGHASH_ALL (0x01): on chain that signature is
    // checked against the ALL digest and fails, so the package must not accept it.
    const deposit = buildDeposit();
    const { crypto } = await import("bitcoinjs-lib");
    const tweaked = userKey.tweak(crypto.taggedHash("TapTweak", userKey.publicKey.slice(1)));
    const wallet = {
      publicKey: userKey.publicKey,
      signPsbt: async ({ psbt: base64 }: SignPsbtParameters) => {
        const p = Psbt.fromBase64(base64);
        p.signInput(0, tweaked);
        p.signInput(1, userKey);
        const sig = p.data.inputs[0]!.tapKeySig!;
        p.data.inputs[0]!.tapKeySig = Uint8Array.from([...sig, 0x01]);
        return p.toBase64();
      },
    };
    // A wallet that signs what the PSBT asks for (SIGHASH_ALL, 65 bytes) is accepted and valid on chain.
    const asksAll = buildDeposit({
      inputs: [
        { kind: "p2tr", value: 60_000n, sighashType: 0x01 },
        { kind: "p2wpkh", value: 50_000n },
      ],
    });
    const honest = {
      publicKey: userKey.publicKey,
      signPsbt: async ({ psbt: base64 }: SignPsbtParameters) => {
        const p = Psbt.fromBase64(base64);
        p.signInput(0, tweaked, [0x01]);
        p.signInput(1, userKey);
        return p.toBase64();
      },
    };
    const signed = await signHtlcPsbt({
      ecc,
      intent: asksAll.intent,
      quote: asksAll.quote,
      userPublicKey,
      signer: honest,
    });
    expect(runInterpreter({ txHex: extract(signed.psbt), prevouts: asksAll.prevouts })).toEqual([null, null]);
    // The independent interpreter refuses what the lying wallet returns; so does the signer: the signature is checked
    // against the digest its own byte names, and does not verify there.
    const returned = Psbt.fromBase64(
      await wallet.signPsbt({ psbt: deposit.psbt, inputs: [0], signInputs: [] }),
    );
    returned.finalizeAllInputs();
    expect(
      runInterpreter({ txHex: returned.extractTransaction().toHex(), prevouts: deposit.prevouts })[0],
    ).not.toBeNull();
    expect(
      await codeOf(
        signHtlcPsbt({ ecc, intent: deposit.intent, quote: deposit.quote, userPublicKey, signer: wallet }),
      ),
    ).toBe("BTC_SIGNATURE_INVALID");
  });

  it("refuses a wallet that signs with SIGHASH_NONE", async () => {
    const deposit = buildDeposit();
    const wallet = {
      publicKey: userKey.publicKey,
      signPsbt: async ({ psbt: base64 }: SignPsbtParameters) => {
        const p = Psbt.fromBase64(base64);
        p.updateInput(1, { sighashType: 0x02 });
        p.signInput(1, userKey, [0x02]);
        p.signInput(
          0,
          userKey.tweak(
            (await import("bitcoinjs-lib")).crypto.taggedHash("TapTweak", userKey.publicKey.slice(1)),
          ),
        );
        return p.toBase64();
      },
    };
    expect(
      await codeOf(
        signHtlcPsbt({ ecc, intent: deposit.intent, quote: deposit.quote, userPublicKey, signer: wallet }),
      ),
    ).toBe("BTC_SIGHASH_NOT_ALLOWED");
  });

  it("refuses two P2WPKH inputs without nonWitnessUtxo: amount lies in two requests combine into a huge fee", async () => {
    // Two real 100,000-sat P2WPKH UTXOs of the user; each request lies that the other input holds 1,000 sat, so
    // each shows a 500-sat fee. The real transaction burns 99,500 sat in fees.
    const outputs = [{ script: p2trOf(userKey), value: 500n }];
    const requests = [
      buildDeposit({
        inputs: [
          { kind: "p2wpkh", value: 100_000n },
          { kind: "p2wpkh", value: 100_000n, claimedValue: 1_000n },
        ],
        outputs,
      }),
      buildDeposit({
        inputs: [
          { kind: "p2wpkh", value: 100_000n, claimedValue: 1_000n },
          { kind: "p2wpkh", value: 100_000n },
        ],
        outputs,
      }),
    ];
    // Why it matters, shown with bitcoinjs and bitcore alone: the honest half of each request combines into a
    // transaction the interpreter accepts.
    const [a, b] = requests.map((d) => {
      const p = Psbt.fromBase64(d.psbt);
      p.signAllInputs(userKey).finalizeAllInputs();
      return p.extractTransaction(true);
    });
    a!.ins[1]!.witness = b!.ins[1]!.witness;
    expect(runInterpreter({ txHex: a!.toHex(), prevouts: requests[0]!.prevouts })).toEqual([null, null]);
    // The package refuses both requests.
    for (const d of requests) {
      expect(
        await codeOf(signHtlcPsbt({ ecc, intent: d.intent, quote: d.quote, userPublicKey, signer: userKey })),
      ).toBe("BTC_NON_WITNESS_UTXO_REQUIRED");
    }
    // With every previous transaction attached the lie is caught, and the honest PSBT signs.
    const lying = buildDeposit({
      inputs: [
        { kind: "p2wpkh", value: 100_000n, nonWitness: true },
        { kind: "p2wpkh", value: 100_000n, nonWitness: true, claimedValue: 1_000n },
      ],
      outputs,
    });
    expect(
      await codeOf(
        signHtlcPsbt({ ecc, intent: lying.intent, quote: lying.quote, userPublicKey, signer: userKey }),
      ),
    ).toBe("BTC_UTXO_MISMATCH");
    const honest = buildDeposit({
      inputs: [
        { kind: "p2wpkh", value: 60_000n, nonWitness: true },
        { kind: "p2wpkh", value: 50_000n, nonWitness: true },
      ],
    });
    const { psbt } = await signHtlcPsbt({
      ecc,
      intent: honest.intent,
      quote: honest.quote,
      userPublicKey,
      signer: userKey,
    });
    expect(runInterpreter({ txHex: extract(psbt), prevouts: honest.prevouts })).toEqual([null, null]);
  });

  it("refuses a signer that is not the user's key, and verifies before asking it to sign", async () => {
    const deposit = buildDeposit();
    expect(
      await codeOf(
        signHtlcPsbt({
          ecc,
          intent: deposit.intent,
          quote: deposit.quote,
          userPublicKey,
          signer: strangerKey,
        }),
      ),
    ).toBe("BTC_SIGNER_KEY_MISMATCH");
    let asked = false;
    const tampered = buildDeposit({ htlcValue: 1_000n });
    const signer = {
      publicKey: userKey.publicKey,
      sign: (hash: Uint8Array) => {
        asked = true;
        return userKey.sign(hash);
      },
    };
    expect(
      await codeOf(
        signHtlcPsbt({ ecc, intent: tampered.intent, quote: tampered.quote, userPublicKey, signer }),
      ),
    ).toBe("BTC_HTLC_AMOUNT_MISMATCH");
    expect(asked).toBe(false);
  });
});
