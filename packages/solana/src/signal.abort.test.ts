/**
 * A wallet that never answers, on every signing path (web3.js Keypair, wallet adapter, external `signMessage`
 * signer, Kit signer, wallet-standard wallet): the caller's `signal` ends the wait with `SOL_SIGNING_ABORTED`, an
 * already aborted signal is refused before any wallet or key is touched, a late answer is never used, a late
 * failure is never unhandled, one long-lived signal collects no listeners; plus the attacker's tries on the signal
 * itself (throwing getters, a signal that cannot be listened to, an abort during verification, a wallet that aborts).
 */
import { getEventListeners } from "node:events";
import { ed25519 } from "@noble/curves/ed25519";
import { createKeyPairSignerFromBytes, createLazyKeyPairSignerFromBytes } from "@solana/kit";
import { VersionedTransaction } from "@solana/web3.js";
import { isSwapIntentError } from "@swapintent/client";
import { FailedTransactionMetadata } from "litesvm";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { describeSignalAbort } from "../../testing/src/signalAbort.js";
import {
  type Chain,
  compileHex,
  createChain,
  decodeHex,
  honestInstructions,
  intentFor,
  quoteFor,
} from "../test/fixture.js";
import { standardAccount } from "../test/paths.js";
import { solanaError } from "./errors.js";
import { isSolanaError } from "./isSolanaError.js";
import { signCosignTransaction } from "./signCosignTransaction.js";
import { signCosignTransactionWithKit } from "./signCosignTransactionWithKit.js";
import { signCosignTransactionWithWalletStandard } from "./signCosignTransactionWithWalletStandard.js";

let chain: Chain;
let hex: string;
beforeAll(async () => {
  chain = await createChain();
  hex = compileHex(chain, honestInstructions(chain));
});

/**
 * A wallet whose signing question waits until the test answers it honestly (`answerLate`) or fails it
 * (`failLate`), or forever; `asked` records every touch (getters included); `onAsk` runs when it is asked.
 */
function standIn() {
  const asked: string[] = [];
  const waiting: { answer: () => void; fail: (error: unknown) => void }[] = [];
  let onAsk: (step: string) => void = () => {};
  const wait = <T>(answer: () => T): Promise<T> => {
    asked.push("sign");
    onAsk("sign");
    return new Promise<T>((resolve, reject) => {
      // An answer that throws (a Kit signer reading its message after the abort) rejects, as a wallet's would.
      waiting.push({
        answer: () => {
          try {
            resolve(answer());
          } catch (error) {
            reject(error);
          }
        },
        fail: reject,
      });
    });
  };
  return {
    asked,
    wait,
    onAsk: (hook: (step: string) => void) => {
      onAsk = hook;
    },
    answerLate: () => {
      for (const w of waiting) w.answer();
    },
    failLate: (error: unknown) => {
      for (const w of waiting) w.fail(error);
    },
  };
}
type StandIn = ReturnType<typeof standIn>;

const secret = () => chain.user.secretKey.subarray(0, 32);
const base = () => ({
  intent: intentFor(hex),
  quote: quoteFor(chain),
  escrow: { owner: chain.escrowOwner.address },
});
/** A getter that records the read (a wallet object touched). */
const recorded = <T>(wallet: StandIn, value: () => T) => ({
  get() {
    wallet.asked.push("read");
    return value();
  },
  enumerable: true,
});

interface Route {
  name: string;
  /** Whether the route waits on a wallet at all (a Keypair signs in process). */
  waits: boolean;
  sign: (wallet: StandIn, signal: unknown) => Promise<{ transaction: string }>;
}

const routes: Route[] = [
  {
    name: "web3.js Keypair",
    waits: false,
    sign: (wallet, signal) =>
      signCosignTransaction({
        ...base(),
        signal: signal as AbortSignal,
        signer: Object.defineProperties(
          {},
          {
            publicKey: recorded(wallet, () => chain.user.publicKey),
            secretKey: recorded(wallet, () => chain.user.secretKey),
          },
        ) as never,
      }),
  },
  {
    name: "web3.js wallet adapter",
    waits: true,
    sign: (wallet, signal) =>
      signCosignTransaction({
        ...base(),
        signal: signal as AbortSignal,
        signer: Object.defineProperties(
          {
            signTransaction: (tx: VersionedTransaction) =>
              wallet.wait(() => {
                tx.sign([chain.user]);
                return tx;
              }),
          },
          { publicKey: recorded(wallet, () => chain.user.publicKey) },
        ) as never,
      }),
  },
  {
    name: "external ed25519 signMessage signer",
    waits: true,
    sign: (wallet, signal) =>
      signCosignTransaction({
        ...base(),
        signal: signal as AbortSignal,
        signer: Object.defineProperties(
          { signMessage: (message: Uint8Array) => wallet.wait(() => ed25519.sign(message, secret())) },
          { publicKey: recorded(wallet, () => chain.user.publicKey) },
        ) as never,
      }),
  },
  {
    name: "Kit signer",
    waits: true,
    sign: (wallet, signal) =>
      signCosignTransactionWithKit({
        ...base(),
        signal: signal as AbortSignal,
        signer: Object.defineProperties(
          {
            signTransactions: (txs: readonly { messageBytes: Uint8Array }[]) =>
              wallet.wait(() => [
                { [chain.userAddress]: ed25519.sign(Uint8Array.from(txs[0]!.messageBytes), secret()) },
              ]),
          },
          { address: recorded(wallet, () => chain.userAddress) },
        ) as never,
      }),
  },
  {
    name: "wallet-standard wallet",
    waits: true,
    sign: (wallet, signal) =>
      signCosignTransactionWithWalletStandard({
        ...base(),
        signal: signal as AbortSignal,
        account: standardAccount(chain.userAddress),
        wallet: Object.defineProperties(
          { accounts: [] },
          {
            features: recorded(wallet, () => ({
              "solana:signTransaction": {
                version: "1.0.0",
                supportedTransactionVersions: [0],
                signTransaction: ({ transaction }: { transaction: Uint8Array }) =>
                  wallet.wait(() => {
                    const tx = VersionedTransaction.deserialize(transaction);
                    tx.sign([chain.user]);
                    return [{ signedTransaction: tx.serialize() }];
                  }),
              },
            })),
          },
        ) as never,
      }),
  },
];

async function refusal(run: Promise<unknown>) {
  const error = await run.then(
    () => {
      throw new Error("expected a refusal, but an approval was returned");
    },
    (e: unknown) => e,
  );
  if (!isSwapIntentError(error)) throw error;
  return { code: error.code, details: error.details, cause: error.cause };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
async function cosignedSimulates(signedHex: string) {
  const { partiallySignTransaction } = await import("@solana/kit");
  const tx = await partiallySignTransaction([chain.resolver.keyPair], decodeHex(signedHex));
  return !(chain.svm.simulateTransaction(tx) instanceof FailedTransactionMetadata);
}

describeSignalAbort<StandIn, Route & { hangAt: string; standIn: () => StandIn }>({
  routes: routes.map((route) => ({ ...route, hangAt: "sign", standIn })),
  abortedCode: "SOL_SIGNING_ABORTED",
  abortedDetails: (stage) => ({ stage }),
  expectHonest: async (approval) => {
    expect(await cosignedSimulates((approval as { transaction: string }).transaction)).toBe(true);
  },
  honestRounds: 8,
});

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled.length = 0;
  process.on("unhandledRejection", onUnhandled);
});
afterEach(() => {
  process.off("unhandledRejection", onUnhandled);
});

describe("playing the attacker on the signal", () => {
  const adapter = routes[1]!;

  it("a signal whose aborted getter throws counts as aborted: refused before the wallet, the throw as cause", async () => {
    const thrown = new TypeError("aborted getter blew up");
    const signal = Object.defineProperty(new AbortController().signal, "aborted", {
      get() {
        throw thrown;
      },
    });
    for (const route of routes) {
      const wallet = standIn();
      expect(await refusal(route.sign(wallet, signal)), route.name).toEqual({
        code: "SOL_SIGNING_ABORTED",
        details: { stage: "beforeSigning" },
        cause: thrown,
      });
      expect(wallet.asked, route.name).toEqual([]);
    }
  });

  it("a signal whose aborted getter starts throwing once the wallet is asked: no approval, the answer unused", async () => {
    const thrown = new Error("flaky signal");
    let broken = false;
    class FlakySignal extends EventTarget {
      get aborted() {
        if (broken) throw thrown;
        return false;
      }
    }
    const wallet = standIn();
    wallet.onAsk(() => {
      broken = true;
      queueMicrotask(() => wallet.answerLate());
    });
    expect(await refusal(adapter.sign(wallet, new FlakySignal()))).toEqual({
      code: "SOL_SIGNING_ABORTED",
      details: { stage: "whileSigning" },
      cause: thrown,
    });
  });

  it("a signal that cannot be listened to is refused before the wallet is asked (it could never stop a hang)", async () => {
    const thrown = new Error("no listeners here");
    class DeafSignal extends EventTarget {
      readonly aborted = false;
      override addEventListener() {
        throw thrown;
      }
    }
    // Stage beforeSigning: the wallet was never asked (it was labelled whileSigning before).
    for (const route of routes.filter((r) => r.waits)) {
      const wallet = standIn();
      const result = await refusal(route.sign(wallet, new DeafSignal()));
      expect(result, route.name).toEqual({
        code: "SOL_SIGNING_ABORTED",
        details: { stage: "beforeSigning" },
        cause: thrown,
      });
      expect(wallet.asked, route.name).not.toContain("sign");
    }
  });

  it("a signal that fires abort the moment it is listened to (aborted still false): the wallet is never asked", async () => {
    class EagerSignal extends EventTarget {
      readonly aborted = false;
      override addEventListener(type: string, listener: EventListenerOrEventListenerObject | null) {
        super.addEventListener(type, listener);
        this.dispatchEvent(new Event("abort"));
      }
    }
    for (const route of routes.filter((r) => r.waits)) {
      const wallet = standIn();
      const result = await refusal(route.sign(wallet, new EagerSignal()));
      expect(result.code, route.name).toBe("SOL_SIGNING_ABORTED");
      expect(result.details, route.name).toEqual({ stage: "beforeSigning" });
      expect(wallet.asked, route.name).not.toContain("sign");
    }
  });

  it("a signal that reads as aborted once it is listened to (no event): the wallet is never asked, stage beforeSigning", async () => {
    class LateSignal extends EventTarget {
      listened = false;
      get aborted() {
        return this.listened;
      }
      readonly reason = "late";
      override addEventListener(type: string, listener: EventListenerOrEventListenerObject | null) {
        super.addEventListener(type, listener);
        this.listened = true;
      }
    }
    for (const route of routes.filter((r) => r.waits)) {
      const wallet = standIn();
      const result = await refusal(route.sign(wallet, new LateSignal()));
      expect(result, route.name).toEqual({
        code: "SOL_SIGNING_ABORTED",
        details: { stage: "beforeSigning" },
        cause: "late",
      });
      expect(wallet.asked, route.name).not.toContain("sign");
    }
  });

  it("AbortSignal.timeout composes as a per-call wallet timeout: a wallet-standard wallet that never answers", async () => {
    const wallet = standIn();
    const result = await refusal(routes[4]!.sign(wallet, AbortSignal.timeout(20)));
    expect(result.code).toBe("SOL_SIGNING_ABORTED");
    expect(result.details).toEqual({ stage: "whileSigning" });
    expect((result.cause as DOMException).name).toBe("TimeoutError");
  });

  it("something that is not a signal is the caller's bug: SOL_INVALID_PARAMETERS, nothing touched", async () => {
    for (const signal of [{ aborted: false }, "abort", 1, null]) {
      for (const route of routes) {
        const wallet = standIn();
        const result = await refusal(route.sign(wallet, signal));
        expect(result.code, `${route.name} ${String(signal)}`).toBe("SOL_INVALID_PARAMETERS");
        expect(result.details).toEqual({ parameter: "signal" });
        expect(wallet.asked).toEqual([]);
      }
    }
  });

  it("a signal that aborts while the transaction is verified: refused before the wallet is asked", async () => {
    const controller = new AbortController();
    const wallet = standIn();
    const parameters = Object.defineProperty(base(), "quote", {
      get() {
        controller.abort("changed my mind");
        return quoteFor(chain);
      },
      enumerable: true,
    });
    const result = await refusal(
      signCosignTransaction({
        ...parameters,
        signal: controller.signal,
        signer: { publicKey: chain.user.publicKey, signMessage: () => wallet.wait(() => new Uint8Array(64)) },
      }),
    );
    expect(result).toEqual({
      code: "SOL_SIGNING_ABORTED",
      details: { stage: "beforeSigning" },
      cause: "changed my mind",
    });
    expect(wallet.asked).toEqual([]);
  });

  it("an abort while the answer is checked (k ticks after the wallet answered) is caught by the last check", async () => {
    // A wallet-adapter answer: first the race catches the abort, then the check after the answer was verified,
    // then the approval was already returned. Never an approval before that.
    const outcomes: string[] = [];
    for (let k = 0; k < 20; k++) {
      const controller = new AbortController();
      const signer = {
        publicKey: chain.user.publicKey,
        signTransaction: async (tx: VersionedTransaction) => {
          let chainOfTicks = Promise.resolve();
          for (let i = 0; i < k; i++) chainOfTicks = chainOfTicks.then(() => undefined);
          void chainOfTicks.then(() => controller.abort());
          tx.sign([chain.user]);
          return tx;
        },
      };
      outcomes.push(
        await signCosignTransaction({ ...base(), signer, signal: controller.signal }).then(
          () => "approved",
          (error: unknown) => (isSolanaError(error, "SOL_SIGNING_ABORTED") ? "aborted" : String(error)),
        ),
      );
      await tick();
    }
    // Verification is synchronous after the answer, so "aborted" covers both the race and the last check here.
    expect(outcomes.join(",")).toMatch(/^(aborted,)+(approved,)*approved$/);
  });

  it("a wallet whose answer getter throws: SOL_WALLET_RESPONSE_INVALID, and the signal keeps no listener", async () => {
    const controller = new AbortController();
    const result = await refusal(
      signCosignTransaction({
        ...base(),
        signal: controller.signal,
        signer: {
          publicKey: chain.user.publicKey,
          signTransaction: async () =>
            Object.defineProperty({}, "serialize", {
              get() {
                throw new TypeError("serialize getter blew up");
              },
            }) as VersionedTransaction,
        },
      }),
    );
    expect(result.code).toBe("SOL_WALLET_RESPONSE_INVALID");
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});

describe("the wallet's own refusal (the user clicks reject, the wallet throws) is a coded error", () => {
  // What wallets throw: wallet-adapter's `WalletSignTransactionError`, an EIP-1193-style `{ code: 4001 }`, a bare
  // string, nothing at all, and a hostile wallet's forged error of this package (its code must not pass for ours).
  const refusals: [string, () => unknown][] = [
    [
      "an Error (user rejected)",
      () => Object.assign(new Error("User rejected the request."), { code: 4001 }),
    ],
    ["a plain object", () => ({ code: 4001, message: "rejected" })],
    ["a string", () => "rejected"],
    ["undefined", () => undefined],
    [
      "a forged SOL_AMOUNT_MISMATCH",
      () => solanaError("SOL_AMOUNT_MISMATCH", "x", { expected: 1n, actual: 2n }),
    ],
    [
      "a forged SOL_SIGNING_ABORTED",
      () => solanaError("SOL_SIGNING_ABORTED", "x", { stage: "beforeSigning" }),
    ],
  ];
  const sources: Record<string, string> = {
    "web3.js wallet adapter": "wallet",
    "external ed25519 signMessage signer": "external signer",
    "Kit signer": "kit signer",
    "wallet-standard wallet": "wallet-standard wallet",
  };

  for (const route of routes.filter((r) => r.waits)) {
    it(`${route.name}: SOL_SIGNING_FAILED with the wallet's error as cause (rejected or thrown, with or without a signal)`, async () => {
      for (const [name, make] of refusals) {
        for (const mode of ["rejects", "throws"] as const) {
          for (const withSignal of [false, true]) {
            const label = `${name}, ${mode}, ${withSignal ? "signal" : "no signal"}`;
            const wallet = standIn();
            const thrown = make();
            if (mode === "throws")
              wallet.onAsk(() => {
                throw thrown;
              });
            else wallet.onAsk(() => queueMicrotask(() => wallet.failLate(thrown)));
            const controller = new AbortController();
            const result = await refusal(route.sign(wallet, withSignal ? controller.signal : undefined));
            expect(result, label).toEqual({
              code: "SOL_SIGNING_FAILED",
              details: { source: sources[route.name] },
              cause: thrown,
            });
            expect(getEventListeners(controller.signal, "abort"), label).toHaveLength(0);
          }
        }
      }
      await tick();
      expect(unhandled).toEqual([]);
    });
  }

  it("a signal that reads as aborted without firing its event when the wallet refuses: the abort wins, not the refusal", async () => {
    // It was SOL_SIGNING_FAILED before (the refusal passed although the signal read as aborted); bitcoin already
    // let the abort win, and the one race in @swapintent/client does for every package.
    for (const route of routes.filter((r) => r.waits)) {
      for (const mode of ["rejects", "throws"] as const) {
        let aborted = false;
        class SilentSignal extends EventTarget {
          get aborted() {
            return aborted;
          }
          readonly reason = "silent";
        }
        const wallet = standIn();
        wallet.onAsk(() => {
          aborted = true;
          if (mode === "throws") throw new Error("User rejected the request.");
          queueMicrotask(() => wallet.failLate(new Error("User rejected the request.")));
        });
        expect(await refusal(route.sign(wallet, new SilentSignal())), `${route.name} ${mode}`).toEqual({
          code: "SOL_SIGNING_ABORTED",
          details: { stage: "whileSigning" },
          cause: "silent",
        });
      }
    }
  });

  it("an abort still wins over a refusal that comes after it (late, or the wallet aborting then throwing at once)", async () => {
    for (const route of routes.filter((r) => r.waits)) {
      for (const how of ["late", "re-entrant"] as const) {
        const wallet = standIn();
        const controller = new AbortController();
        if (how === "re-entrant")
          wallet.onAsk(() => {
            controller.abort("cancel");
            throw new Error("User rejected the request.");
          });
        const pending = route.sign(wallet, controller.signal);
        if (how === "late") {
          while (!wallet.asked.includes("sign")) await tick();
          controller.abort("cancel");
          wallet.failLate(new Error("User rejected the request."));
        }
        expect(await refusal(pending), `${route.name} ${how}`).toEqual({
          code: "SOL_SIGNING_ABORTED",
          details: { stage: "whileSigning" },
          cause: "cancel",
        });
      }
    }
  });
});

describe("a Kit KeyPairSigner (WebCrypto inside Kit) and the caller's signal", () => {
  /**
   * Every `crypto.subtle.sign` of the transaction's message (the user's key signing it), in order with the test's
   * own marks. Kit's key import signs random bytes to check the pair; that is not the message and is not logged.
   */
  function watchSubtle(log: string[]) {
    const message = Uint8Array.from(decodeHex(hex).messageBytes);
    const subtle = globalThis.crypto.subtle;
    const sign = subtle.sign;
    const spy = vi.spyOn(subtle, "sign").mockImplementation((...args) => {
      const source = args[2];
      const data = ArrayBuffer.isView(source)
        ? new Uint8Array(source.buffer, source.byteOffset, source.byteLength)
        : new Uint8Array(source);
      if (data.length === message.length && data.every((byte, i) => byte === message[i]))
        log.push("message signed");
      return Reflect.apply(sign, subtle, args);
    });
    return () => spy.mockRestore();
  }

  // Kit's KeyPairSigner, and its lazy one (it first imports the key, then does the same).
  const kitSigners = [
    { name: "createKeyPairSignerFromBytes", make: () => createKeyPairSignerFromBytes(chain.user.secretKey) },
    {
      name: "createLazyKeyPairSignerFromBytes",
      make: () => createLazyKeyPairSignerFromBytes(chain.user.secretKey),
    },
  ];

  it.each(kitSigners)(
    "$name: an abort while it awaits its own key: the message is never signed afterwards",
    async ({ make }) => {
      const signer = await make();
      const log: string[] = [];
      const restore = watchSubtle(log);
      try {
        const controller = new AbortController();
        const pending = signCosignTransactionWithKit({ ...base(), signer, signal: controller.signal });
        // Kit's signer first exports its public key (an await), then signs: abort in between.
        await Promise.resolve();
        log.push("abort");
        controller.abort("user left");
        expect(await refusal(pending)).toEqual({
          code: "SOL_SIGNING_ABORTED",
          details: { stage: "whileSigning" },
          cause: "user left",
        });
        for (let i = 0; i < 5; i++) await tick();
        expect(log).toEqual(["abort"]);
        expect(unhandled).toEqual([]);
      } finally {
        restore();
      }
    },
  );

  it("without an abort it signs the message once and litesvm runs the co-signed result", async () => {
    const signer = await createKeyPairSignerFromBytes(chain.user.secretKey);
    const log: string[] = [];
    const restore = watchSubtle(log);
    try {
      const { transaction } = await signCosignTransactionWithKit({
        ...base(),
        signer,
        signal: new AbortController().signal,
      });
      expect(log).toEqual(["message signed"]);
      expect(await cosignedSimulates(transaction)).toBe(true);
    } finally {
      restore();
    }
  });

  it("any Kit signer is handed the caller's signal as Kit's config.abortSignal", async () => {
    const controller = new AbortController();
    const seen: unknown[] = [];
    await signCosignTransactionWithKit({
      ...base(),
      signal: controller.signal,
      signer: {
        address: chain.userAddress,
        signTransactions: async (txs, config?: { abortSignal?: AbortSignal }) => {
          seen.push(config?.abortSignal);
          return [{ [chain.userAddress]: ed25519.sign(Uint8Array.from(txs[0]!.messageBytes), secret()) }];
        },
      },
    });
    expect(seen).toEqual([controller.signal]);
  });
  it("an external ed25519 signer (KMS, hardware, MPC) is handed the caller's signal too, as { signal }", async () => {
    const controller = new AbortController();
    const seen: unknown[] = [];
    await signCosignTransaction({
      ...base(),
      signal: controller.signal,
      signer: {
        publicKey: chain.user.publicKey,
        signMessage: async (message: Uint8Array, options?: { signal?: AbortSignal }) => {
          seen.push(options?.signal);
          return ed25519.sign(message, secret());
        },
      },
    });
    expect(seen).toEqual([controller.signal]);
  });
});
