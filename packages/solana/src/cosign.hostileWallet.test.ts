/**
 * The signing paths against a hostile wallet: a hostile wallet (or Kit signer) answers with signatures and transactions a
 * hand-written check might accept but the runtime (litesvm, signature verification on) refuses, and every path
 * must refuse them with a coded error.
 */
import { ed25519 } from "@noble/curves/ed25519";
import { sha512 } from "@noble/hashes/sha512";
import { generateKeyPairSigner, partiallySignTransaction } from "@solana/kit";
import { isSwapIntentError } from "@swapintent/client";
import { FailedTransactionMetadata } from "litesvm";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type Chain,
  codeOf as codeOfSync,
  compileHex,
  createChain,
  DECIMALS,
  decodeHex,
  getTransferCheckedInstruction,
  honestInstructions,
  intentFor,
  quoteFor,
  userSigner,
  verifyParams,
} from "../test/fixture.js";
import { standardAccount } from "../test/paths.js";
import { bytesToHex, hexToBytes } from "./internal/hex.js";
import { signCosignTransaction } from "./signCosignTransaction.js";
import { signCosignTransactionWithKit } from "./signCosignTransactionWithKit.js";
import { signCosignTransactionWithWalletStandard } from "./signCosignTransactionWithWalletStandard.js";
import { verifyAndDecode } from "./verifyCosignTransaction.js";

let chain: Chain;
beforeAll(async () => {
  chain = await createChain();
});
beforeEach(() => chain.svm.expireBlockhash());

const Point = ed25519.ExtendedPoint;
const L = ed25519.CURVE.n;
const mod = (a: bigint) => ((a % L) + L) % L;
const le = (bytes: Uint8Array) => bytes.reduceRight((n, b) => (n << 8n) | BigInt(b), 0n);
const toLe32 = (n: bigint) => Uint8Array.from({ length: 32 }, (_, i) => Number((n >> BigInt(8 * i)) & 0xffn));
/** The point of order 2, (0, -1). */
const ORDER_2 = Point.fromHex(`ec${"ff".repeat(30)}7f`);

/**
 * A signature by the user's key over `message` whose R carries a small-order component: it satisfies the
 * cofactored equation [8]SB = [8]R + [8]kA (what ZIP-215 checks) but not SB = R + kA (what the runtime's strict
 * verification checks).
 */
function torsionSignature(message: Uint8Array, secret: Uint8Array): Uint8Array {
  const { scalar, pointBytes } = ed25519.utils.getExtendedPublicKey(secret);
  const r = mod(le(sha512(Uint8Array.from([...secret, ...message]))));
  const R = Point.BASE.multiply(r).add(ORDER_2).toRawBytes();
  const k = mod(le(sha512(Uint8Array.from([...R, ...pointBytes, ...message]))));
  return Uint8Array.from([...R, ...toLe32(mod(r + k * scalar))]);
}

/** An honest signature with L added to S (a second encoding of the same scalar). */
function nonCanonicalS(message: Uint8Array, secret: Uint8Array): Uint8Array {
  const signature = ed25519.sign(message, secret);
  return Uint8Array.from([...signature.subarray(0, 32), ...toLe32(le(signature.subarray(32)) + L)]);
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return isSwapIntentError(error) ? error.code : `not a SwapIntentError: ${String(error)}`;
  }
}

/** The hex with `signature` in the user's slot, co-signed by the resolver: whether litesvm executes it (simulated). */
async function runtimeAccepts(hex: string, signature: Uint8Array): Promise<boolean> {
  const verified = verifyAndDecode({
    intent: intentFor(hex),
    quote: quoteFor(chain),
    userAddress: chain.userAddress,
    escrow: { owner: chain.escrowOwner.address },
  });
  const bytes = hexToBytes(hex);
  bytes.set(signature, verified.decoded.signaturesOffset + 64 * verified.userSignerIndex);
  const tx = await partiallySignTransaction([chain.resolver.keyPair], decodeHex(bytesToHex(bytes)));
  // Simulated (sigverify on), so the user's balance is not spent by the tests that only ask.
  return !(chain.svm.simulateTransaction(tx) instanceof FailedTransactionMetadata);
}

/** The user's signature for `hex` from a hostile answer, through every signing path; the code each refused with. */
async function everyPath(hex: string, forge: (message: Uint8Array) => Uint8Array) {
  const base = {
    intent: intentFor(hex),
    quote: quoteFor(chain),
    escrow: { owner: chain.escrowOwner.address },
  };
  const user = chain.userAddress;
  const signMessage = vi.fn(async (message: Uint8Array) => forge(message));
  const signTransactions = vi.fn(async (txs: readonly { messageBytes: Uint8Array }[]) => [
    { [user]: forge(Uint8Array.from(txs[0]!.messageBytes)) },
  ]);
  const signTransaction = vi.fn(async ({ transaction }: { transaction: Uint8Array }) => {
    const verified = verifyAndDecode({ ...base, userAddress: user });
    const signed = transaction.slice();
    signed.set(
      forge(verified.messageBytes),
      verified.decoded.signaturesOffset + 64 * verified.userSignerIndex,
    );
    return [{ signedTransaction: signed }];
  });
  const wallet = {
    accounts: [],
    features: {
      "solana:signTransaction": {
        version: "1.0.0",
        supportedTransactionVersions: ["legacy", 0],
        signTransaction,
      },
    },
  };
  const codes = {
    web3: await codeOf(signCosignTransaction({ ...base, signer: { publicKey: user, signMessage } })),
    kit: await codeOf(
      signCosignTransactionWithKit({
        ...base,
        signer: { address: user, signTransactions: signTransactions as never },
      }),
    ),
    walletStandard: await codeOf(
      signCosignTransactionWithWalletStandard({
        ...base,
        wallet: wallet as never,
        account: standardAccount(user),
      }),
    ),
  };
  // Each hostile answer was really asked for (the refusal is of the answer, not of the transaction).
  expect([signMessage, signTransactions, signTransaction].map((f) => f.mock.calls.length)).toEqual([1, 1, 1]);
  return codes;
}

const refused = {
  web3: "SOL_SIGNATURE_INVALID",
  kit: "SOL_SIGNATURE_INVALID",
  walletStandard: "SOL_SIGNATURE_INVALID",
};

describe("a user signature the runtime refuses is refused on every path", () => {
  const secret = () => chain.user.secretKey.subarray(0, 32);

  it("R with a small-order component: noble's default (cofactored) check accepts it, litesvm refuses it", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const message = hexToBytes(hex).subarray(1 + 64 * 2);
    const forged = torsionSignature(message, secret());
    expect(ed25519.verify(forged, message, chain.user.publicKey.toBytes())).toBe(true);
    expect(await runtimeAccepts(hex, forged)).toBe(false);
    expect(await everyPath(hex, (m) => torsionSignature(m, secret()))).toEqual(refused);
    // The honest signature of the same construction (no torsion) is what the runtime executes.
    chain.svm.expireBlockhash();
    const honest = compileHex(chain, honestInstructions(chain));
    expect(await runtimeAccepts(honest, ed25519.sign(hexToBytes(honest).subarray(1 + 128), secret()))).toBe(
      true,
    );
  });

  it("S not reduced (S + L): litesvm refuses it", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const message = hexToBytes(hex).subarray(1 + 64 * 2);
    expect(await runtimeAccepts(hex, nonCanonicalS(message, secret()))).toBe(false);
    expect(await everyPath(hex, (m) => nonCanonicalS(m, secret()))).toEqual(refused);
  });
});

/**
 * A Proxy over the user's valid signature: every method and the length read through the real bytes (so a check that
 * calls them sees a valid signature), but iterating it (how a copy is made) yields zeros.
 */
function twoFacedSignature(valid: Uint8Array): Uint8Array {
  return new Proxy(valid, {
    get(target, property) {
      if (property === Symbol.iterator)
        return function* () {
          yield* new Uint8Array(64);
        };
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("the signature that is checked is the signature that is used", () => {
  it("a Proxy that reads as a valid signature but copies as zeros is refused on the web3 (external) and Kit paths", async () => {
    const secret = chain.user.secretKey.subarray(0, 32);
    const hex = compileHex(chain, honestInstructions(chain));
    const base = {
      intent: intentFor(hex),
      quote: quoteFor(chain),
      escrow: { owner: chain.escrowOwner.address },
    };
    const user = chain.userAddress;
    const forge = (m: Uint8Array) => twoFacedSignature(ed25519.sign(m, secret));
    const web3 = signCosignTransaction({
      ...base,
      signer: { publicKey: user, signMessage: async (m) => forge(m) },
    });
    const kit = signCosignTransactionWithKit({
      ...base,
      signer: {
        address: user,
        signTransactions: async (txs) => [{ [user]: forge(Uint8Array.from(txs[0]!.messageBytes)) }],
      },
    });
    expect([await codeOf(web3), await codeOf(kit)]).toEqual([
      "SOL_SIGNATURE_INVALID",
      "SOL_SIGNATURE_INVALID",
    ]);
  });

  it("a genuine Uint8Array (and a Node Buffer) of the valid signature is accepted, its bytes copied", async () => {
    const secret = chain.user.secretKey.subarray(0, 32);
    for (const wrap of [(s: Uint8Array) => s, (s: Uint8Array) => Buffer.from(s)]) {
      chain.svm.expireBlockhash();
      const hex = compileHex(chain, honestInstructions(chain));
      let given: Uint8Array | undefined;
      const result = await signCosignTransaction({
        intent: intentFor(hex),
        quote: quoteFor(chain),
        escrow: { owner: chain.escrowOwner.address },
        signer: {
          publicKey: chain.userAddress,
          signMessage: async (m) => {
            given = wrap(ed25519.sign(m, secret));
            return given;
          },
        },
      });
      const expected = bytesToHex(given!);
      given!.fill(0); // the signer writing into its answer afterwards changes nothing
      expect(result.signature).toBe(expected);
      expect(await runtimeAccepts(hex, hexToBytes(result.signature))).toBe(true);
    }
  });
});

describe("lookup table contents", () => {
  it("a table listed twice in lookupTables (two different contents) is refused, whichever order", async () => {
    const table = (await generateKeyPairSigner()).address;
    const hex = compileHex(chain, honestInstructions(chain), {
      lookupTables: { [table]: [chain.escrowAta, chain.mint] },
    });
    const real = { key: table, addresses: [chain.escrowAta, chain.mint] };
    const other = { key: table, addresses: [chain.strangerAta, chain.mint] };
    const verify = (lookupTables: (typeof real)[]) =>
      codeOfSync(() => verifyAndDecode({ ...verifyParams(chain, hex), lookupTables }));
    expect(verify([real])).toBeUndefined();
    expect(verify([real, other])).toBe("SOL_INVALID_PARAMETERS");
    expect(verify([other, real])).toBe("SOL_INVALID_PARAMETERS");
    expect(verify([real, real])).toBe("SOL_INVALID_PARAMETERS");
  });
});

describe("a Kit signer's dictionary", () => {
  it("an entry for another address is refused (one rule: only the user's slot may change); an echo of what a signer has is not a change", async () => {
    const secret = chain.user.secretKey.subarray(0, 32);
    const hex = compileHex(chain, honestInstructions(chain));
    const sign = (extra: Record<string, Uint8Array | null>) =>
      signCosignTransactionWithKit({
        intent: intentFor(hex),
        quote: quoteFor(chain),
        escrow: { owner: chain.escrowOwner.address },
        signer: {
          address: chain.userAddress,
          signTransactions: async (txs) => [
            {
              ...extra,
              [chain.userAddress]: ed25519.sign(Uint8Array.from(txs[0]!.messageBytes), secret),
            } as Record<string, Uint8Array>,
          ],
        },
      });
    const codeOf = (run: Promise<unknown>) =>
      run.then(
        () => undefined,
        (e: unknown) => (isSwapIntentError(e) ? e.code : String(e)),
      );
    expect(await codeOf(sign({ [chain.resolver.address]: new Uint8Array(64).fill(7) }))).toBe(
      "SOL_WALLET_SIGNATURES_CHANGED",
    );
    expect(await codeOf(sign({ [chain.stranger]: new Uint8Array(64).fill(9) }))).toBe(
      "SOL_WALLET_RESPONSE_INVALID",
    );
    // The fee payer has not signed yet: null (Kit's "no signature") or 64 zero bytes is what it has.
    for (const echo of [null, new Uint8Array(64)]) {
      const result = await sign({ [chain.resolver.address]: echo });
      const received = hexToBytes(hex);
      const signed = hexToBytes(result.transaction);
      expect(bytesToHex(signed.subarray(1, 65))).toBe(bytesToHex(received.subarray(1, 65))); // the fee payer's slot
      expect(bytesToHex(signed.subarray(129))).toBe(bytesToHex(received.subarray(129))); // the message
      expect(await runtimeAccepts(hex, signed.subarray(65, 129))).toBe(true);
    }
  });

  it("a slow signer's answer is checked like any other; its late writes into what it was handed change nothing", async () => {
    const secret = chain.user.secretKey.subarray(0, 32);
    const hex = compileHex(chain, honestInstructions(chain));
    let handed: Uint8Array | undefined;
    const result = await signCosignTransactionWithKit({
      intent: intentFor(hex),
      quote: quoteFor(chain),
      escrow: { owner: chain.escrowOwner.address },
      signer: {
        address: chain.userAddress,
        signTransactions: async (txs) => {
          handed = txs[0]!.messageBytes as Uint8Array;
          await new Promise((resolve) => setTimeout(resolve, 50));
          const signature = ed25519.sign(Uint8Array.from(handed), secret);
          handed.fill(0); // the signer scribbles over the message it was handed before answering
          return [{ [chain.userAddress]: signature }];
        },
      },
    });
    expect(handed!.every((b) => b === 0)).toBe(true);
    expect(result.transaction.slice(129 * 2)).toBe(hex.slice(129 * 2));
    expect(await runtimeAccepts(hex, hexToBytes(result.signature))).toBe(true);
  });
});

describe("an answer that throws when it is read is a coded refusal, never a stray TypeError", () => {
  const boom = () => {
    throw new Error("hostile getter");
  };
  /** An object whose every property read throws. */
  const trap = new Proxy({}, { get: boom, has: boom, getOwnPropertyDescriptor: boom, ownKeys: boom });

  it("web3 wallet adapter: a transaction without signatures, or whose signatures getter throws", async () => {
    const { VersionedTransaction } = await import("@solana/web3.js");
    const answers: ((tx: InstanceType<typeof VersionedTransaction>) => unknown)[] = [
      (tx) => ({ message: tx.message }),
      (tx) => ({ message: tx.message, signatures: "not an array" }),
      (tx) => ({
        message: tx.message,
        get signatures() {
          return boom();
        },
      }),
    ];
    for (const answer of answers) {
      chain.svm.expireBlockhash();
      const hex = compileHex(chain, honestInstructions(chain));
      const code = await codeOf(
        signCosignTransaction({
          intent: intentFor(hex),
          quote: quoteFor(chain),
          escrow: { owner: chain.escrowOwner.address },
          signer: { publicKey: chain.user.publicKey, signTransaction: async (tx) => answer(tx) as never },
        }),
      );
      expect(code, String(answer)).toBe("SOL_WALLET_RESPONSE_INVALID");
    }
  });

  it("Kit signer: a dictionary whose every read throws", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const code = await codeOf(
      signCosignTransactionWithKit({
        intent: intentFor(hex),
        quote: quoteFor(chain),
        escrow: { owner: chain.escrowOwner.address },
        signer: { address: chain.userAddress, signTransactions: async () => [trap as never] },
      }),
    );
    expect(code).toBe("SOL_WALLET_RESPONSE_INVALID");
  });

  it("wallet-standard: an output whose every read throws", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const wallet = {
      accounts: [],
      features: {
        "solana:signTransaction": {
          version: "1.0.0",
          supportedTransactionVersions: ["legacy", 0],
          signTransaction: async () => [trap],
        },
      },
    };
    const code = await codeOf(
      signCosignTransactionWithWalletStandard({
        intent: intentFor(hex),
        quote: quoteFor(chain),
        escrow: { owner: chain.escrowOwner.address },
        wallet: wallet as never,
        account: standardAccount(chain.userAddress),
      }),
    );
    expect(code).toBe("SOL_WALLET_RESPONSE_INVALID");
  });
});

describe("amounts at the u64 edge", () => {
  it("a quote above u64 (which no token amount can be) is refused, even when two transfers add up to it", async () => {
    const half = 1n << 63n;
    const transfer = (amount: bigint) =>
      getTransferCheckedInstruction({
        source: chain.userAta,
        mint: chain.mint,
        destination: chain.escrowAta,
        authority: userSigner(chain),
        amount,
        decimals: DECIMALS,
      });
    const [create, , memo] = honestInstructions(chain);
    const hex = compileHex(chain, [create!, transfer(half), transfer(half), memo!]);
    const quote = { sourceToken: chain.mint as string, sourceAmountLots: 1n << 64n };
    expect(codeOfSync(() => verifyAndDecode({ ...verifyParams(chain, hex), quote }))).toBe(
      "SOL_INVALID_PARAMETERS",
    );
    // The largest u64 itself is a valid quote (refused here only because the transfers add up to more).
    const max = { sourceToken: chain.mint as string, sourceAmountLots: (1n << 64n) - 1n };
    expect(codeOfSync(() => verifyAndDecode({ ...verifyParams(chain, hex), quote: max }))).toBe(
      "SOL_AMOUNT_MISMATCH",
    );
  });
});

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
