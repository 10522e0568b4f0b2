// Wallet signatures in shapes the chain refuses (sighash bytes, DER, high S), each checked on bitcore's interpreter.
import { isSwapIntentError } from "@swapintent/client";
import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { crypto, Psbt, script, Transaction } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { tamper } from "../../test/attempt.js";
import { buildDeposit, type Deposit, hex, userKey } from "../../test/fixtures.js";
import { signHtlcPsbt } from "../signHtlcPsbt.js";
import type { PsbtWalletSigner } from "../types.js";

const userPublicKey = hex(userKey.publicKey);
const tapTweak = crypto.taggedHash("TapTweak", userKey.publicKey.slice(1));

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
