/**
 * What an honest cosign transaction (the approvals.md instructions, built by @solana/kit) is accepted as, and what
 * the summary says of it: the escrow by owner, token account or opt-out, legacy and v0, Token-2022, lookup tables, the
 * SOL and programs the caller allows.
 */
import { type Address, address, generateKeyPairSigner, type Instruction } from "@solana/kit";
import { VersionedTransaction } from "@solana/web3.js";
import { getTransferSolInstruction } from "@solana-program/system";
import { findAssociatedTokenPda, getTransferCheckedInstruction } from "@solana-program/token";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AMOUNT,
  type Chain,
  codeOf,
  compileHex,
  createChain,
  DECIMALS,
  honestInstructions,
  intentFor,
} from "../test/fixture.js";
import { transactionTools } from "../test/transactionTools.js";
import { hexToBytes } from "./internal/hex.js";
import { verifyCosignTransaction } from "./verifyCosignTransaction.js";

let chain: Chain;
beforeAll(async () => {
  chain = await createChain();
});
beforeEach(() => chain.svm.expireBlockhash());

const { params, user, tampered } = transactionTools(() => chain);

describe("verifyCosignTransaction: the honest transaction", () => {
  it("accepts the approvals.md transaction and describes it", () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const result = verifyCosignTransaction(params(hex));
    expect(result).toMatchObject({
      userAddress: chain.userAddress,
      userSignerIndex: 1,
      feePayer: chain.resolver.address,
      mint: chain.mint,
      amountLots: AMOUNT,
      destination: chain.escrowAta,
      nativeOutflowLamports: 0n,
      memos: [`swapintent:${intentFor(hex).intentId}:${intentFor(hex).secretHash}`],
    });
  });

  it("accepts the escrow given as its token account, and the explicit opt-out", () => {
    const hex = compileHex(chain, honestInstructions(chain));
    expect(
      verifyCosignTransaction(params(hex, { escrow: { tokenAccount: chain.escrowAta } })).amountLots,
    ).toBe(AMOUNT);
    expect(verifyCosignTransaction(params(hex, { escrow: { unchecked: true } })).destination).toBe(
      chain.escrowAta,
    );
  });

  it("accepts a legacy transaction", () => {
    const hex = compileHex(chain, honestInstructions(chain), { version: "legacy" });
    expect(VersionedTransaction.deserialize(hexToBytes(hex)).version).toBe("legacy");
    expect(verifyCosignTransaction(params(hex)).amountLots).toBe(AMOUNT);
  });

  it("derives the escrow account for Token-2022 transfers with the Token-2022 program", async () => {
    const token2022 = address("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb");
    const [escrow2022] = await findAssociatedTokenPda({
      owner: chain.escrowOwner.address,
      mint: chain.mint,
      tokenProgram: token2022,
    });
    const transfer = (destination: Address) =>
      getTransferCheckedInstruction(
        {
          source: chain.userAta,
          mint: chain.mint,
          destination,
          authority: user(),
          amount: AMOUNT,
          decimals: DECIMALS,
        },
        { programAddress: token2022 },
      );
    const plain = { token2022Mint: { transferFee: null, transferHook: null } };
    expect(
      verifyCosignTransaction(params(tampered({ transfer: [transfer(escrow2022)] }), plain)).destination,
    ).toBe(escrow2022);
    // The SPL Token escrow account is not the Token-2022 one.
    expect(
      codeOf(() =>
        verifyCosignTransaction(params(tampered({ transfer: [transfer(chain.escrowAta)] }), plain)),
      ),
    ).toBe("SOL_DESTINATION_NOT_ALLOWED");
  });

  it("accepts lookup tables when their contents are supplied, and checks through them", async () => {
    const table = (await generateKeyPairSigner()).address;
    const hex = tampered({}, { lookupTables: { [table]: [chain.escrowAta, chain.mint] } });
    expect(VersionedTransaction.deserialize(hexToBytes(hex)).message.addressTableLookups).toHaveLength(1);
    const ok = verifyCosignTransaction(
      params(hex, { lookupTables: [{ key: table, addresses: [chain.escrowAta, chain.mint] }] }),
    );
    expect(ok.destination).toBe(chain.escrowAta);
    // The same table contents with a stranger at the escrow's index: the destination check sees it.
    const lying = [{ key: table, addresses: [chain.strangerAta, chain.mint] }];
    expect(codeOf(() => verifyCosignTransaction(params(hex, { lookupTables: lying })))).toBe(
      "SOL_DESTINATION_NOT_ALLOWED",
    );
  });

  it("allows the SOL the caller allows to leave the user", () => {
    const hex = tampered({
      append: [getTransferSolInstruction({ source: user(), destination: chain.stranger, amount: 5000n })],
    });
    expect(
      verifyCosignTransaction(params(hex, { maxNativeOutflowLamports: 5000n })).nativeOutflowLamports,
    ).toBe(5000n);
  });

  it("allows a caller-added program that does not involve the user", () => {
    const program = address("Stake11111111111111111111111111111111111111");
    const ix: Instruction = { programAddress: program, accounts: [], data: new Uint8Array([1]) };
    const hex = tampered({ append: [ix] });
    expect(codeOf(() => verifyCosignTransaction(params(hex)))).toBe("SOL_PROGRAM_NOT_ALLOWED");
    expect(verifyCosignTransaction(params(hex, { allowedPrograms: [program] })).programs).toContain(program);
  });
});
