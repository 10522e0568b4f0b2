// The service as an attacker, for the shapes no other test pins: a deposit that spends one outpoint
// twice (consensus refuses it: bad-txns-inputs-duplicate), and global PSBT fields of BIP-370 (PSBT version 2) and
// BIP-174 written as raw bytes. Each is refused before the key is used; the protection for duplicates is bitcoinjs'
// parser, so this pins it should a later version stop checking.
import { Psbt, type Transaction } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { buildDeposit, hex, spySigner, strangerKey, userKey } from "../test/fixtures.js";
import { isBitcoinError } from "./errors.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import { signHtlcRefund } from "./signHtlcRefund.js";

const userPublicKey = hex(userKey.publicKey);

async function codeOf(deposit: ReturnType<typeof buildDeposit>, psbtBase64: string) {
  deposit.intent.paramsToSign.psbt = psbtBase64;
  const signer = spySigner();
  try {
    await signHtlcPsbt({ ecc, intent: deposit.intent, quote: deposit.quote, userPublicKey, signer });
    return "ACCEPTED";
  } catch (error) {
    expect(signer.uses).toBe(0);
    return isBitcoinError(error) ? error.code : `RAW ${String(error)}`;
  }
}

/** The deposit's PSBT with input `to` spending input `from`'s outpoint (everything else as built). */
function duplicated(deposit: ReturnType<typeof buildDeposit>, from: number, to: number): string {
  const psbt = Psbt.fromBase64(deposit.intent.paramsToSign.psbt);
  const tx = (psbt.data.globalMap.unsignedTx as unknown as { tx: Transaction }).tx;
  tx.ins[to]!.hash = tx.ins[from]!.hash;
  tx.ins[to]!.index = tx.ins[from]!.index;
  return psbt.toBase64();
}

/** The PSBT with a raw global key-value pair inserted after the unsigned transaction. */
function withGlobal(base64: string, key: number[], value: number[]): string {
  const bytes = Buffer.from(base64, "base64");
  let i = 5 + 1 + bytes[5]!; // magic, then the unsigned tx's key
  const short = bytes[i]!;
  i += short === 0xfd ? 3 + bytes.readUInt16LE(i + 1) : 1 + short;
  const pair = Buffer.from([key.length, ...key, value.length, ...value]);
  return Buffer.concat([bytes.subarray(0, i), pair, bytes.subarray(i)]).toString("base64");
}

describe("the service's deposit, attacked where no other test looked", () => {
  it("spends one outpoint twice: refused (two listed inputs, or a listed and an unlisted one)", async () => {
    const twoListed = buildDeposit({
      inputs: [
        { kind: "p2tr", value: 60_000n },
        { kind: "p2tr", value: 50_000n },
      ],
    });
    expect(await codeOf(twoListed, duplicated(twoListed, 0, 1))).toBe("BTC_PSBT_INVALID");
    const withService = buildDeposit({
      inputs: [
        { kind: "p2tr", value: 60_000n },
        { kind: "p2tr", value: 50_000n, owner: strangerKey },
      ],
      listed: [0],
    });
    expect(await codeOf(withService, duplicated(withService, 0, 1))).toBe("BTC_PSBT_INVALID");
  });

  it("carries a BIP-370 or unknown global field: refused, whatever its value", async () => {
    const cases: [number[], number[]][] = [
      [[0xfb], [0, 0, 0, 0]], // PSBT_GLOBAL_VERSION 0 (explicit)
      [[0xfb], [2, 0, 0, 0]], // PSBT_GLOBAL_VERSION 2
      [[0x02], [2, 0, 0, 0]], // PSBT_GLOBAL_TX_VERSION (v2 only)
      [[0x04], [1]], // PSBT_GLOBAL_INPUT_COUNT (v2 only)
      [[0xfc, 0x01, 0x41], [1]], // proprietary
      [[0x99], [1]], // unknown
    ];
    for (const [key, value] of cases) {
      const deposit = buildDeposit();
      expect(await codeOf(deposit, withGlobal(deposit.intent.paramsToSign.psbt, key, value))).toBe(
        "BTC_PSBT_FIELD_NOT_ALLOWED",
      );
    }
  });
});

describe("the deposit handed to signHtlcRefund, attacked", () => {
  it("an HTLC internal key off the curve is the HTLC's fault (BTC_HTLC_SCRIPT_MISMATCH), never an ecc failure", async () => {
    // Before: tiny-secp256k1's "Expected Point" escaped raw from bitcoinjs' p2tr, then (read-once ecc) it named the
    // backend. The NUMS check now runs before any point math on the service's key.
    for (const key of [new Uint8Array(32).fill(0xff), new Uint8Array(32), strangerKey.publicKey.slice(1)]) {
      const deposit = buildDeposit();
      const psbt = Psbt.fromBase64(deposit.intent.paramsToSign.psbt);
      psbt.data.outputs[0]!.tapInternalKey = key;
      const signer = spySigner();
      const error = await signHtlcRefund({
        ecc,
        depositPsbt: psbt.toBase64(),
        userPublicKey,
        signer,
        feeLots: 300n,
      }).catch((e: unknown) => e);
      expect(isBitcoinError(error, "BTC_HTLC_SCRIPT_MISMATCH"), String(error)).toBe(true);
      expect(signer.uses).toBe(0);
    }
  });
});

describe("a buggy key signer's refund signature", () => {
  it("is BTC_SIGNATURE_INVALID whatever its bytes, never an ecc failure", async () => {
    const deposit = buildDeposit();
    for (const bad of [new Uint8Array(64).fill(0xff), new Uint8Array(64), new Uint8Array(64).fill(1)]) {
      const signer = { publicKey: userKey.publicKey, sign: () => bad, signSchnorr: () => bad };
      const error = await signHtlcRefund({
        ecc,
        depositPsbt: deposit.intent.paramsToSign.psbt,
        userPublicKey,
        signer,
        feeLots: 300n,
      }).catch((e: unknown) => e);
      expect(isBitcoinError(error, "BTC_SIGNATURE_INVALID"), String(error)).toBe(true);
    }
  });
});
