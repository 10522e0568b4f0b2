/**
 * The user's signature a wallet or signer returns is held to what the runtime accepts (litesvm, signature
 * verification on): a small-order R or an unreduced S is refused on every path, and the bytes checked are the bytes used.
 */
import { ed25519 } from "@noble/curves/ed25519";
import { sha512 } from "@noble/hashes/sha512";
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
import { asyncCodeOf as codeOf, transactionTools } from "../test/transactionTools.js";
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

const { runtimeAccepts } = transactionTools(() => chain);

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
