import type { Intent } from "@swapintent/client";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Chain, compileHex, honestInstructions, intentFor } from "../test/fixture.js";
import { createDelegatedChain, transactionTools } from "../test/transactionTools.js";
import {
  type VerifyCosignTransactionParameters,
  verifyCosignTransaction,
} from "./verifyCosignTransaction.js";

let chain: Chain;
beforeAll(async () => {
  chain = await createDelegatedChain();
});
beforeEach(() => chain.svm.expireBlockhash());

const { quotedParams: params, signRefusal } = transactionTools(() => chain);

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
