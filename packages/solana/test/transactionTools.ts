/**
 * Test support shared by the transaction tables: a chain on which the user has given the resolver an allowance, and
 * builders bound to a test file's chain (tampered copies of the honest transaction, a blind web3.js sign, the
 * refusal every signing path agrees on, whether the runtime accepts a user signature).
 */
import type { AccountRole, Address, Instruction } from "@solana/kit";
import { partiallySignTransaction } from "@solana/kit";
import { VersionedTransaction } from "@solana/web3.js";
import { getApproveInstruction, getTransferCheckedInstruction } from "@solana-program/token";
import { isSwapIntentError } from "@swapintent/client";
import { FailedTransactionMetadata } from "litesvm";
import { expect } from "vitest";
import { bytesToHex, hexToBytes } from "../src/internal/hex.js";
import { type VerifyCosignTransactionParameters, verifyAndDecode } from "../src/verifyCosignTransaction.js";
import {
  AMOUNT,
  type Chain,
  type CompileOptions,
  compileHex,
  cosignAndSend,
  createChain,
  DECIMALS,
  decodeHex,
  honestInstructions,
  intentFor,
  quoteFor,
  userSigner,
  verifyParams,
} from "./fixture.js";
import { everyPathRefusal } from "./paths.js";

/** Lots the user allowed the resolver to move as a delegate (an allowance given to another app before). */
export const DELEGATED = 100_000n;

/** A web3.js sign without any check: what a wallet without this package would produce. */
export function signBlindly(chain: Chain, hex: string): string {
  const tx = VersionedTransaction.deserialize(hexToBytes(hex));
  tx.sign([chain.user]);
  return bytesToHex(tx.serialize());
}

/** A fresh chain on which the user has approved the resolver as delegate for {@link DELEGATED} lots. */
export async function createDelegatedChain(): Promise<Chain> {
  const chain = await createChain();
  const approve = compileHex(chain, [
    getApproveInstruction({
      source: chain.userAta,
      delegate: chain.resolver.address,
      owner: userSigner(chain),
      amount: DELEGATED,
    }),
  ]);
  await cosignAndSend(chain, signBlindly(chain, approve));
  return chain;
}

/** The code `promise` rejects with (a swapintent error's code), or undefined when it resolves. */
export async function asyncCodeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return isSwapIntentError(error) ? error.code : `not a SwapIntentError: ${String(error)}`;
  }
}

/** An account meta for kit instructions. */
export const role = (a: Address, r: AccountRole) => ({ address: a, role: r });

/** `n` as 8 little-endian bytes. */
export const u64 = (n: bigint) => {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, n, true);
  return out;
};

/**
 * The code the signing paths refuse `parameters` with, and how often the user's signer was asked: every path
 * (web3.js, wallet adapter, Kit, wallet-standard, each with a spy signer) runs the case and must agree.
 */
export async function agreedRefusal(parameters: VerifyCosignTransactionParameters) {
  const outcomes = await everyPathRefusal(parameters);
  expect(outcomes.adapter, "wallet-adapter path").toEqual(outcomes.web3);
  expect(outcomes.kit, "kit path").toEqual(outcomes.web3);
  expect(outcomes.walletStandard, "wallet-standard path").toEqual(outcomes.web3);
  return outcomes.web3;
}

/** The builders of this file bound to the chain `getChain` returns when a test runs. */
export function transactionTools(getChain: () => Chain) {
  const user = () => userSigner(getChain());
  /** Verify parameters: the fixture's intent and quote, the user, the escrow by owner. */
  const params = (hex: string, extra: Partial<VerifyCosignTransactionParameters> = {}) =>
    verifyParams(getChain(), hex, extra);
  /** The full quote (with decimals), the user, the escrow by owner. */
  const quotedParams = (hex: string, extra: Partial<VerifyCosignTransactionParameters> = {}) => {
    const chain = getChain();
    return verifyParams(chain, hex, {
      quote: { sourceToken: chain.mint, sourceAmountLots: AMOUNT, sourceAmountDecimals: DECIMALS },
      ...extra,
    });
  };
  return {
    user,
    params,
    quotedParams,
    signBlindly: (hex: string) => signBlindly(getChain(), hex),
    /** The honest instructions with `extra` after the transfer, before the memo. */
    withExtra(...extra: Instruction[]): string {
      const chain = getChain();
      const [create, transfer, memo] = honestInstructions(chain);
      return compileHex(chain, [create!, transfer!, ...extra, memo!]);
    },
    /** The honest transaction with `transfer` swapped for the TransferChecked (index 1) and `append` added before the memo. */
    tampered(
      change: { transfer?: Instruction[]; append?: Instruction[] },
      options: CompileOptions = {},
    ): string {
      const chain = getChain();
      const [create, transfer, memo] = honestInstructions(chain);
      return compileHex(
        chain,
        [create!, ...(change.transfer ?? [transfer!]), ...(change.append ?? []), memo!],
        options,
      );
    },
    /** The honest TransferChecked with any of its fields replaced. */
    transferChecked(over: {
      mint?: Address;
      source?: Address;
      destination?: Address;
      amount?: bigint;
      authority?: Address;
    }) {
      const chain = getChain();
      return getTransferCheckedInstruction({
        source: over.source ?? chain.userAta,
        mint: over.mint ?? chain.mint,
        destination: over.destination ?? chain.escrowAta,
        authority: over.authority ? over.authority : user(),
        amount: over.amount ?? AMOUNT,
        decimals: DECIMALS,
      });
    },
    /** {@link agreedRefusal} with full-quote parameters ({@link quotedParams}). */
    signRefusal: (hex: string, extra: Partial<VerifyCosignTransactionParameters> = {}) =>
      agreedRefusal(quotedParams(hex, extra)),
    /** {@link agreedRefusal} with the fixture's parameters ({@link params}: the quote without decimals). */
    signRefusalUnquoted: (hex: string, extra: Partial<VerifyCosignTransactionParameters> = {}) =>
      agreedRefusal(params(hex, extra)),
    /** Post-state of the user's wallet and token account when litesvm simulates `userSignedHex` co-signed. */
    async userOutcome(userSignedHex: string) {
      const chain = getChain();
      const tx = await partiallySignTransaction([chain.resolver.keyPair], decodeHex(userSignedHex));
      const result = chain.svm.simulateTransaction(tx);
      if (result instanceof FailedTransactionMetadata) throw new Error(`litesvm: ${result.toString()}`);
      const post = new Map(result.postAccounts().map((a) => [a.address as string, a]));
      const state = (account: Address) => {
        const hit = post.get(account);
        if (hit !== undefined)
          return {
            lamports: hit.lamports,
            owner: hit.programAddress,
            data: bytesToHex(Uint8Array.from(hit.data)),
          };
        const info = chain.svm.getAccount(account);
        return info.exists
          ? {
              lamports: info.lamports,
              owner: info.programAddress,
              data: bytesToHex(Uint8Array.from(info.data)),
            }
          : undefined;
      };
      return { wallet: state(chain.userAddress), tokenAccount: state(chain.userAta) };
    },
    /** The hex with `signature` in the user's slot, co-signed by the resolver: whether litesvm executes it (simulated). */
    async runtimeAccepts(hex: string, signature: Uint8Array): Promise<boolean> {
      const chain = getChain();
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
    },
  };
}
