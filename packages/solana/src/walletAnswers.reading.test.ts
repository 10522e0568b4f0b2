/**
 * Reading a wallet's or signer's answer: a Kit signer's dictionary may change the user's entry only, a slow signer's
 * late writes change nothing, and an answer whose reading throws is a coded refusal on every path.
 */
import { ed25519 } from "@noble/curves/ed25519";
import { isSwapIntentError } from "@swapintent/client";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
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

let chain: Chain;
beforeAll(async () => {
  chain = await createChain();
});
beforeEach(() => chain.svm.expireBlockhash());

const { runtimeAccepts } = transactionTools(() => chain);

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
