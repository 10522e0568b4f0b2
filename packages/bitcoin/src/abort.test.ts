// The caller's `signal` (signHtlcPsbt): the abort's reason is the error's `cause`, and a hostile or broken signal
// (a getter that throws, a listener fired while it is added, an `addEventListener` that throws, not a signal at all)
// is a coded refusal before any key or wallet is used, never a TypeError after the wallet was asked.
import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { crypto, Psbt } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { buildDeposit, hex, userKey, xOnly } from "../test/fixtures.js";
import { isBitcoinError } from "./errors.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import type { KeySigner, PsbtWalletSigner } from "./types.js";

const userPublicKey = hex(userKey.publicKey);
const tweaked = userKey.tweak(crypto.taggedHash("TapTweak", xOnly(userKey)));

/** An honest wallet whose answer waits for `gate`; `uses` counts every call. */
function countingWallet(gate: Promise<void> = Promise.resolve()) {
  const uses = { count: 0 };
  const signer: PsbtWalletSigner = {
    publicKey: userKey.publicKey,
    signPsbt: async ({ psbt: base64, signInputs }) => {
      uses.count++;
      await gate;
      const psbt = Psbt.fromBase64(base64);
      for (const { index, kind, sighashType } of signInputs)
        psbt.signInput(index, (kind === "p2tr" ? tweaked : userKey) as never, [sighashType]);
      return psbt.toBase64();
    },
  };
  return { signer, uses };
}

/** The user's key behind a spy: every `sign`, `signSchnorr` and `tweak` counts. */
function countingKey() {
  const uses = { count: 0 };
  const signer: KeySigner = {
    publicKey: userKey.publicKey,
    sign: (hash) => {
      uses.count++;
      return userKey.sign(hash);
    },
    signSchnorr: (hash) => {
      uses.count++;
      return userKey.signSchnorr(hash);
    },
    tweak: (t) => {
      uses.count++;
      return userKey.tweak(t);
    },
  };
  return { signer, uses };
}

async function signWith(signer: KeySigner | PsbtWalletSigner, signal: unknown) {
  const deposit = buildDeposit();
  try {
    const { psbt } = await signHtlcPsbt({
      ecc,
      intent: deposit.intent,
      quote: deposit.quote,
      userPublicKey,
      signer,
      signal: signal as AbortSignal,
    });
    const txHex = Psbt.fromBase64(psbt).extractTransaction().toHex();
    return { code: "ACCEPTED", interpreter: runInterpreter({ txHex, prevouts: deposit.prevouts }) };
  } catch (error) {
    if (!isBitcoinError(error)) return { code: "UNCODED", error };
    return { code: error.code, details: error.details, cause: error.cause };
  }
}

const signers = { wallet: countingWallet, key: countingKey } as const;

describe("the abort's reason is the error's cause", () => {
  for (const [name, make] of Object.entries(signers)) {
    it(`${name}: an already aborted signal, refused before the signer is used, carries the reason`, async () => {
      const reason = new Error("user closed the dialog");
      const { signer, uses } = make();
      const result = await signWith(signer, AbortSignal.abort(reason));
      expect(result).toEqual({
        code: "BTC_SIGNING_ABORTED",
        details: { stage: "beforeSigning" },
        cause: reason,
      });
      expect(uses.count).toBe(0);
    });
  }

  it("wallet: aborted while the wallet is open, the reason (any value) is the cause", async () => {
    const { signer, uses } = countingWallet(new Promise<void>(() => {}));
    const controller = new AbortController();
    const pending = signWith(signer, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort("timeout");
    expect(await pending).toEqual({
      code: "BTC_SIGNING_ABORTED",
      details: { stage: "whileSigning" },
      cause: "timeout",
    });
    expect(uses.count).toBe(1);
  });

  it("key signer: aborted during the first signature, the reason is the cause and nothing more is asked", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const uses = { count: 0 };
    const signer: KeySigner = {
      publicKey: userKey.publicKey,
      sign: async (hash) => {
        uses.count++;
        await gate;
        return userKey.sign(hash);
      },
      signSchnorr: async (hash) => {
        uses.count++;
        await gate;
        return tweaked.signSchnorr(hash);
      },
    };
    const controller = new AbortController();
    const reason = new DOMException("gone", "AbortError");
    const pending = signWith(signer, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(reason);
    release();
    expect(await pending).toEqual({
      code: "BTC_SIGNING_ABORTED",
      details: { stage: "whileSigning" },
      cause: reason,
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(uses.count).toBe(1);
  });
});

/** A signal built from an EventTarget, with `aborted`/`addEventListener` overridable to misbehave. */
function fakeSignal(
  overrides: Partial<Record<"aborted" | "reason" | "addEventListener", PropertyDescriptor>>,
) {
  const target = new EventTarget();
  const listeners = { added: 0, removed: 0 };
  const signal = {
    addEventListener: (type: string, listener: EventListener, options?: unknown) => {
      listeners.added++;
      target.addEventListener(type, listener, options as AddEventListenerOptions);
    },
    removeEventListener: (type: string, listener: EventListener) => {
      listeners.removed++;
      target.removeEventListener(type, listener);
    },
    fire: () => target.dispatchEvent(new Event("abort")),
  } as Record<string, unknown>;
  Object.defineProperty(signal, "aborted", overrides.aborted ?? { value: false });
  Object.defineProperty(signal, "reason", overrides.reason ?? { value: undefined });
  if (overrides.addEventListener)
    Object.defineProperty(signal, "addEventListener", overrides.addEventListener);
  return { signal, listeners };
}

describe("a hostile or broken signal is a coded refusal before any key or wallet is used", () => {
  const thrown = new Error("getter");
  const hostile: [string, () => unknown, string, unknown][] = [
    [
      "its `aborted` getter throws",
      () =>
        fakeSignal({
          aborted: {
            get: () => {
              throw thrown;
            },
          },
        }).signal,
      "BTC_SIGNING_ABORTED",
      thrown,
    ],
    [
      "it fires its listener while the listener is added (and reads as not aborted)",
      () => {
        const { signal } = fakeSignal({
          addEventListener: { value: (_type: string, listener: () => void) => listener() },
        });
        return signal;
      },
      "BTC_SIGNING_ABORTED",
      undefined,
    ],
    [
      "its addEventListener throws",
      () =>
        fakeSignal({
          addEventListener: {
            value: () => {
              throw thrown;
            },
          },
        }).signal,
      "BTC_SIGNING_ABORTED",
      thrown,
    ],
    ["it is a plain object", () => ({}), "BTC_POLICY_INVALID", undefined],
    ["it is a string", () => "abort", "BTC_POLICY_INVALID", undefined],
    ["it is null", () => null, "BTC_POLICY_INVALID", undefined],
  ];
  for (const [name, make] of Object.entries(signers)) {
    for (const [what, signal, code, cause] of hostile) {
      it(`${name}: ${what}: ${code}, the signer never used`, async () => {
        const { signer, uses } = make();
        const result = await signWith(signer, signal());
        expect(result.code).toBe(code);
        if (code === "BTC_POLICY_INVALID") expect(result.details).toEqual({ policy: ["signal"] });
        else expect(result.cause).toBe(cause);
        await new Promise((resolve) => setTimeout(resolve, 5));
        expect(uses.count).toBe(0);
      });
    }
  }

  it("a signal that aborts only after the wallet answered still wins: no approval after the abort", async () => {
    let aborted = false;
    const { signal } = fakeSignal({ aborted: { get: () => aborted }, reason: { get: () => "late" } });
    const { signer } = countingWallet();
    const original = signer.signPsbt;
    signer.signPsbt = async (request) => {
      const answer = await original(request);
      aborted = true; // no event: only a read after the answer sees it
      return answer;
    };
    expect(await signWith(signer, signal)).toEqual({
      code: "BTC_SIGNING_ABORTED",
      details: { stage: "whileSigning" },
      cause: "late",
    });
  });

  it("an honest long-lived signal collects no listener, and every deposit signed with it is valid", async () => {
    const { signal, listeners } = fakeSignal({});
    for (const make of Object.values(signers)) {
      const result = await signWith(make().signer, signal);
      expect(result).toEqual({ code: "ACCEPTED", interpreter: [null, null] });
    }
    expect(listeners.added).toBeGreaterThan(0);
    expect(listeners.removed).toBe(listeners.added);
  });
});

describe("a signal that cannot stop a hang, seen before the signer is asked: stage beforeSigning", () => {
  const thrown = new Error("no listeners here");
  const deaf: [string, () => ReturnType<typeof fakeSignal>, unknown][] = [
    [
      "its addEventListener throws",
      () =>
        fakeSignal({
          addEventListener: {
            value: () => {
              throw thrown;
            },
          },
        }),
      thrown,
    ],
    [
      "it fires abort while the listener is added (still reading as not aborted)",
      () => {
        const made = fakeSignal({});
        const add = made.signal.addEventListener as (type: string, listener: EventListener) => void;
        made.signal.addEventListener = (type: string, listener: EventListener) => {
          add(type, listener);
          (made.signal.fire as () => void)();
        };
        return made;
      },
      undefined,
    ],
    [
      "it reads as aborted once it is listened to (no event)",
      () => {
        let listened = false;
        const made = fakeSignal({ aborted: { get: () => listened }, reason: { value: "late" } });
        const add = made.signal.addEventListener as (type: string, listener: EventListener) => void;
        made.signal.addEventListener = (type: string, listener: EventListener) => {
          add(type, listener);
          listened = true;
        };
        return made;
      },
      "late",
    ],
  ];
  for (const [name, make] of Object.entries(signers)) {
    for (const [what, signal, cause] of deaf) {
      it(`${name}: ${what}: the signer never asked`, async () => {
        const { signer, uses } = make();
        const { signal: hostile } = signal();
        const result = await signWith(signer, hostile);
        expect(result).toEqual({ code: "BTC_SIGNING_ABORTED", details: { stage: "beforeSigning" }, cause });
        await new Promise((resolve) => setTimeout(resolve, 5));
        expect(uses.count).toBe(0);
      });
    }
  }
});
