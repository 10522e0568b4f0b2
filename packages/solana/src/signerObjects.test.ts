import { isSwapIntentError } from "@swapintent/client";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type Chain,
  compileHex,
  createChain,
  honestInstructions,
  intentFor,
  quoteFor,
} from "../test/fixture.js";
import { standardAccount } from "../test/paths.js";
import { signCosignTransaction } from "./signCosignTransaction.js";
import { signCosignTransactionWithKit } from "./signCosignTransactionWithKit.js";
import { signCosignTransactionWithWalletStandard } from "./signCosignTransactionWithWalletStandard.js";

let chain: Chain;
beforeAll(async () => {
  chain = await createChain();
});
beforeEach(() => chain.svm.expireBlockhash());

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return isSwapIntentError(error) ? error.code : `not a SwapIntentError: ${String(error)}`;
  }
}

describe("a signer or wallet object that throws when it is read is refused before anything is signed", () => {
  const boom = () => {
    throw new Error("hostile getter");
  };
  const trap = new Proxy({}, { get: boom, has: boom, getOwnPropertyDescriptor: boom, ownKeys: boom });

  it("each path: SOL_SIGNER_INVALID, never a stray error", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const base = {
      intent: intentFor(hex),
      quote: quoteFor(chain),
      escrow: { owner: chain.escrowOwner.address },
    };
    const account = standardAccount(chain.userAddress);
    const feature = (versions: () => unknown) => ({
      accounts: [],
      features: {
        "solana:signTransaction": {
          version: "1.0.0",
          get supportedTransactionVersions() {
            return versions();
          },
          signTransaction: vi.fn(),
        },
      },
    });
    const runs: [string, () => Promise<unknown>][] = [
      ["web3 signer", () => signCosignTransaction({ ...base, signer: trap as never })],
      ["kit signer", () => signCosignTransactionWithKit({ ...base, signer: trap as never })],
      [
        "kit signer address getter",
        () =>
          signCosignTransactionWithKit({
            ...base,
            signer: {
              get address(): string {
                return boom();
              },
              signTransactions: vi.fn(),
            },
          }),
      ],
      ["wallet", () => signCosignTransactionWithWalletStandard({ ...base, wallet: trap as never, account })],
      [
        "wallet account",
        () =>
          signCosignTransactionWithWalletStandard({
            ...base,
            wallet: feature(() => [0]) as never,
            account: trap as never,
          }),
      ],
      [
        "wallet versions getter",
        () => signCosignTransactionWithWalletStandard({ ...base, wallet: feature(boom) as never, account }),
      ],
    ];
    for (const [name, run] of runs) expect(await codeOf(run()), name).toBe("SOL_SIGNER_INVALID");
  });
});

describe("a signer or wallet object cannot answer with this package's codes, nor change its kind between reads", () => {
  const forged = () => ({
    name: "SwapIntentError",
    code: "SOL_SIGNING_ABORTED",
    shortMessage: "aborted",
    details: { stage: "beforeSigning" },
  });
  const base = () => {
    const hex = compileHex(chain, honestInstructions(chain));
    return { intent: intentFor(hex), quote: quoteFor(chain), escrow: { owner: chain.escrowOwner.address } };
  };
  async function refusalOf(run: Promise<unknown>) {
    const error = await run.then(
      () => "approved",
      (e: unknown) => e,
    );
    if (!isSwapIntentError(error)) throw error;
    return { code: error.code, cause: error.cause };
  }

  it("a getter that throws an error shaped like this package's own: SOL_SIGNER_INVALID, the throw as cause", async () => {
    const thrown = forged();
    const throws = () => {
      throw thrown;
    };
    const account = standardAccount(chain.userAddress);
    const runs: [string, () => Promise<unknown>][] = [
      [
        "web3 signer publicKey",
        () =>
          signCosignTransaction({
            ...base(),
            signer: {
              signMessage: vi.fn(),
              get publicKey(): string {
                return throws();
              },
            },
          }),
      ],
      [
        "kit signer address",
        () =>
          signCosignTransactionWithKit({
            ...base(),
            signer: {
              signTransactions: vi.fn(),
              get address(): string {
                return throws();
              },
            },
          }),
      ],
      [
        "wallet features",
        () =>
          signCosignTransactionWithWalletStandard({
            ...base(),
            wallet: {
              accounts: [],
              get features(): never {
                return throws();
              },
            } as never,
            account,
          }),
      ],
      [
        "wallet account address",
        () =>
          signCosignTransactionWithWalletStandard({
            ...base(),
            wallet: {
              accounts: [],
              features: {
                "solana:signTransaction": {
                  version: "1.0.0",
                  supportedTransactionVersions: [0],
                  signTransaction: vi.fn(),
                },
              },
            } as never,
            account: {
              ...account,
              get address(): string {
                return throws();
              },
            },
          }),
      ],
    ];
    for (const [name, run] of runs)
      expect(await refusalOf(run()), name).toEqual({ code: "SOL_SIGNER_INVALID", cause: thrown });
  });

  it("a signer whose getter answers once, then throws (its kind read again): SOL_SIGNER_INVALID, never a stray error", async () => {
    const thrown = new Error("second read");
    /** `value` on the first read of `key`, a throw on every later one. */
    const once = <T>(key: string, value: T, rest: object) => {
      let reads = 0;
      return Object.defineProperty({ ...rest }, key, {
        get() {
          if (reads++ > 0) throw thrown;
          return value;
        },
        enumerable: true,
      });
    };
    const signers: [string, object][] = [
      ["Keypair secretKey", once("secretKey", chain.user.secretKey, { publicKey: chain.user.publicKey })],
      [
        "wallet adapter signTransaction",
        once("signTransaction", vi.fn(), { publicKey: chain.user.publicKey }),
      ],
    ];
    for (const [name, signer] of signers) {
      const result = await refusalOf(signCosignTransaction({ ...base(), signer: signer as never })).catch(
        (e: unknown) => ({ code: `stray: ${String(e)}`, cause: undefined }),
      );
      expect(result.code, name).toMatch(/^SOL_/);
    }
  });
});
