// The deposit transaction's structure: one outpoint spent twice (consensus refuses it: bad-txns-inputs-duplicate)
// and global PSBT fields of BIP-370 (PSBT version 2) or unknown ones, refused before the key is used.
import { Psbt, type Transaction } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { buildDeposit, hex, spySigner, strangerKey, userKey } from "../test/fixtures.js";
import { isBitcoinError } from "./errors.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";

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
