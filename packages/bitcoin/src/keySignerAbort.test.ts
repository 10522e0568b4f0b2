import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { crypto, Psbt } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { buildDeposit, hex, userKey } from "../test/fixtures.js";
import { isBitcoinError } from "./errors.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import type { KeySigner } from "./types.js";

const userPublicKey = hex(userKey.publicKey);
const getTapTweak = () => crypto.taggedHash("TapTweak", userKey.publicKey.slice(1));

describe("a key signer is never asked again once the caller aborted", () => {
  /** The user's key behind a signer whose first signature waits until `release`; counts every request. */
  function gatedSigner() {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const counts = { sign: 0, signSchnorr: 0 };
    const tweaked = userKey.tweak(Uint8Array.from(getTapTweak()));
    const signer: KeySigner = {
      publicKey: userKey.publicKey,
      sign: async (hash) => {
        counts.sign++;
        await gate;
        return userKey.sign(hash);
      },
      // An external signer: no `tweak`, its Schnorr signatures are made with the BIP-86-tweaked key.
      signSchnorr: async (hash) => {
        counts.signSchnorr++;
        await gate;
        return tweaked.signSchnorr(hash);
      },
    };
    return { signer, counts, release };
  }

  for (const kinds of [
    ["p2wpkh", "p2wpkh"],
    ["p2tr", "p2wpkh"],
    ["p2wpkh", "p2tr"],
  ] as const) {
    it(`${kinds.join(" + ")}: aborted during the first signature, the second is never requested`, async () => {
      const deposit = buildDeposit({
        inputs: kinds.map((kind, i) => ({ kind, value: 60_000n - BigInt(i) * 10_000n, nonWitness: true })),
      });
      const { signer, counts, release } = gatedSigner();
      const controller = new AbortController();
      const pending = signHtlcPsbt({ ecc, ...deposit, userPublicKey, signer, signal: controller.signal });
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(counts.sign + counts.signSchnorr).toBe(1);
      controller.abort();
      const outcome = await pending.then(
        () => "ACCEPTED",
        (error: unknown) => (isBitcoinError(error) ? error.code : error),
      );
      expect(outcome).toBe("BTC_SIGNING_ABORTED");
      // The signer answers after the abort: nothing more may be asked of it.
      release();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(counts.sign + counts.signSchnorr).toBe(1);
    });
  }

  it("without an abort the same signer signs both inputs and bitcore's interpreter accepts the deposit", async () => {
    const deposit = buildDeposit();
    const { signer, counts, release } = gatedSigner();
    release();
    const { psbt } = await signHtlcPsbt({
      ecc,
      ...deposit,
      userPublicKey,
      signer,
      signal: new AbortController().signal,
    });
    expect(counts).toEqual({ sign: 1, signSchnorr: 1 });
    const txHex = Psbt.fromBase64(psbt).extractTransaction().toHex();
    expect(runInterpreter({ txHex, prevouts: deposit.prevouts })).toEqual([null, null]);
  });
});
