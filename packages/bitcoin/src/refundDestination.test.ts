// Where the refund goes when the caller names no destination: the script type the user's wallet watches. A P2WPKH
// (BIP-84) wallet's coins refunded to the same key's P2TR output would not show in that wallet (BIP-86 derives
// another key path, and single-key wallets show one address type), so the default follows the deposit: its change
// type (the type the signer verified, `policy.changeScriptType` or the inputs' type), else the user's inputs' type.
import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { Transaction } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import {
  AMOUNT,
  buildDeposit,
  type DepositOptions,
  hex,
  p2trOf,
  p2wpkhOf,
  userKey,
} from "../test/fixtures.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import { signHtlcRefund } from "./signHtlcRefund.js";
import type { HtlcPolicyParameters } from "./types.js";

const userPublicKey = hex(userKey.publicKey);

async function defaultRefund(options: DepositOptions, policy?: HtlcPolicyParameters) {
  const deposit = buildDeposit(options);
  const { psbt } = await signHtlcPsbt({
    ecc,
    intent: deposit.intent,
    quote: deposit.quote,
    userPublicKey,
    signer: userKey,
    policy,
  });
  const refund = await signHtlcRefund({
    ecc,
    depositPsbt: psbt,
    userPublicKey,
    signer: userKey,
    feeLots: 300n,
  });
  // The refund is valid whatever it pays: bitcore's interpreter runs the refund leaf.
  expect(
    runInterpreter({ txHex: refund.txHex, prevouts: [{ script: deposit.htlcScript, value: AMOUNT }] }),
  ).toEqual([null]);
  return hex(Transaction.fromHex(refund.txHex).outs[0]!.script);
}

describe("signHtlcRefund's default destination is the script type the user's wallet watches", () => {
  it("a P2WPKH wallet's deposit (P2WPKH coins, P2WPKH change) is refunded to its P2WPKH script", async () => {
    const options: DepositOptions = { inputs: [{ kind: "p2wpkh", value: 110_000n }] };
    expect(await defaultRefund(options)).toBe(hex(p2wpkhOf(userKey)));
  });

  it("with no change output, the type of the user's coins", async () => {
    const p2wpkh: DepositOptions = { inputs: [{ kind: "p2wpkh", value: 100_500n }], outputs: [] };
    expect(await defaultRefund(p2wpkh)).toBe(hex(p2wpkhOf(userKey)));
    const p2tr: DepositOptions = { inputs: [{ kind: "p2tr", value: 100_500n }], outputs: [] };
    expect(await defaultRefund(p2tr)).toBe(hex(p2trOf(userKey)));
  });

  it("coins of both types: the change's type, which the wallet pinned with policy.changeScriptType", async () => {
    const inputs: DepositOptions["inputs"] = [
      { kind: "p2tr", value: 60_000n },
      { kind: "p2wpkh", value: 50_000n },
    ];
    expect(
      await defaultRefund(
        { inputs, outputs: [{ script: p2wpkhOf(userKey), value: 9_000n }] },
        {
          changeScriptType: "p2wpkh",
        },
      ),
    ).toBe(hex(p2wpkhOf(userKey)));
    expect(await defaultRefund({ inputs })).toBe(hex(p2trOf(userKey)));
  });

  it("a P2TR wallet's deposit is refunded to its P2TR script", async () => {
    expect(await defaultRefund({ inputs: [{ kind: "p2tr", value: 110_000n }] })).toBe(hex(p2trOf(userKey)));
  });
});
