import { VersionedTransaction } from "@solana/web3.js";
import { getApproveInstruction } from "@solana-program/token";
import type { Intent } from "@swapintent/client";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AMOUNT,
  type Chain,
  compileHex,
  cosignAndSend,
  createChain,
  DECIMALS,
  honestInstructions,
  intentFor,
  userSigner,
  verifyParams,
} from "../test/fixture.js";
import { everyPathRefusal } from "../test/paths.js";
import { bytesToHex, hexToBytes } from "./internal/hex.js";
import {
  type VerifyCosignTransactionParameters,
  verifyCosignTransaction,
} from "./verifyCosignTransaction.js";

/** Lots the user allowed the resolver to move as a delegate (an allowance given to another app before). */
const DELEGATED = 100_000n;

let chain: Chain;
beforeAll(async () => {
  chain = await createChain();
  const approve = compileHex(chain, [
    getApproveInstruction({
      source: chain.userAta,
      delegate: chain.resolver.address,
      owner: userSigner(chain),
      amount: DELEGATED,
    }),
  ]);
  await cosignAndSend(chain, signBlindly(approve));
});
beforeEach(() => chain.svm.expireBlockhash());

/** The full quote (with decimals), the user, the escrow by owner. */
const params = (hex: string, extra: Partial<VerifyCosignTransactionParameters> = {}) =>
  verifyParams(chain, hex, {
    quote: { sourceToken: chain.mint, sourceAmountLots: AMOUNT, sourceAmountDecimals: DECIMALS },
    ...extra,
  });

/** A web3.js sign without any check: what a wallet without this package would produce. */
function signBlindly(hex: string): string {
  const tx = VersionedTransaction.deserialize(hexToBytes(hex));
  tx.sign([chain.user]);
  return bytesToHex(tx.serialize());
}

/**
 * The code the signing paths refuse with, and how often the user's signer was asked: every path (web3.js, Kit,
 * wallet-standard) runs the case and must agree, so each case of these tables runs through all three.
 */
async function signRefusal(hex: string, extra: Partial<VerifyCosignTransactionParameters> = {}) {
  const outcomes = await everyPathRefusal(params(hex, extra));
  expect(outcomes.adapter, "wallet-adapter path").toEqual(outcomes.web3);
  expect(outcomes.kit, "kit path").toEqual(outcomes.web3);
  expect(outcomes.walletStandard, "wallet-standard path").toEqual(outcomes.web3);
  return outcomes.web3;
}

describe("escrow { tokenAccount } vs { owner } vs { unchecked } confusion (the wallet's own input)", () => {
  it("more than one of them is SOL_INVALID_PARAMETERS before any key is used; an undefined one is absent", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const owner = chain.escrowOwner.address;
    const ambiguous = [
      { unchecked: true, owner }, // `{ ...defaults, owner }` over a default opt-out: was silently unchecked
      { owner, tokenAccount: chain.strangerAta }, // was silently the token account
      { unchecked: true, tokenAccount: chain.escrowAta },
    ] as unknown as VerifyCosignTransactionParameters["escrow"][];
    for (const escrow of ambiguous) {
      expect(await signRefusal(hex, { escrow })).toEqual({ code: "SOL_INVALID_PARAMETERS", signerCalls: 0 });
    }
    const withUndefined = {
      owner,
      tokenAccount: undefined,
    } as unknown as VerifyCosignTransactionParameters["escrow"];
    expect(verifyCosignTransaction(params(hex, { escrow: withUndefined })).destination).toBe(chain.escrowAta);
    const notOptOut = { unchecked: false, owner } as unknown as VerifyCosignTransactionParameters["escrow"];
    expect(verifyCosignTransaction(params(hex, { escrow: notOptOut })).destination).toBe(chain.escrowAta);
  });
});

describe("an intent of another approval mechanism", () => {
  it("is SOL_MECHANISM_MISMATCH (not the caller's bad parameters) before any key is used", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    for (const approvalMechanism of ["permit2", "htlc", "cosign ", null]) {
      const intent = { ...intentFor(hex), approvalMechanism } as unknown as Intent;
      expect(await signRefusal(hex, { intent })).toEqual({ code: "SOL_MECHANISM_MISMATCH", signerCalls: 0 });
    }
  });
});
