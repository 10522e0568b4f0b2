import { ed25519 } from "@noble/curves/ed25519";
import {
  createKeyPairSignerFromBytes,
  generateKeyPairSigner,
  getTransactionEncoder,
  type KeyPairSigner,
  partiallySignTransaction,
  type TransactionPartialSigner,
} from "@solana/kit";
import { isSwapIntentError } from "@swapintent/client";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  AMOUNT,
  type Chain,
  compileHex,
  cosignAndSend,
  createChain,
  decodeHex,
  honestInstructions,
  intentFor,
  quoteFor,
  send,
  tokenBalance,
} from "../test/fixture.js";
import { bytesToHex } from "./internal/hex.js";
import { type KitCosignSigner, signCosignTransactionWithKit } from "./signCosignTransactionWithKit.js";

let chain: Chain;
let userKit: KeyPairSigner;
beforeAll(async () => {
  chain = await createChain();
  // The same key as the fixture's web3.js Keypair, as a Kit KeyPairSigner (WebCrypto Ed25519 inside Kit).
  userKit = await createKeyPairSignerFromBytes(chain.user.secretKey);
});
beforeEach(() => chain.svm.expireBlockhash());

function params(hex: string, signer: KitCosignSigner) {
  return {
    intent: intentFor(hex),
    quote: quoteFor(chain),
    escrow: { owner: chain.escrowOwner.address },
    signer,
  };
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  return promise.then(
    () => undefined,
    (error: unknown) => (isSwapIntentError(error) ? error.code : `not a SwapIntentError: ${String(error)}`),
  );
}

/** A Kit partial signer for the user that hands `answer` back instead of its own dictionary, counting calls. */
function answering(answer: (signed: Readonly<Record<string, Uint8Array>>[]) => unknown) {
  const signTransactions = vi.fn(async (transactions: Parameters<KitCosignSigner["signTransactions"]>[0]) => {
    const signed = await userKit.signTransactions(transactions as never);
    return answer([...signed]) as Readonly<Record<string, Uint8Array>>[];
  });
  return { address: userKit.address, signTransactions };
}

describe("signCosignTransactionWithKit", () => {
  it("signs with a KeyPairSigner; litesvm executes the transaction after the resolver co-signs", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const before = tokenBalance(chain, chain.userAta);
    const result = await signCosignTransactionWithKit(params(hex, userKit));
    expect(result.userAddress).toBe(userKit.address);
    expect(result.approval).toEqual({
      type: "cosign",
      signedData: { transaction: result.transaction, userAddress: result.userAddress },
    });
    const decoded = decodeHex(result.transaction);
    expect(decoded.signatures[chain.resolver.address]).toBeNull();
    expect(bytesToHex(decoded.signatures[chain.userAddress]!)).toBe(result.signature);
    await cosignAndSend(chain, result.transaction);
    expect(tokenBalance(chain, chain.userAta)).toBe(before - AMOUNT);
  });

  it("signs a legacy transaction, and one the resolver signed first (its signature handed to the signer and kept)", async () => {
    const legacy = compileHex(chain, honestInstructions(chain), { version: "legacy" });
    const before = tokenBalance(chain, chain.escrowAta);
    await cosignAndSend(chain, (await signCosignTransactionWithKit(params(legacy, userKit))).transaction);
    expect(tokenBalance(chain, chain.escrowAta)).toBe(before + AMOUNT);

    chain.svm.expireBlockhash();
    const preSigned = await partiallySignTransaction(
      [chain.resolver.keyPair],
      decodeHex(compileHex(chain, honestInstructions(chain))),
    );
    const preHex = bytesToHex(new Uint8Array(getTransactionEncoder().encode(preSigned)));
    const seen: unknown[] = [];
    const spy = answering((signed) => signed);
    spy.signTransactions.mockImplementationOnce(async (transactions) => {
      seen.push(...transactions);
      return (await userKit.signTransactions(transactions as never)) as never;
    });
    const result = await signCosignTransactionWithKit(params(preHex, spy));
    const handed = seen[0] as { signatures: Record<string, Uint8Array | null>; lifetimeConstraint: unknown };
    expect(handed.signatures[chain.resolver.address]).toEqual(preSigned.signatures[chain.resolver.address]);
    expect(handed.signatures[chain.userAddress]).toBeNull();
    expect(handed.lifetimeConstraint).toEqual({
      blockhash: chain.svm.latestBlockhash(),
      lastValidBlockHeight: 0xffff_ffff_ffff_ffffn,
    });
    send(chain.svm, decodeHex(result.transaction)); // both signatures present: sent as is
    expect(tokenBalance(chain, chain.escrowAta)).toBe(before + 2n * AMOUNT);
  });

  it("accepts any TransactionPartialSigner (here one backed by @noble/curves, not Kit's WebCrypto)", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const secret = chain.user.secretKey.slice(0, 32);
    const partial: TransactionPartialSigner = {
      address: userKit.address,
      signTransactions: async (transactions) =>
        transactions.map((tx) => ({
          [userKit.address]: ed25519.sign(tx.messageBytes as unknown as Uint8Array, secret),
        })) as never,
    };
    const result = await signCosignTransactionWithKit(params(hex, partial));
    await cosignAndSend(chain, result.transaction);
  });

  it("refuses what the signer returns unless it is one dictionary with a valid signature of the user", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const other = await generateKeyPairSigner();
    const cases: [string, (signed: Readonly<Record<string, Uint8Array>>[]) => unknown, string][] = [
      ["no dictionary", () => [], "SOL_WALLET_RESPONSE_INVALID"],
      ["two dictionaries", (s) => [s[0], s[0]], "SOL_WALLET_RESPONSE_INVALID"],
      ["not an array", (s) => s[0], "SOL_WALLET_RESPONSE_INVALID"],
      ["a null dictionary", () => [null], "SOL_WALLET_RESPONSE_INVALID"],
      ["no signature for the user", () => [{}], "SOL_SIGNATURE_INVALID"],
      [
        // An entry for an address that signs nothing is a wrong answer (only the user's slot may change).
        "the user's signature under another address only",
        (s) => [{ [other.address]: s[0]![userKit.address] }],
        "SOL_WALLET_RESPONSE_INVALID",
      ],
      [
        "a signature of 63 bytes",
        (s) => [{ [userKit.address]: s[0]![userKit.address]!.slice(1) }],
        "SOL_SIGNATURE_INVALID",
      ],
      [
        "a garbage signature",
        () => [{ [userKit.address]: new Uint8Array(64).fill(7) }],
        "SOL_SIGNATURE_INVALID",
      ],
      [
        "a signature as an array of numbers",
        (s) => [{ [userKit.address]: [...s[0]![userKit.address]!] }],
        "SOL_SIGNATURE_INVALID",
      ],
      [
        "a valid signature by another key",
        () => [
          {
            [userKit.address]: ed25519.sign(
              decodeHex(hex).messageBytes as unknown as Uint8Array,
              ed25519.utils.randomPrivateKey(),
            ),
          },
        ],
        "SOL_SIGNATURE_INVALID",
      ],
      [
        "the user's signature over another message",
        () => [
          { [userKit.address]: ed25519.sign(Uint8Array.of(1, 2, 3), chain.user.secretKey.slice(0, 32)) },
        ],
        "SOL_SIGNATURE_INVALID",
      ],
    ];
    for (const [name, answer, code] of cases) {
      const signer = answering(answer);
      expect(await codeOf(signCosignTransactionWithKit(params(hex, signer))), name).toBe(code);
      expect(signer.signTransactions, name).toHaveBeenCalledTimes(1);
    }
  });

  it("refuses an unusable signer before verifying or asking it (SOL_SIGNER_INVALID)", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const signTransactions = vi.fn(async () => []);
    for (const signer of [
      undefined,
      null,
      { address: userKit.address },
      { address: "not an address", signTransactions },
      { address: undefined, signTransactions },
      { signMessages: signTransactions, address: userKit.address },
    ]) {
      expect(await codeOf(signCosignTransactionWithKit(params(hex, signer as never))), String(signer)).toBe(
        "SOL_SIGNER_INVALID",
      );
    }
    expect(signTransactions).not.toHaveBeenCalled();
  });

  it("a signer of another address is refused as not a signer of the transaction, never asked", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const stranger = await generateKeyPairSigner();
    const signTransactions = vi.fn(stranger.signTransactions);
    const signer = { address: stranger.address, signTransactions };
    expect(await codeOf(signCosignTransactionWithKit(params(hex, signer)))).toBe("SOL_USER_NOT_SIGNER");
    expect(signTransactions).not.toHaveBeenCalled();
  });

  it("does not mutate the intent, and what the signer is handed is frozen", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const signer = answering((s) => s);
    const p = params(hex, signer);
    const copy = structuredClone(p.intent);
    await signCosignTransactionWithKit(p);
    expect(p.intent).toEqual(copy);
    const handed = signer.signTransactions.mock.calls[0]![0][0]!;
    expect(Object.isFrozen(handed)).toBe(true);
    expect(Object.isFrozen(handed.signatures)).toBe(true);
  });
});
