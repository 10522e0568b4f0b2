// Every place the signer calls the caller's signer or wallet: whatever it throws (an Error, a string, undefined, an
// error shaped like this package's own, a getter that throws, a revoked proxy) comes back as one coded error with
// the throw as its cause, never raw and never as the forged code; an abort that came first still wins.
import { SwapIntentError } from "@swapintent/client";
import { crypto } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { buildDeposit, hex, userKey } from "../test/fixtures.js";
import { isBitcoinError } from "./errors.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import { signHtlcRefund } from "./signHtlcRefund.js";
import type { KeySigner, PsbtWalletSigner } from "./types.js";

const userPublicKey = hex(userKey.publicKey);
/** A P2TR and a P2WPKH input: the key path signs both kinds (tweak and ECDSA). */
const deposit = buildDeposit();

/** What a signer or wallet may throw. The forged ones carry a code this package really has. */
const THROWS: [string, () => unknown][] = [
  ["an Error", () => new Error("user rejected")],
  ["a string", () => "user rejected"],
  ["undefined", () => undefined],
  [
    "a duck-typed BTC_SIGNING_ABORTED",
    () => ({
      name: "SwapIntentError",
      code: "BTC_SIGNING_ABORTED",
      shortMessage: "aborted",
      details: { stage: "whileSigning" },
    }),
  ],
  [
    "a branded BTC_FEE_TOO_HIGH",
    () => ({
      [Symbol.for("swapintent.error")]: true,
      name: "SwapIntentError",
      code: "BTC_FEE_TOO_HIGH",
      shortMessage: "fee too high",
      details: {},
    }),
  ],
  [
    "a client SwapIntentError BTC_SIGNER_KEY_MISMATCH",
    () => new SwapIntentError("BTC_SIGNER_KEY_MISMATCH", "x"),
  ],
];

const throwing = (thrown: unknown) => () => {
  throw thrown;
};
const getterThrowing = <T extends object>(target: T, key: string, thrown: unknown): T =>
  Object.defineProperty(target, key, { get: throwing(thrown), configurable: true });
const revokedProxy = <T>(): T => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy as T;
};

/** The error `run` rejects with (fails when it resolves or rejects with something other than a bitcoin error). */
async function refusal(run: () => Promise<unknown>) {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isBitcoinError(error)) throw new Error(`expected a bitcoin error, got ${String(error)}`);
  return error;
}

const keySigner = (overrides: Partial<KeySigner> = {}): KeySigner => ({
  publicKey: userKey.publicKey,
  sign: (h) => userKey.sign(h),
  signSchnorr: (h) => userKey.signSchnorr(h),
  tweak: (t) => userKey.tweak(t),
  ...overrides,
});
const sign = (signer: KeySigner | PsbtWalletSigner, signal?: AbortSignal) =>
  signHtlcPsbt({ ecc, ...deposit, userPublicKey, signer, signal });

type Path = [string, { code: string; details: object }, (thrown: unknown) => Promise<unknown>];

const SIGN_PATHS: Path[] = [
  [
    "a custom wallet's signPsbt throws",
    { code: "BTC_SIGNING_FAILED", details: { step: "signPsbt" } },
    (thrown) => sign({ publicKey: userKey.publicKey, signPsbt: throwing(thrown) as never }),
  ],
  [
    "a custom wallet's signPsbt rejects",
    { code: "BTC_SIGNING_FAILED", details: { step: "signPsbt" } },
    (thrown) => sign({ publicKey: userKey.publicKey, signPsbt: () => Promise.reject(thrown) }),
  ],
  [
    "a custom wallet's signPsbt getter throws",
    { code: "BTC_SIGNING_FAILED", details: { step: "signer" } },
    (thrown) =>
      sign(getterThrowing({ publicKey: userKey.publicKey } as PsbtWalletSigner, "signPsbt", thrown)),
  ],
  [
    "a wallet's publicKey getter throws",
    { code: "BTC_SIGNING_FAILED", details: { step: "signer" } },
    (thrown) =>
      sign(getterThrowing({ signPsbt: async () => "" } as unknown as PsbtWalletSigner, "publicKey", thrown)),
  ],
  [
    "a key signer's publicKey getter throws",
    { code: "BTC_SIGNING_FAILED", details: { step: "signer" } },
    (thrown) => sign(getterThrowing(keySigner(), "publicKey", thrown)),
  ],
  [
    "a key signer's signSchnorr getter throws (external signer, no tweak)",
    { code: "BTC_SIGNING_FAILED", details: { step: "signer" } },
    (thrown) => sign(getterThrowing(keySigner({ tweak: undefined }), "signSchnorr", thrown)),
  ],
  [
    "a key signer's tweak getter throws",
    { code: "BTC_SIGNING_FAILED", details: { step: "signer" } },
    (thrown) => sign(getterThrowing(keySigner(), "tweak", thrown)),
  ],
  [
    "a key signer's tweak throws",
    { code: "BTC_SIGNING_FAILED", details: { step: "tweak" } },
    (thrown) => sign(keySigner({ tweak: throwing(thrown) as never })),
  ],
  [
    "the tweaked key's publicKey getter throws",
    { code: "BTC_SIGNING_FAILED", details: { step: "tweak" } },
    (thrown) =>
      sign(keySigner({ tweak: (t) => getterThrowing(keySigner(userKey.tweak(t)), "publicKey", thrown) })),
  ],
  [
    "the tweaked key's signSchnorr getter throws",
    { code: "BTC_SIGNING_FAILED", details: { step: "tweak" } },
    (thrown) =>
      sign(keySigner({ tweak: (t) => getterThrowing(keySigner(userKey.tweak(t)), "signSchnorr", thrown) })),
  ],
  [
    "the tweaked key's signSchnorr throws",
    { code: "BTC_SIGNATURE_INVALID", details: { input: 0, reason: "signerFailed" } },
    (thrown) =>
      sign(
        keySigner({
          tweak: (t) => keySigner({ publicKey: userKey.tweak(t).publicKey, signSchnorr: throwing(thrown) }),
        }),
      ),
  ],
  [
    "a key signer's sign throws (P2WPKH input)",
    { code: "BTC_SIGNATURE_INVALID", details: { input: 1, reason: "signerFailed" } },
    (thrown) => sign(keySigner({ sign: throwing(thrown) as never })),
  ],
  [
    "an external signer's signSchnorr rejects",
    { code: "BTC_SIGNATURE_INVALID", details: { input: 0, reason: "signerFailed" } },
    (thrown) => sign(keySigner({ tweak: undefined, signSchnorr: () => Promise.reject(thrown) })),
  ],
];

describe("signHtlcPsbt: a signer's or wallet's throw is one coded error, the throw its cause", () => {
  for (const [path, expected, run] of SIGN_PATHS) {
    it(path, async () => {
      for (const [name, make] of THROWS) {
        const thrown = make();
        const error = await refusal(() => run(thrown));
        expect({ code: error.code, details: error.details, cause: error.cause }, name).toEqual({
          ...expected,
          cause: thrown,
        });
      }
    });
  }

  it("a signer that is a revoked proxy, or whose tweak returns one, is BTC_SIGNING_FAILED (cause: the TypeError)", async () => {
    for (const [step, signer] of [
      ["signer", revokedProxy<KeySigner>()],
      ["tweak", keySigner({ tweak: () => revokedProxy<KeySigner>() })],
    ] as const) {
      const error = await refusal(() => sign(signer));
      expect({ code: error.code, details: error.details }).toEqual({
        code: "BTC_SIGNING_FAILED",
        details: { step },
      });
      expect(error.cause).toBeInstanceOf(TypeError);
    }
  });

  it("a publicKey that answers once and then throws is read once: the deposit is signed", async () => {
    const bip86 = userKey.tweak(crypto.taggedHash("TapTweak", userKey.publicKey.slice(1)));
    let reads = 0;
    const external = Object.defineProperty(
      keySigner({ tweak: undefined, signSchnorr: (h) => bip86.signSchnorr(h) }),
      "publicKey",
      {
        get: () => {
          if (reads++ > 0) throw new Error("second read");
          return userKey.publicKey;
        },
      },
    );
    const { approval } = await sign(external);
    expect(approval.type).toBe("psbt");
    expect(reads).toBe(1);
  });

  it("an abort that comes first still wins over the wallet's (forged) throw", async () => {
    for (const [name, make] of THROWS) {
      const controller = new AbortController();
      const reason = new Error("user closed the dialog");
      const error = await refusal(() =>
        sign(
          {
            publicKey: userKey.publicKey,
            signPsbt: async () => {
              controller.abort(reason);
              throw make();
            },
          },
          controller.signal,
        ),
      );
      expect({ code: error.code, details: error.details, cause: error.cause }, name).toEqual({
        code: "BTC_SIGNING_ABORTED",
        details: { stage: "whileSigning" },
        cause: reason,
      });
    }
  });

  it("a signal that reads as aborted without firing its event still wins over the wallet's throw", async () => {
    let aborted = false;
    const reason = new Error("gave up");
    const signal = {
      get aborted() {
        return aborted;
      },
      reason,
      addEventListener: () => {},
      removeEventListener: () => {},
    } as unknown as AbortSignal;
    const error = await refusal(() =>
      sign(
        {
          publicKey: userKey.publicKey,
          signPsbt: async () => {
            aborted = true;
            throw THROWS[3]![1]();
          },
        },
        signal,
      ),
    );
    expect({ code: error.code, cause: error.cause }).toEqual({ code: "BTC_SIGNING_ABORTED", cause: reason });
  });
});

describe("signHtlcRefund: the signer's throw is one coded error, the throw its cause", () => {
  const refund = (signer: KeySigner) =>
    signHtlcRefund({ ecc, depositPsbt: deposit.psbt, userPublicKey, signer, feeLots: 500n });
  const paths: Path[] = [
    [
      "publicKey getter throws",
      { code: "BTC_SIGNING_FAILED", details: { step: "signer" } },
      (thrown) => refund(getterThrowing(keySigner(), "publicKey", thrown)),
    ],
    [
      "signSchnorr getter throws",
      { code: "BTC_SIGNING_FAILED", details: { step: "signer" } },
      (thrown) => refund(getterThrowing(keySigner(), "signSchnorr", thrown)),
    ],
    [
      "signSchnorr throws",
      { code: "BTC_SIGNATURE_INVALID", details: { input: 0, reason: "signerFailed" } },
      (thrown) => refund(keySigner({ signSchnorr: throwing(thrown) as never })),
    ],
    [
      "signSchnorr rejects",
      { code: "BTC_SIGNATURE_INVALID", details: { input: 0, reason: "signerFailed" } },
      (thrown) => refund(keySigner({ signSchnorr: () => Promise.reject(thrown) })),
    ],
  ];
  for (const [path, expected, run] of paths) {
    it(path, async () => {
      for (const [name, make] of THROWS) {
        const thrown = make();
        const error = await refusal(() => run(thrown));
        expect({ code: error.code, details: error.details, cause: error.cause }, name).toEqual({
          ...expected,
          cause: thrown,
        });
      }
    });
  }

  it("a revoked proxy as signer is BTC_SIGNING_FAILED (cause: the TypeError)", async () => {
    const error = await refusal(() => refund(revokedProxy<KeySigner>()));
    expect({ code: error.code, details: error.details }).toEqual({
      code: "BTC_SIGNING_FAILED",
      details: { step: "signer" },
    });
    expect(error.cause).toBeInstanceOf(TypeError);
  });
});

describe("an external signer whose tweak is present but falsy (null, false, 0) still has every signature checked", () => {
  for (const tweak of [null, false, 0]) {
    it(`tweak: ${String(tweak)}, a Schnorr signature of zeros is BTC_SIGNATURE_INVALID (doesNotVerify)`, async () => {
      const signer = keySigner({ tweak: tweak as never, signSchnorr: () => new Uint8Array(64) });
      const error = await refusal(() => sign(signer));
      expect({ code: error.code, details: error.details }).toEqual({
        code: "BTC_SIGNATURE_INVALID",
        details: { input: 0, reason: "doesNotVerify" },
      });
    });
  }
});
