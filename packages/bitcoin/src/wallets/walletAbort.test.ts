// A signer that never answers, or answers after the caller gave up (signal).
import { isSwapIntentError } from "@swapintent/client";
import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { crypto, Psbt } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { buildDeposit, hex, userKey, xOnly } from "../../test/fixtures.js";
import { signHtlcPsbt } from "../signHtlcPsbt.js";
import type { KeySigner, PsbtWalletSigner, SignPsbtParameters } from "../types.js";

const userPublicKey = hex(userKey.publicKey);
const tweaked = userKey.tweak(crypto.taggedHash("TapTweak", xOnly(userKey)));

/** A wallet that signs what it is asked honestly, then hands back whatever `answer` makes of it. */
function wallet(
  answer: (signed: Psbt, request: SignPsbtParameters) => unknown,
  before?: (request: SignPsbtParameters) => void,
): PsbtWalletSigner {
  return {
    publicKey: userKey.publicKey,
    signPsbt: async (request) => {
      before?.(request);
      const psbt = Psbt.fromBase64(request.psbt);
      for (const { index, kind, sighashType } of request.signInputs) {
        psbt.signInput(index, (kind === "p2tr" ? tweaked : userKey) as never, [sighashType]);
      }
      return answer(psbt, request) as string;
    },
  };
}

const b64 = (p: Psbt) => p.toBase64();

describe("a signer that never answers, or answers after the caller gave up (signal)", () => {
  /** A wallet whose answer waits for `release` (never, unless called), counting its calls. */
  function pending() {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const calls: number[] = [];
    const signer = wallet(
      async (p) => {
        await gate;
        return b64(p);
      },
      () => calls.push(1),
    );
    return { signer, calls, release: () => release() };
  }

  async function signWith(
    signer: PsbtWalletSigner | KeySigner,
    signal: AbortSignal,
    deposit = buildDeposit(),
  ) {
    try {
      await signHtlcPsbt({
        ecc,
        intent: deposit.intent,
        quote: deposit.quote,
        userPublicKey,
        signer,
        signal,
      });
      return { code: "ACCEPTED" };
    } catch (error) {
      if (!isSwapIntentError(error)) throw error;
      return { code: error.code, details: error.details };
    }
  }

  it("an already aborted signal is refused before the wallet is asked", async () => {
    const { signer, calls } = pending();
    const result = await signWith(signer, AbortSignal.abort());
    expect(result).toEqual({ code: "BTC_SIGNING_ABORTED", details: { stage: "beforeSigning" } });
    expect(calls).toHaveLength(0);
  });

  it("a wallet that never answers: aborting rejects at once", async () => {
    const { signer, calls } = pending();
    const controller = new AbortController();
    const result = signWith(signer, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(calls).toHaveLength(1);
    controller.abort();
    expect(await result).toEqual({ code: "BTC_SIGNING_ABORTED", details: { stage: "whileSigning" } });
  });

  it("a wallet that answers after the abort never yields an approval", async () => {
    const { signer, release } = pending();
    const controller = new AbortController();
    const result = signWith(signer, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    release();
    expect(await result).toEqual({ code: "BTC_SIGNING_ABORTED", details: { stage: "whileSigning" } });
  });

  it("a key signer that hangs: aborting rejects at once", async () => {
    const hanging: KeySigner = {
      publicKey: userKey.publicKey,
      sign: () => new Promise<Uint8Array>(() => {}),
      signSchnorr: () => new Promise<Uint8Array>(() => {}),
    };
    const controller = new AbortController();
    const result = signWith(hanging, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect(await result).toEqual({ code: "BTC_SIGNING_ABORTED", details: { stage: "whileSigning" } });
  });

  it("a signal that never aborts changes nothing: the deposit is approved, and bitcore's interpreter accepts it", async () => {
    const deposit = buildDeposit();
    const signed = await signHtlcPsbt({
      ecc,
      intent: deposit.intent,
      quote: deposit.quote,
      userPublicKey,
      signer: wallet((p) => b64(p)),
      signal: new AbortController().signal,
    });
    const tx = Psbt.fromBase64(signed.psbt).extractTransaction().toHex();
    expect(runInterpreter({ txHex: tx, prevouts: deposit.prevouts })).toEqual([null, null]);
  });
});
