import { ed25519 } from "@noble/curves/ed25519";
import { getTransactionDecoder, getTransactionEncoder, partiallySignTransaction } from "@solana/kit";
import type { SolanaSignTransactionFeature } from "@solana/wallet-standard-features";
import { isSwapIntentError } from "@swapintent/client";
import type { Wallet } from "@wallet-standard/base";
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
import { standardAccount } from "../test/paths.js";
import { bytesToHex, hexToBytes } from "./internal/hex.js";
import {
  type SignCosignTransactionWithWalletStandardParameters,
  signCosignTransactionWithWalletStandard,
} from "./signCosignTransactionWithWalletStandard.js";

let chain: Chain;
beforeAll(async () => {
  chain = await createChain();
});
beforeEach(() => chain.svm.expireBlockhash());

/** One input of `solana:signTransaction` as the stand-in reads it. */
interface StandInInput {
  account?: unknown;
  transaction: Uint8Array;
  chain?: string;
}

/** What the stand-in does to the transaction it signed before returning it (identity: an honest wallet). */
type Tamper = (signed: Uint8Array, input: Uint8Array) => unknown;

/**
 * A wallet-standard wallet as `@wallet-standard/base` and `@solana/wallet-standard-features` declare it, holding the
 * user's key: `solana:signTransaction` decodes each input (Kit's decoder), signs the message bytes and returns the
 * wire bytes, then applies `tamper` to what it returns.
 */
function standInWallet(tamper: Tamper = (signed) => signed) {
  const account = standardAccount(chain.userAddress);
  const honest = async (...inputs: StandInInput[]) =>
    Promise.all(
      inputs.map(async ({ transaction }) => {
        const decoded = getTransactionDecoder().decode(transaction);
        const signed = await partiallySignTransaction([userKeyPair], decoded);
        const bytes = new Uint8Array(getTransactionEncoder().encode(signed));
        return { signedTransaction: tamper(bytes, transaction) };
      }),
    );
  const signTransaction = vi.fn<(...inputs: StandInInput[]) => Promise<unknown>>(honest);
  const feature: SolanaSignTransactionFeature = {
    "solana:signTransaction": {
      version: "1.0.0",
      supportedTransactionVersions: ["legacy", 0],
      signTransaction: signTransaction as never,
    },
  };
  const wallet: Wallet = {
    version: "1.0.0",
    name: "Stand-in",
    icon: "data:image/svg+xml;base64,AA==",
    chains: ["solana:localnet"],
    accounts: [account],
    features: feature,
  };
  return { wallet, account, signTransaction };
}

let userKeyPair: CryptoKeyPair;
beforeAll(async () => {
  const { createKeyPairFromBytes } = await import("@solana/kit");
  userKeyPair = await createKeyPairFromBytes(chain.user.secretKey);
});

function params(
  hex: string,
  stand: ReturnType<typeof standInWallet>,
  extra: Partial<SignCosignTransactionWithWalletStandardParameters> = {},
): SignCosignTransactionWithWalletStandardParameters {
  return {
    intent: intentFor(hex),
    quote: quoteFor(chain),
    escrow: { owner: chain.escrowOwner.address },
    wallet: stand.wallet,
    account: stand.account,
    ...extra,
  };
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  return promise.then(
    () => undefined,
    (error: unknown) => (isSwapIntentError(error) ? error.code : `not a SwapIntentError: ${String(error)}`),
  );
}

/** The byte offset of signature slot `i` in a serialized transaction with fewer than 128 signatures. */
const slot = (i: number) => 1 + 64 * i;

describe("signCosignTransactionWithWalletStandard", () => {
  it("an honest wallet signs; litesvm executes the transaction after the resolver co-signs", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const stand = standInWallet();
    const before = tokenBalance(chain, chain.userAta);
    const result = await signCosignTransactionWithWalletStandard(
      params(hex, stand, { chain: "solana:localnet" }),
    );
    expect(stand.signTransaction).toHaveBeenCalledTimes(1);
    const [input] = stand.signTransaction.mock.calls[0]!;
    expect(input).toMatchObject({ account: stand.account, chain: "solana:localnet" });
    expect(bytesToHex(input!.transaction)).toBe(hex);
    expect(result.approval.signedData.userAddress).toBe(chain.userAddress);
    await cosignAndSend(chain, result.transaction);
    expect(tokenBalance(chain, chain.userAta)).toBe(before - AMOUNT);
  });

  it("a legacy transaction, and one the resolver signed first: its signature stays and litesvm executes as is", async () => {
    const legacy = compileHex(chain, honestInstructions(chain), { version: "legacy" });
    await cosignAndSend(
      chain,
      (await signCosignTransactionWithWalletStandard(params(legacy, standInWallet()))).transaction,
    );
    chain.svm.expireBlockhash();
    const preSigned = await partiallySignTransaction(
      [chain.resolver.keyPair],
      decodeHex(compileHex(chain, honestInstructions(chain))),
    );
    const preHex = bytesToHex(new Uint8Array(getTransactionEncoder().encode(preSigned)));
    const result = await signCosignTransactionWithWalletStandard(params(preHex, standInWallet()));
    send(chain.svm, decodeHex(result.transaction));
  });

  it("refuses whatever a wallet changed besides the user's signature, each with its code", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const preSigned = await partiallySignTransaction([chain.resolver.keyPair], decodeHex(hex));
    const preHex = bytesToHex(new Uint8Array(getTransactionEncoder().encode(preSigned)));
    const other = hexToBytes(compileHex(chain, honestInstructions(chain, { amount: AMOUNT * 2n })));
    const flip =
      (at: (b: Uint8Array) => number): Tamper =>
      (signed) => {
        const b = signed.slice();
        b[at(b)]! ^= 1;
        return b;
      };
    const cases: [string, string, Tamper, string?][] = [
      ["a message byte changed (in the memo)", "SOL_WALLET_MESSAGE_CHANGED", flip((b) => b.length - 5)],
      [
        "another transaction, signed",
        "SOL_WALLET_MESSAGE_CHANGED",
        (signed) => {
          const b = other.slice();
          b.set(signed.subarray(slot(1), slot(2)), slot(1));
          return b;
        },
      ],
      [
        "the resolver's empty slot filled",
        "SOL_WALLET_SIGNATURES_CHANGED",
        (signed) => {
          const b = signed.slice();
          b.fill(9, slot(0), slot(1));
          return b;
        },
      ],
      [
        "the resolver's signature erased",
        "SOL_WALLET_SIGNATURES_CHANGED",
        (signed) => {
          const b = signed.slice();
          b.fill(0, slot(0), slot(1));
          return b;
        },
        preHex,
      ],
      [
        "the user's signature missing (slot left empty)",
        "SOL_SIGNATURE_INVALID",
        (_signed, input) => input.slice(),
      ],
      ["the user's signature corrupted", "SOL_SIGNATURE_INVALID", flip(() => slot(1) + 5)],
      [
        "the user's slot signed by another key",
        "SOL_SIGNATURE_INVALID",
        (signed) => {
          const b = signed.slice();
          const message = b.subarray(slot(2));
          b.set(ed25519.sign(message, ed25519.utils.randomPrivateKey()), slot(1));
          return b;
        },
      ],
      ["a trailing byte added", "SOL_WALLET_RESPONSE_INVALID", (signed) => Uint8Array.of(...signed, 0)],
      [
        "the signature count made non-minimal",
        "SOL_WALLET_RESPONSE_INVALID",
        (signed) => Uint8Array.of(0x82, 0x00, ...signed.subarray(1)),
      ],
      ["a truncated transaction", "SOL_WALLET_RESPONSE_INVALID", (signed) => signed.slice(0, 100)],
      [
        "base64 text instead of bytes",
        "SOL_WALLET_RESPONSE_INVALID",
        (signed) => btoa(String.fromCharCode(...signed)),
      ],
      ["a number array instead of bytes", "SOL_WALLET_RESPONSE_INVALID", (signed) => [...signed]],
      ["nothing", "SOL_WALLET_RESPONSE_INVALID", () => undefined],
    ];
    for (const [name, code, tamper, tx] of cases) {
      const stand = standInWallet(tamper);
      expect(await codeOf(signCosignTransactionWithWalletStandard(params(tx ?? hex, stand))), name).toBe(
        code,
      );
      expect(stand.signTransaction, name).toHaveBeenCalledTimes(1);
    }
  });

  it("refuses an answer that is not one output per input", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    for (const answer of [[], undefined, null, {}, [null], "signed"]) {
      const stand = standInWallet();
      stand.signTransaction.mockResolvedValueOnce(answer as never);
      expect(await codeOf(signCosignTransactionWithWalletStandard(params(hex, stand))), String(answer)).toBe(
        "SOL_WALLET_RESPONSE_INVALID",
      );
    }
    const two = standInWallet();
    two.signTransaction.mockImplementationOnce(async (...inputs) => {
      const [out] = (await standInWallet().signTransaction(...inputs)) as unknown[];
      return [out, out];
    });
    expect(await codeOf(signCosignTransactionWithWalletStandard(params(hex, two)))).toBe(
      "SOL_WALLET_RESPONSE_INVALID",
    );
  });

  it("refuses a wallet or account it cannot use, before verifying or asking the wallet (SOL_SIGNER_INVALID)", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const stand = standInWallet();
    const other = standardAccount(chain.stranger);
    const cases: [string, Partial<SignCosignTransactionWithWalletStandardParameters>][] = [
      ["no solana:signTransaction", { wallet: { accounts: [], features: {} } }],
      [
        "a feature without signTransaction",
        { wallet: { accounts: [], features: { "solana:signTransaction": { version: "1.0.0" } } } },
      ],
      ["no wallet", { wallet: undefined as never }],
      [
        "an account whose publicKey is another key",
        { account: { ...stand.account, publicKey: other.publicKey } },
      ],
      ["an account without a publicKey", { account: { ...stand.account, publicKey: undefined as never } }],
      ["an account address that is not an address", { account: { ...stand.account, address: "0xuser" } }],
      ["a chain the account does not list", { chain: "solana:mainnet" }],
    ];
    for (const [name, extra] of cases) {
      expect(await codeOf(signCosignTransactionWithWalletStandard(params(hex, stand, extra))), name).toBe(
        "SOL_SIGNER_INVALID",
      );
    }
    expect(stand.signTransaction).not.toHaveBeenCalled();
  });

  it("refuses a wallet that does not sign the transaction's version, after verifying and before asking it", async () => {
    const stand = standInWallet();
    const feature = stand.wallet.features["solana:signTransaction"] as {
      supportedTransactionVersions: unknown;
    };
    feature.supportedTransactionVersions = ["legacy"];
    expect(
      await codeOf(
        signCosignTransactionWithWalletStandard(params(compileHex(chain, honestInstructions(chain)), stand)),
      ),
    ).toBe("SOL_SIGNER_INVALID");
    expect(stand.signTransaction).not.toHaveBeenCalled();
  });

  it("what the wallet is handed is a copy: a wallet writing into it changes nothing that was checked", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const stand = standInWallet((signed, input) => {
      input.fill(0);
      return signed;
    });
    const result = await signCosignTransactionWithWalletStandard(params(hex, stand));
    await cosignAndSend(chain, result.transaction);
  });
});
