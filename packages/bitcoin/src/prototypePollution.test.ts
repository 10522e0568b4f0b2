// A field the caller left out is absent from the parameter copy, not read from Object.prototype: an app whose
// Object.prototype was polluted (a merge or query-string library writing `__proto__` keys) must not hand the
// attacker the refund's destination, the policy, its limits or the clock. Each polluted field is defined
// non-enumerable for the test only, and removed after.
import { Transaction } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { afterEach, describe, expect, it } from "vitest";
import { buildDeposit, hex, p2trOf, p2wpkhOf, strangerKey, userKey } from "../test/fixtures.js";
import { isBitcoinError } from "./errors.js";
import { signHtlcPsbt, signHtlcRefund, verifyHtlcPsbt } from "./index.js";

const userPublicKey = hex(userKey.publicKey);
const deposit = buildDeposit();
const signed = await signHtlcPsbt({
  ecc,
  intent: deposit.intent,
  quote: deposit.quote,
  userPublicKey,
  signer: userKey,
});
const polluted: string[] = [];

function pollute(key: string, value: unknown) {
  Object.defineProperty(Object.prototype, key, { value, configurable: true, writable: true });
  polluted.push(key);
}

afterEach(() => {
  for (const key of polluted.splice(0)) delete (Object.prototype as Record<string, unknown>)[key];
});

function verifyOutcome() {
  try {
    verifyHtlcPsbt({ ecc, intent: deposit.intent, quote: deposit.quote, userPublicKey });
    return "verified";
  } catch (error) {
    return isBitcoinError(error) ? error.code : error;
  }
}

describe("a polluted Object.prototype does not reach the parameter copy", () => {
  it("the refund's default destination stays the user's script", async () => {
    pollute("destinationScript", p2wpkhOf(strangerKey));
    const refund = await signHtlcRefund({
      ecc,
      depositPsbt: signed.psbt,
      userPublicKey,
      signer: userKey,
      feeLots: 300n,
    });
    expect(hex(Transaction.fromHex(refund.txHex).outs[0]!.script)).toBe(hex(p2trOf(userKey)));
  });

  it("a policy, a policy field left out, or a clock the caller did not pass is not read", () => {
    const cases: [string, unknown][] = [
      ["policy", { maxFeeLots: 1n }],
      ["resolverPublicKey", hex(strangerKey.publicKey.slice(1))],
      ["changeScriptType", "p2wpkh"],
      ["nowMs", Date.now() + 10 * 86_400_000],
    ];
    for (const [key, value] of cases) {
      pollute(key, value);
      expect(verifyOutcome(), key).toBe("verified");
      delete (Object.prototype as Record<string, unknown>)[key];
    }
  });
});
