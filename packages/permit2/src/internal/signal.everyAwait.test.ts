/**
 * No key or wallet is used after an abort, on every signer path of both entries: every `await` a signer passes
 * before it touches the key or asks the wallet to sign (the lazy tronweb import, `getAddresses`/`eth_accounts`,
 * `getChainId`/`eth_chainId`, an account getter) is held open here, the signal aborts exactly there, then the
 * awaited promise settles honestly; the signing function (a spy around the real key: tronweb's, viem's) must never
 * be called, and the refusal is `PERMIT2_SIGNING_ABORTED` with the signal's reason as `cause`.
 */
import { isSwapIntentError } from "@swapintent/client";
import * as tronweb from "tronweb";
import { createWalletClient, custom, type LocalAccount } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, it, type Mock, vi } from "vitest";
import {
  buildPermit2Fixture,
  EVM,
  TRON,
  USER_ADDRESS,
  USER_PRIVATE_KEY,
} from "../../test/fixtures/buildPermit2Fixture.js";
import { signPermit2Approval } from "../evm/signPermit2Approval.js";
import { signTronPermit2Approval, type TronWebModule } from "../tron/signTronPermit2Approval.js";

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

/** A promise the test settles, and whether anything is waiting on it yet. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open, reached: false };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

async function until(condition: () => boolean) {
  for (let i = 0; i < 200 && !condition(); i++) await tick();
  expect(condition()).toBe(true);
}

/** The refusal `run` rejects with (fails on an approval or a foreign error). */
async function refusal(run: Promise<unknown>) {
  const error = await run.then(
    () => {
      throw new Error("expected a refusal, but an approval was returned");
    },
    (e: unknown) => e,
  );
  if (!isSwapIntentError(error)) throw error;
  return { code: error.code, stage: (error.details as { stage?: string }).stage, cause: error.cause };
}

/** The real tronweb TIP-712 signing with the key, spied on. */
const realTronSign = () =>
  vi.fn((...args: Parameters<TronWebModule["Trx"]["signTypedData"]>) => tronweb.Trx.signTypedData(...args));

describe("Tron private key: an abort while tronweb is imported on first use", () => {
  afterEach(() => {
    vi.doUnmock("tronweb");
    vi.resetModules();
  });

  /** The signer with a fresh module graph whose `import("tronweb")` waits on `loading` (a spy as Trx.signTypedData). */
  async function withSlowTronWeb() {
    vi.resetModules();
    const loading = gate();
    const signTypedData = realTronSign();
    vi.doMock("tronweb", async () => {
      loading.reached = true;
      await loading.opened;
      return { Trx: { signTypedData } };
    });
    const fresh = await import("../tron/signTronPermit2Approval.js");
    return { loading, signTypedData, signTronPermit2Approval: fresh.signTronPermit2Approval };
  }

  it("the key never signs, not even once the import finishes; the signal's reason is the cause", async () => {
    const { loading, signTypedData, signTronPermit2Approval: sign } = await withSlowTronWeb();
    const controller = new AbortController();
    const pending = sign({
      ...parametersOf("tron"),
      privateKey: USER_PRIVATE_KEY,
      signal: controller.signal,
    });
    await until(() => loading.reached);
    const reason = new Error("user closed the dialog");
    controller.abort(reason);
    loading.open();
    expect(await refusal(pending)).toEqual({
      code: "PERMIT2_SIGNING_ABORTED",
      stage: "whileSigning",
      cause: reason,
    });
    for (let i = 0; i < 5; i++) await tick();
    expect(signTypedData).not.toHaveBeenCalled();
  });

  it("the import finishing first and the abort arriving in the same turn: still no signature", async () => {
    const { loading, signTypedData, signTronPermit2Approval: sign } = await withSlowTronWeb();
    const controller = new AbortController();
    const pending = sign({
      ...parametersOf("tron"),
      privateKey: USER_PRIVATE_KEY,
      signal: controller.signal,
    });
    await until(() => loading.reached);
    loading.open();
    controller.abort("late");
    expect((await refusal(pending)).code).toBe("PERMIT2_SIGNING_ABORTED");
    for (let i = 0; i < 5; i++) await tick();
    expect(signTypedData).not.toHaveBeenCalled();
  });

  it("without an abort the same slow import signs once, the same signature tronweb makes directly", async () => {
    const { loading, signTypedData, signTronPermit2Approval: sign } = await withSlowTronWeb();
    const pending = sign({
      ...parametersOf("tron"),
      privateKey: USER_PRIVATE_KEY,
      signal: new AbortController().signal,
    });
    await until(() => loading.reached);
    loading.open();
    const { signature, verified, owner } = await pending;
    expect(signTypedData).toHaveBeenCalledTimes(1);
    const { domain, types, message } = verified.typedData;
    const direct = tronweb.Trx.signTypedData(domain, types, message, USER_PRIVATE_KEY);
    expect(signature.slice(0, 130)).toBe(direct.slice(0, 130));
    expect(owner).toBe(TRON.user);
  });
});

type EvmAwait = "eth_accounts" | "eth_chainId";

/** A wallet transport whose answer to `holdAt` waits on a gate; every request is recorded. */
function slowWallet(holdAt: EvmAwait) {
  const held = gate();
  const methods: string[] = [];
  const request = async ({ method }: { method: string }) => {
    methods.push(method);
    if (method === holdAt) {
      held.reached = true;
      await held.opened;
    }
    if (method === "eth_accounts") return [USER_ADDRESS];
    if (method === "eth_chainId") return `0x${EVM.chainId.toString(16)}`;
    return `0x${"11".repeat(65)}`;
  };
  return { held, methods, request };
}

/** The real viem key, its typed-data and digest signing spied on. */
function spiedAccount() {
  const account = privateKeyToAccount(USER_PRIVATE_KEY);
  const signTypedData = vi.fn(account.signTypedData);
  const sign = vi.fn(account.sign);
  return { account: { ...account, signTypedData, sign } as LocalAccount, signTypedData, sign };
}

interface EvmRoute {
  name: string;
  awaits: readonly EvmAwait[];
  start: (
    wallet: ReturnType<typeof slowWallet>,
    signal: AbortSignal,
  ) => { pending: Promise<unknown>; keyCalls: () => number };
}

const evmRoutes: EvmRoute[] = [
  {
    name: "viem WalletClient with a local key attached",
    awaits: ["eth_chainId"],
    start: (wallet, signal) => {
      const { account, signTypedData, sign } = spiedAccount();
      const signer = createWalletClient({ account, transport: custom({ request: wallet.request }) });
      const pending = signPermit2Approval({ ...parametersOf("evm"), signer, signal });
      return { pending, keyCalls: () => signTypedData.mock.calls.length + sign.mock.calls.length };
    },
  },
  {
    name: "viem WalletClient of an injected wallet (no account attached)",
    awaits: ["eth_accounts", "eth_chainId"],
    start: (wallet, signal) => {
      const signer = createWalletClient({ transport: custom({ request: wallet.request }) });
      const pending = signPermit2Approval({ ...parametersOf("evm"), signer, signal });
      return { pending, keyCalls: () => 0 };
    },
  },
  {
    name: "bare EIP-1193 provider",
    awaits: ["eth_accounts", "eth_chainId"],
    start: (wallet, signal) => {
      const pending = signPermit2Approval({ ...parametersOf("evm"), provider: wallet, signal });
      return { pending, keyCalls: () => 0 };
    },
  },
];

describe.each(evmRoutes.flatMap((route) => route.awaits.map((holdAt) => ({ ...route, holdAt }))))(
  "EVM $name: an abort while waiting on $holdAt",
  ({ start, holdAt }) => {
    it("the wallet is never asked to sign and no key signs, even once the answer arrives", async () => {
      const wallet = slowWallet(holdAt);
      const controller = new AbortController();
      const { pending, keyCalls } = start(wallet, controller.signal);
      await until(() => wallet.held.reached);
      const reason = { why: "timeout" };
      controller.abort(reason);
      wallet.held.open();
      expect(await refusal(pending)).toEqual({
        code: "PERMIT2_SIGNING_ABORTED",
        stage: "whileSigning",
        cause: reason,
      });
      for (let i = 0; i < 5; i++) await tick();
      expect(wallet.methods.at(-1)).toBe(holdAt);
      expect(wallet.methods).not.toContain("eth_signTypedData_v4");
      expect(keyCalls()).toBe(0);
    });
  },
);

/** An account getter that runs `onRead` (the abort) when the signer reads it, then answers `value`. */
function readAborting(onRead: () => void, value: unknown): PropertyDescriptor {
  return {
    get() {
      onRead();
      return value;
    },
  };
}

const fakeSignature = async () => `0x${"11".repeat(65)}`;

/** A `{ address, signTypedData }` signer whose address getter runs `onRead`; `signTypedData` is the spy. */
function customSigner<A extends string>(address: A, onRead: () => void) {
  const spy = vi.fn(fakeSignature);
  const signer = Object.defineProperty({ signTypedData: spy }, "address", readAborting(onRead, address));
  return { signer: signer as typeof signer & { address: A }, spy };
}

/** A signer whose account read runs `onRead`, and the spy that must stay uncalled (its key or its wallet request). */
const accountReadRoutes: {
  name: string;
  start: (signal: AbortSignal, onRead: () => void) => { pending: Promise<unknown>; spy: Mock };
}[] = [
  {
    name: "EVM viem local account",
    start: (signal, onRead) => {
      const { account, sign } = spiedAccount();
      const signer = Object.defineProperty({ ...account }, "address", readAborting(onRead, USER_ADDRESS));
      return { pending: signPermit2Approval({ ...parametersOf("evm"), signal, signer }), spy: sign };
    },
  },
  {
    name: "EVM custom signer",
    start: (signal, onRead) => {
      const { signer, spy } = customSigner(USER_ADDRESS, onRead);
      return { pending: signPermit2Approval({ ...parametersOf("evm"), signal, signer }), spy };
    },
  },
  {
    name: "Tron TronLink-style signer",
    start: (signal, onRead) => {
      const { signer, spy } = customSigner(TRON.user, onRead);
      return { pending: signTronPermit2Approval({ ...parametersOf("tron"), signal, signer }), spy };
    },
  },
  {
    name: "Tron TronLink injected tronWeb",
    start: (signal, onRead) => {
      const spy = vi.fn(fakeSignature);
      const tronLink = Object.defineProperty(
        { trx: { signTypedData: spy } },
        "defaultAddress",
        readAborting(onRead, { base58: TRON.user }),
      );
      return {
        pending: signTronPermit2Approval({ ...parametersOf("tron"), signal, tronLink: tronLink as never }),
        spy,
      };
    },
  },
];

describe.each(accountReadRoutes)(
  "$name (no await before it signs): an abort while the account is read",
  ({ name, start }) => {
    it("its signing function is never called", async () => {
      const controller = new AbortController();
      const reason = new Error(name);
      const { pending, spy } = start(controller.signal, () => controller.abort(reason));
      expect(await refusal(pending)).toEqual({
        code: "PERMIT2_SIGNING_ABORTED",
        stage: "whileSigning",
        cause: reason,
      });
      await tick();
      expect(spy).not.toHaveBeenCalled();
    });
  },
);
