// Change to the user's key, but to the script type the user's coins do not come from. BIP-84 (P2WPKH) and BIP-86
// (P2TR) wallets derive different keys, and single-key wallets show one address type at a time, so the same key's
// other script type is an address the wallet never watches: change sent there disappears from it. Unless the caller
// pins `policy.changeScriptType`, the change must be of a type the listed inputs spend.
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { attempt } from "../test/attempt.js";
import { buildDeposit, type Deposit, hex, p2trOf, p2wpkhOf, strangerKey, userKey } from "../test/fixtures.js";
import { createSatsConnectStandin } from "../test/walletStandins.js";
import { isBitcoinError } from "./errors.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import { verifyHtlcPsbt } from "./verifyHtlcPsbt/verifyHtlcPsbt.js";
import { createSatsConnectWalletSigner, type SatsConnectRequest } from "./wallets.js";

const userPublicKey = hex(userKey.publicKey);

/** The user's coins of `kinds` (listed; P2WPKH ones with their previous transaction) and change to `change`. */
function deposit(kinds: ("p2tr" | "p2wpkh")[], change: Uint8Array): Deposit {
  return buildDeposit({
    inputs: kinds.map((kind) => ({ kind, value: 110_000n / BigInt(kinds.length), nonWitness: true })),
    outputs: [{ script: change, value: 9_000n }],
  });
}

function refusal(d: Deposit): unknown {
  try {
    verifyHtlcPsbt({ ecc, ...d, userPublicKey });
    return "ACCEPTED";
  } catch (error) {
    if (!isBitcoinError(error)) throw error;
    return { code: error.code, details: error.details };
  }
}

describe("change of a script type the user's coins do not come from (nothing pinned)", () => {
  it("refuses P2TR change from P2WPKH coins only (a BIP-84 wallet never watches the key's P2TR)", async () => {
    const d = deposit(["p2wpkh", "p2wpkh"], p2trOf(userKey));
    expect(refusal(d)).toEqual({
      code: "BTC_CHANGE_SCRIPT_MISMATCH",
      details: { output: 1, kind: "p2tr", changeScriptType: "p2wpkh" },
    });
    expect(await attempt(d)).toEqual({ code: "BTC_CHANGE_SCRIPT_MISMATCH", uses: 0 });
  });

  it("refuses P2WPKH change from P2TR coins only (a BIP-86 wallet never watches the key's P2WPKH)", async () => {
    const d = deposit(["p2tr"], p2wpkhOf(userKey));
    expect(refusal(d)).toEqual({
      code: "BTC_CHANGE_SCRIPT_MISMATCH",
      details: { output: 1, kind: "p2wpkh", changeScriptType: "p2tr" },
    });
    expect(await attempt(d)).toEqual({ code: "BTC_CHANGE_SCRIPT_MISMATCH", uses: 0 });
  });

  it("never asks a sats-connect wallet (its P2WPKH payment key) to sign change to that key's P2TR", async () => {
    let asked = 0;
    const request = createSatsConnectStandin({
      key: userKey,
      other: strangerKey,
      onSign: () => asked++,
    }) as unknown as SatsConnectRequest;
    const signer = createSatsConnectWalletSigner({ request, publicKey: userPublicKey });
    const d = deposit(["p2wpkh"], p2trOf(userKey));
    const outcome = await signHtlcPsbt({ ecc, ...d, userPublicKey, signer }).then(
      () => "ACCEPTED",
      (error: unknown) => (isBitcoinError(error) ? error.code : error),
    );
    expect({ outcome, asked }).toEqual({ outcome: "BTC_CHANGE_SCRIPT_MISMATCH", asked: 0 });
  });

  it("accepts change of the coins' own type, and either type when the coins are of both", async () => {
    expect(await attempt(deposit(["p2wpkh"], p2wpkhOf(userKey)))).toEqual({ code: "ACCEPTED", uses: 1 });
    expect(await attempt(deposit(["p2tr"], p2trOf(userKey)))).toEqual({ code: "ACCEPTED", uses: 1 });
    expect((await attempt(deposit(["p2tr", "p2wpkh"], p2wpkhOf(userKey)))).code).toBe("ACCEPTED");
    expect((await attempt(deposit(["p2tr", "p2wpkh"], p2trOf(userKey)))).code).toBe("ACCEPTED");
  });

  it("a pinned policy.changeScriptType decides over the coins' type (a wallet that watches the key's both types)", async () => {
    expect((await attempt(deposit(["p2wpkh"], p2trOf(userKey)), { changeScriptType: "p2tr" })).code).toBe(
      "ACCEPTED",
    );
    expect(
      await attempt(deposit(["p2tr", "p2wpkh"], p2wpkhOf(userKey)), { changeScriptType: "p2tr" }),
    ).toEqual({ code: "BTC_CHANGE_SCRIPT_MISMATCH", uses: 0 });
  });
});
