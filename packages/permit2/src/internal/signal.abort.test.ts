/**
 * A wallet that never answers, on every wallet path of both entries (EVM: viem local account, custom signer, viem
 * WalletClient at each of its three questions, bare EIP-1193 provider at each of its three requests, wagmi's
 * getWalletClient at its chain and signature requests; Tron: TronWeb
 * with a private key, a TronLink-style signer, TronLink's injected tronWeb): the caller's `signal` ends the wait with
 * `PERMIT2_SIGNING_ABORTED`, an already aborted signal is refused before any wallet or key is touched, a late answer
 * is never used, a late failure is never unhandled, and one long-lived signal collects no listeners.
 */
import { getEventListeners } from "node:events";
import { isSwapIntentError } from "@swapintent/client";
import { connect, createConfig, createConnector, getWalletClient, http } from "@wagmi/core";
import { verifyTypedData } from "ethers";
import * as tronweb from "tronweb";
import { defineChain, type WalletClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { describeSignalAbort } from "../../../testing/src/signalAbort.js";
import {
  buildPermit2Fixture,
  EVM,
  TRON,
  USER_ADDRESS,
  USER_PRIVATE_KEY,
} from "../../test/fixtures/buildPermit2Fixture.js";
import { isPermit2Error } from "../errors.js";
import { signPermit2Approval } from "../evm/signPermit2Approval.js";
import { signTronPermit2Approval, type TronWebModule } from "../tron/signTronPermit2Approval.js";

type Step = "accounts" | "chainId" | "sign";

function parametersOf(chain: "evm" | "tron") {
  const f = buildPermit2Fixture(chain === "tron" ? { chain: "tron" } : {});
  return {
    intent: f.intent,
    quote: f.quote,
    expected: f.expected,
    allowedPermit2Addresses: f.allowedPermit2Addresses,
    nowMs: f.nowMs,
  };
}

/** The honest signatures (made once with the user's key), the answers a stand-in gives when it is let through. */
const honest = { evm: "", tron: "" };
beforeAll(async () => {
  honest.evm = (
    await signPermit2Approval({ ...parametersOf("evm"), signer: privateKeyToAccount(USER_PRIVATE_KEY) })
  ).signature;
  honest.tron = (
    await signTronPermit2Approval({
      ...parametersOf("tron"),
      privateKey: USER_PRIVATE_KEY,
      tronWeb: tronweb as unknown as TronWebModule,
    })
  ).signature;
});

/**
 * A wallet's questions: everything it is asked (getters included) is recorded; the question at `hangAt` waits until
 * the test answers (`answer`) or fails it (`fail`), or forever; every other question is answered honestly at once.
 */
function standIn(chain: "evm" | "tron", hangAt: Step) {
  const asked: string[] = [];
  const waiting: { answer: () => void; fail: (error: unknown) => void }[] = [];
  let onAsk: ((step: Step) => void) | undefined;
  const honestAnswer = (step: Step): unknown =>
    step === "accounts"
      ? [USER_ADDRESS]
      : step === "chainId"
        ? `0x${EVM.chainId.toString(16)}`
        : chain === "evm"
          ? honest.evm
          : honest.tron;
  function ask<T>(step: Step, answer: unknown = honestAnswer(step)): Promise<T> {
    asked.push(step);
    onAsk?.(step);
    if (step !== hangAt) return Promise.resolve(answer as T);
    return new Promise<T>((resolve, reject) => {
      waiting.push({ answer: () => resolve(answer as T), fail: reject });
    });
  }
  return {
    asked,
    ask,
    /** Runs `hook` whenever the wallet is asked (the wallet acting on the signal itself). */
    onAsk: (hook: (step: Step) => void) => {
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

interface Route {
  name: string;
  chain: "evm" | "tron";
  hangAt: Step;
  sign: (wallet: StandIn, signal: AbortSignal | undefined) => Promise<{ signature: string }>;
}

function recordingGetter<T>(wallet: StandIn, value: T) {
  return {
    get() {
      wallet.asked.push("address");
      return value;
    },
    enumerable: true,
  };
}

/**
 * wagmi's `getWalletClient` over a connector whose provider is `request` (the stand-in): connected with the user's
 * account on the permit's chain, as an app's `createConfig({ connectors })` would be.
 */
async function wagmiWalletClient(request: (arguments_: { method: string }) => Promise<unknown>) {
  const chain = defineChain({
    id: EVM.chainId,
    name: "stand-in chain",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: ["http://127.0.0.1:9"] } },
  });
  const provider = { request, on: () => {}, removeListener: () => {} };
  const connector = createConnector(() => ({
    id: "standIn",
    name: "Stand-in wallet",
    type: "injected",
    connect: async () => ({ accounts: [USER_ADDRESS], chainId: EVM.chainId }) as never,
    disconnect: async () => {},
    getAccounts: async () => [USER_ADDRESS],
    getChainId: async () => EVM.chainId,
    getProvider: async () => provider,
    isAuthorized: async () => true,
    onAccountsChanged: () => {},
    onChainChanged: () => {},
    onDisconnect: () => {},
  }));
  const config = createConfig({
    chains: [chain],
    connectors: [connector],
    transports: { [chain.id]: http() },
  });
  // the connector is typed loosely on purpose (a stand-in): connect through wagmi exactly as an app does
  await (connect as (c: unknown, p: unknown) => Promise<unknown>)(config, {
    connector: config.connectors[0],
  });
  return getWalletClient(config);
}

const routes: Route[] = [
  {
    name: "EVM viem local account (key in process)",
    chain: "evm",
    hangAt: "sign",
    sign: (wallet, signal) => {
      const account = privateKeyToAccount(USER_PRIVATE_KEY);
      return signPermit2Approval({
        ...parametersOf("evm"),
        signal,
        signer: { ...account, sign: () => wallet.ask("sign") },
      });
    },
  },
  {
    name: "EVM custom signer",
    chain: "evm",
    hangAt: "sign",
    sign: (wallet, signal) =>
      signPermit2Approval({
        ...parametersOf("evm"),
        signal,
        signer: Object.defineProperties(
          { signTypedData: () => wallet.ask<string>("sign") },
          { address: recordingGetter(wallet, USER_ADDRESS) },
        ) as { address: `0x${string}`; signTypedData: () => Promise<string> },
      }),
  },
  ...(["accounts", "chainId", "sign"] as const).map(
    (hangAt): Route => ({
      name: `EVM viem WalletClient, hanging at ${hangAt}`,
      chain: "evm",
      hangAt,
      sign: (wallet, signal) =>
        signPermit2Approval({
          ...parametersOf("evm"),
          signal,
          signer: {
            account: undefined,
            request: ({ method }: { method: string }) =>
              wallet.ask(method === "eth_chainId" ? "chainId" : "sign"),
            getAddresses: () => wallet.ask("accounts"),
            getChainId: () => wallet.ask("chainId", EVM.chainId),
            signTypedData: () => wallet.ask("sign"),
          } as unknown as WalletClient,
        }),
    }),
  ),
  ...(["accounts", "chainId", "sign"] as const).map(
    (hangAt): Route => ({
      name: `EVM EIP-1193 provider, hanging at ${hangAt}`,
      chain: "evm",
      hangAt,
      sign: (wallet, signal) =>
        signPermit2Approval({
          ...parametersOf("evm"),
          signal,
          provider: {
            request: ({ method }: { method: string }) =>
              wallet.ask(
                method === "eth_accounts" ? "accounts" : method === "eth_chainId" ? "chainId" : "sign",
              ),
          },
        }),
    }),
  ),
  ...(["chainId", "sign"] as const).map(
    (hangAt): Route => ({
      name: `EVM wagmi getWalletClient, hanging at ${hangAt}`,
      chain: "evm",
      hangAt,
      sign: async (wallet, signal) =>
        signPermit2Approval({
          ...parametersOf("evm"),
          signal,
          signer: await wagmiWalletClient(({ method }) =>
            wallet.ask(method === "eth_chainId" ? "chainId" : "sign"),
          ),
        }),
    }),
  ),
  {
    name: "Tron private key through TronWeb",
    chain: "tron",
    hangAt: "sign",
    sign: (wallet, signal) =>
      signTronPermit2Approval({
        ...parametersOf("tron"),
        signal,
        privateKey: USER_PRIVATE_KEY,
        tronWeb: { Trx: { signTypedData: () => wallet.ask("sign") } } as unknown as TronWebModule,
      }),
  },
  {
    name: "Tron TronLink-style signer",
    chain: "tron",
    hangAt: "sign",
    sign: (wallet, signal) =>
      signTronPermit2Approval({
        ...parametersOf("tron"),
        signal,
        signer: Object.defineProperties(
          { signTypedData: () => wallet.ask<string>("sign") },
          { address: recordingGetter(wallet, TRON.user) },
        ) as { address: string; signTypedData: () => Promise<string> },
      }),
  },
  {
    name: "Tron TronLink injected tronWeb",
    chain: "tron",
    hangAt: "sign",
    sign: (wallet, signal) =>
      signTronPermit2Approval({
        ...parametersOf("tron"),
        signal,
        tronLink: Object.defineProperties(
          { trx: { signTypedData: () => wallet.ask<string>("sign") } },
          { defaultAddress: recordingGetter(wallet, { base58: TRON.user }) },
        ) as never,
      }),
  },
];

const signalRoutes = routes.map((route) => ({
  ...route,
  waits: true,
  standIn: () => standIn(route.chain, route.hangAt),
}));
describeSignalAbort<StandIn, (typeof signalRoutes)[number]>({
  routes: signalRoutes,
  abortedCode: "PERMIT2_SIGNING_ABORTED",
  abortedDetails: (stage, route) => (stage === "beforeSigning" ? { stage } : { stage, step: route.hangAt }),
  expectHonest: (approval, route) => {
    expect((approval as { signature: string }).signature).toBe(honest[route.chain]);
  },
  honestRounds: 4,
});

/** The refusal `run` rejects with, as `{ code, details, cause }` (fails on an approval or a foreign error). */
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

/** Unhandled rejections seen while a test runs (a late wallet failure must never become one). */
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled.length = 0;
  process.on("unhandledRejection", onUnhandled);
});
afterEach(() => {
  process.off("unhandledRejection", onUnhandled);
});

/**
 * Signals that cannot stop a hanging wallet, each built so that the race sees it before the wallet is asked: its
 * `addEventListener` throws, it fires `abort` while the listener is added (still reading as not aborted), or it
 * reads as aborted once it is listened to (no event). `cause` is what the refusal must carry.
 */
const deafThrown = new Error("no listeners here");
const deafSignals: { kind: string; make: () => AbortSignal; cause: unknown }[] = [
  {
    kind: "addEventListener throws",
    make: () => {
      class DeafSignal extends EventTarget {
        readonly aborted = false;
        override addEventListener() {
          throw deafThrown;
        }
      }
      return new DeafSignal() as unknown as AbortSignal;
    },
    cause: deafThrown,
  },
  {
    kind: "fires abort while the listener is added",
    make: () => {
      class EagerSignal extends EventTarget {
        readonly aborted = false;
        override addEventListener(type: string, listener: EventListenerOrEventListenerObject | null) {
          super.addEventListener(type, listener);
          this.dispatchEvent(new Event("abort"));
        }
      }
      return new EagerSignal() as unknown as AbortSignal;
    },
    cause: undefined,
  },
  {
    kind: "reads as aborted once listened to",
    make: () => {
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
      return new LateSignal() as unknown as AbortSignal;
    },
    cause: "late",
  },
];

describe.each(routes)("$name: a signal that cannot stop a hang, seen before the wallet is asked", (route) => {
  it.each(deafSignals)("$kind: stage beforeSigning (no step), the wallet never asked", async (deaf) => {
    const wallet = standIn(route.chain, route.hangAt);
    const result = await refusal(route.sign(wallet, deaf.make()));
    // It was labelled whileSigning (step accounts) before, though no wallet question had been asked.
    expect(result).toEqual({
      code: "PERMIT2_SIGNING_ABORTED",
      details: { stage: "beforeSigning" },
      cause: deaf.cause,
    });
    expect(wallet.asked).toEqual([]);
  });
});

describe("a signal that turns deaf after the wallet answered a first question", () => {
  it("is whileSigning at the next question (the wallet was asked accounts), and that question is never asked", async () => {
    const thrown = new Error("deaf from now on");
    for (const kind of ["throws", "eager", "late"] as const) {
      let listens = 0;
      class TurningSignal extends EventTarget {
        listened = false;
        get aborted() {
          return kind === "late" && this.listened;
        }
        readonly reason = "late";
        override addEventListener(type: string, listener: EventListenerOrEventListenerObject | null) {
          listens++;
          if (listens < 2) return super.addEventListener(type, listener);
          if (kind === "throws") throw thrown;
          super.addEventListener(type, listener);
          if (kind === "eager") this.dispatchEvent(new Event("abort"));
          else this.listened = true;
        }
      }
      const methods: string[] = [];
      const provider = {
        request: async ({ method }: { method: string }) => {
          methods.push(method);
          return method === "eth_accounts" ? [USER_ADDRESS] : `0x${EVM.chainId.toString(16)}`;
        },
      };
      const result = await refusal(
        signPermit2Approval({
          ...parametersOf("evm"),
          provider,
          signal: new TurningSignal() as unknown as AbortSignal,
        }),
      );
      expect(result, kind).toEqual({
        code: "PERMIT2_SIGNING_ABORTED",
        details: { stage: "whileSigning", step: "chainId" },
        cause: kind === "throws" ? thrown : kind === "late" ? "late" : undefined,
      });
      expect(methods, kind).toEqual(["eth_accounts"]);
    }
  });
});

describe("an independent EIP-712 implementation checks what was signed under a live signal", () => {
  it("ethers recovers the user from the EVM signature", async () => {
    const result = await signPermit2Approval({
      ...parametersOf("evm"),
      signer: privateKeyToAccount(USER_PRIVATE_KEY),
      signal: new AbortController().signal,
    });
    const { domain, types, message } = result.verified.typedData;
    expect(verifyTypedData(domain, types, message, result.signature)).toBe(USER_ADDRESS);
  });
});

describe("playing the attacker on the signal and the wallet", () => {
  const evmProvider = (onRequest: (method: string) => void = () => {}) => {
    const methods: string[] = [];
    const provider = {
      request: async ({ method }: { method: string }) => {
        methods.push(method);
        onRequest(method);
        if (method === "eth_accounts") return [USER_ADDRESS];
        if (method === "eth_chainId") return `0x${EVM.chainId.toString(16)}`;
        return honest.evm;
      },
    };
    return { provider, methods };
  };

  it("a signal whose aborted getter throws counts as aborted: refused before the wallet, the throw as cause", async () => {
    const thrown = new TypeError("aborted getter blew up");
    const signal = Object.defineProperty(new AbortController().signal, "aborted", {
      get() {
        throw thrown;
      },
    });
    const { provider, methods } = evmProvider();
    const result = await refusal(signPermit2Approval({ ...parametersOf("evm"), provider, signal }));
    expect(result).toEqual({
      code: "PERMIT2_SIGNING_ABORTED",
      details: { stage: "beforeSigning" },
      cause: thrown,
    });
    expect(methods).toEqual([]);
  });

  it("a signal subclass whose aborted getter starts throwing mid-flight: no approval, the signature answer unused", async () => {
    const thrown = new Error("flaky signal");
    let broken = false;
    class FlakySignal extends EventTarget {
      get aborted() {
        if (broken) throw thrown;
        return false;
      }
    }
    const { provider, methods } = evmProvider((method) => {
      if (method === "eth_signTypedData_v4") broken = true;
    });
    const result = await refusal(
      signPermit2Approval({
        ...parametersOf("evm"),
        provider,
        signal: new FlakySignal() as unknown as AbortSignal,
      }),
    );
    expect(result).toEqual({
      code: "PERMIT2_SIGNING_ABORTED",
      details: { stage: "whileSigning", step: "sign" },
      cause: thrown,
    });
    expect(methods).toEqual(["eth_accounts", "eth_chainId", "eth_signTypedData_v4"]);
  });

  it("a signal that fires abort the moment it is listened to (aborted still false): the wallet is never asked", async () => {
    class EagerSignal extends EventTarget {
      readonly aborted = false;
      override addEventListener(type: string, listener: EventListenerOrEventListenerObject | null) {
        super.addEventListener(type, listener);
        this.dispatchEvent(new Event("abort"));
      }
    }
    const { provider, methods } = evmProvider();
    const result = await refusal(
      signPermit2Approval({
        ...parametersOf("evm"),
        provider,
        signal: new EagerSignal() as unknown as AbortSignal,
      }),
    );
    expect(result.code).toBe("PERMIT2_SIGNING_ABORTED");
    expect(methods).toEqual([]);
  });

  it("AbortSignal.timeout composes as a per-call wallet timeout: a provider that never answers eth_chainId", async () => {
    const provider = {
      request: ({ method }: { method: string }) =>
        method === "eth_accounts" ? Promise.resolve([USER_ADDRESS]) : new Promise(() => {}),
    };
    const result = await refusal(
      signPermit2Approval({ ...parametersOf("evm"), provider, signal: AbortSignal.timeout(20) }),
    );
    expect(result.code).toBe("PERMIT2_SIGNING_ABORTED");
    expect(result.details).toEqual({ stage: "whileSigning", step: "chainId" });
    expect((result.cause as DOMException).name).toBe("TimeoutError");
  });

  it("something that is not a signal is the caller's bug: PERMIT2_EXPECTED_INVALID, nothing asked", async () => {
    for (const signal of [{ aborted: false }, "abort", 1, null]) {
      const { provider, methods } = evmProvider();
      const result = await refusal(
        signPermit2Approval({ ...parametersOf("evm"), provider, signal: signal as unknown as AbortSignal }),
      );
      expect(result.code, String(signal)).toBe("PERMIT2_EXPECTED_INVALID");
      expect(result.details).toEqual({ field: "signal" });
      expect(methods).toEqual([]);
    }
  });

  it("a signal that aborts while the intent is verified: refused before any wallet question", async () => {
    const controller = new AbortController();
    const parameters = parametersOf("evm");
    const expected = Object.defineProperty({ ...parameters.expected }, "chainId", {
      get() {
        controller.abort("changed my mind");
        return EVM.chainId;
      },
      enumerable: true,
    });
    const { provider, methods } = evmProvider();
    const result = await refusal(
      signPermit2Approval({ ...parameters, expected, provider, signal: controller.signal }),
    );
    expect(result).toEqual({
      code: "PERMIT2_SIGNING_ABORTED",
      details: { stage: "beforeSigning" },
      cause: "changed my mind",
    });
    expect(methods).toEqual([]);
  });

  it("re-entrancy: a wallet that aborts the caller's signal itself, then answers, yields no approval", async () => {
    for (const at of ["eth_chainId", "eth_signTypedData_v4"]) {
      const controller = new AbortController();
      const { provider, methods } = evmProvider((method) => {
        if (method === at) controller.abort();
      });
      const result = await refusal(
        signPermit2Approval({ ...parametersOf("evm"), provider, signal: controller.signal }),
      );
      expect(result.code, at).toBe("PERMIT2_SIGNING_ABORTED");
      expect(result.details, at).toEqual({
        stage: "whileSigning",
        step: at === "eth_chainId" ? "chainId" : "sign",
      });
      // After an abort at the chain question the wallet is never asked to sign.
      expect(methods.at(-1), at).toBe(at);
      expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    }
  });

  it("re-entrancy: a wallet that aborts and then throws synchronously still reports the abort", async () => {
    const controller = new AbortController();
    const result = await refusal(
      signPermit2Approval({
        ...parametersOf("evm"),
        signal: controller.signal,
        signer: {
          address: USER_ADDRESS,
          signTypedData: () => {
            controller.abort();
            throw new Error("and now I crash");
          },
        },
      }),
    );
    expect(result.code).toBe("PERMIT2_SIGNING_ABORTED");
  });

  it("a signal that reads as aborted without firing its event when the wallet refuses: the abort wins, at every step", async () => {
    // It was PERMIT2_SIGNING_FAILED before (the refusal passed although the signal read as aborted); bitcoin already
    // let the abort win, and the one race in @swapintent/client does for every package.
    const steps = { eth_accounts: "accounts", eth_chainId: "chainId", eth_signTypedData_v4: "sign" } as const;
    for (const [at, step] of Object.entries(steps)) {
      for (const mode of ["rejects", "throws"] as const) {
        let aborted = false;
        class SilentSignal extends EventTarget {
          get aborted() {
            return aborted;
          }
          readonly reason = "silent";
        }
        const provider = {
          request: ({ method }: { method: string }) => {
            if (method === at) {
              aborted = true;
              if (mode === "throws") throw new Error("User rejected the request.");
              return Promise.reject(new Error("User rejected the request."));
            }
            return Promise.resolve(
              method === "eth_accounts" ? [USER_ADDRESS] : `0x${EVM.chainId.toString(16)}`,
            );
          },
        };
        const signal = new SilentSignal() as unknown as AbortSignal;
        expect(
          await refusal(signPermit2Approval({ ...parametersOf("evm"), provider, signal })),
          `${at} ${mode}`,
        ).toEqual({
          code: "PERMIT2_SIGNING_ABORTED",
          details: { stage: "whileSigning", step },
          cause: "silent",
        });
      }
    }
  });

  it("an abort while the answer is checked (k ticks after the wallet answered) is caught by the last check", async () => {
    // k = 0..24 ticks after the signature answer: first the wallet question catches it, then the check after the
    // recovery (no step: the answer was in), then the approval was already returned. Never an approval before that.
    const outcomes: string[] = [];
    for (let k = 0; k < 25; k++) {
      const controller = new AbortController();
      const { provider } = evmProvider((method) => {
        if (method !== "eth_signTypedData_v4") return;
        let chain = Promise.resolve();
        for (let i = 0; i < k; i++) chain = chain.then(() => undefined);
        void chain.then(() => controller.abort());
      });
      outcomes.push(
        await signPermit2Approval({ ...parametersOf("evm"), provider, signal: controller.signal }).then(
          () => "approved",
          (error: unknown) =>
            isPermit2Error(error, "PERMIT2_SIGNING_ABORTED")
              ? (error.details.step ?? "checked")
              : String(error),
        ),
      );
      await tick();
    }
    expect(outcomes.join(",")).toMatch(/^(sign,)+(checked,)+(approved,)*approved$/);
  });

  it("a wallet whose answer getter throws: PERMIT2_SIGNING_FAILED, and the signal keeps no listener", async () => {
    const controller = new AbortController();
    const tronLink = Object.defineProperty({ defaultAddress: { base58: TRON.user } }, "trx", {
      get() {
        throw new TypeError("trx getter blew up");
      },
    });
    const result = await refusal(
      signTronPermit2Approval({
        ...parametersOf("tron"),
        tronLink: tronLink as never,
        signal: controller.signal,
      }),
    );
    expect(result.code).toBe("PERMIT2_SIGNING_FAILED");
    expect(result.details).toEqual({ step: "sign" });
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});
