import { p2tr, Script, TAPROOT_UNSPENDABLE_KEY, Transaction } from "@scure/btc-signer";
import { Psbt } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import {
  AMOUNT,
  buildDeposit,
  hex,
  p2trOf,
  resolverKey,
  SECRET_HASH,
  userKey,
  xOnly,
} from "../test/fixtures.js";
import { buildHtlcLeaves } from "./buildHtlcLeaves.js";
import { NUMS_INTERNAL_KEY_HEX } from "./constants.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";

const REGTEST = { bech32: "bcrt", pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef };

describe("PSBTs read by @scure/btc-signer (an independent implementation)", () => {
  it("agrees on the NUMS key and on the HTLC output built from our leaves", () => {
    expect(hex(TAPROOT_UNSPENDABLE_KEY)).toBe(NUMS_INTERNAL_KEY_HEX);
    const leaves = buildHtlcLeaves({
      secretHash: SECRET_HASH,
      resolverXOnly: xOnly(resolverKey),
      userXOnly: xOnly(userKey),
      csvBlocks: 144,
    });
    expect(Script.decode(leaves.claim)).toEqual([
      "SHA256",
      SECRET_HASH,
      "EQUALVERIFY",
      xOnly(resolverKey),
      "CHECKSIG",
    ]);
    // 144 as a minimal little-endian script number is 0x90 0x00
    expect(Script.decode(leaves.refund)).toEqual([
      Uint8Array.from([0x90, 0x00]),
      "CHECKSEQUENCEVERIFY",
      "DROP",
      xOnly(userKey),
      "CHECKSIG",
    ]);
    const scureHtlc = p2tr(
      TAPROOT_UNSPENDABLE_KEY,
      [{ script: leaves.claim }, { script: leaves.refund }],
      REGTEST,
      true,
    );
    expect(hex(scureHtlc.script)).toBe(hex(buildDeposit().htlcScript));
    expect(scureHtlc.address?.startsWith("bcrt1p")).toBe(true);
  });

  it("reads the signed deposit: outputs, amounts, tap tree, final witnesses", async () => {
    const deposit = buildDeposit();
    const { psbt } = await signHtlcPsbt({
      ecc,
      intent: deposit.intent,
      quote: deposit.quote,
      userPublicKey: hex(userKey.publicKey),
      signer: userKey,
    });
    const tx = Transaction.fromPSBT(Buffer.from(psbt, "base64"));
    expect(tx.outputsLength).toBe(2);
    expect(tx.inputsLength).toBe(2);
    const htlc = tx.getOutput(0);
    expect(htlc.amount).toBe(AMOUNT);
    expect(hex(htlc.tapInternalKey!)).toBe(NUMS_INTERNAL_KEY_HEX);
    expect(htlc.tapTree?.map((l) => [l.depth, l.version])).toEqual([
      [1, 0xc0],
      [1, 0xc0],
    ]);
    const rebuilt = p2tr(
      TAPROOT_UNSPENDABLE_KEY,
      htlc.tapTree!.map((l) => ({ script: l.script })),
      REGTEST,
      true,
    );
    expect(hex(rebuilt.script)).toBe(hex(htlc.script!));
    expect(tx.getOutput(1).amount).toBe(9_000n);
    expect(hex(tx.getOutput(1).script!)).toBe(hex(p2trOf(userKey)));
    expect(tx.getOutputAddress(1, REGTEST)?.startsWith("bcrt1p")).toBe(true);
    expect(tx.isFinal).toBe(true);
    expect(hex(tx.extract())).toBe(Psbt.fromBase64(psbt).extractTransaction().toHex());
  });
});
