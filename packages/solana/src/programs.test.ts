/**
 * Every program a transaction can invoke is checked and listed, including those an instruction reaches through its
 * accounts (the System Program and the token program of an associated-account create).
 */
import { type Address, address } from "@solana/kit";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Chain, codeOf, compileHex, createChain, honestInstructions } from "../test/fixture.js";
import { transactionTools } from "../test/transactionTools.js";
import { verifyCosignTransaction } from "./verifyCosignTransaction.js";

const STAKE_PROGRAM = address("Stake11111111111111111111111111111111111111");
const TOKEN_PROGRAM = address("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
const SYSTEM_PROGRAM = address("11111111111111111111111111111111");

let chain: Chain;
beforeAll(async () => {
  chain = await createChain();
});
beforeEach(() => chain.svm.expireBlockhash());

const { params, signRefusalUnquoted } = transactionTools(() => chain);

describe("programs reached through an instruction's accounts are checked and reported", () => {
  const createWith = (slot: 4 | 5, program: Address) => {
    const [create, transfer, memo] = honestInstructions(chain);
    const accounts = [...create!.accounts!];
    accounts[slot] = { ...accounts[slot]!, address: program };
    return compileHex(chain, [{ ...create!, accounts }, transfer!, memo!]);
  };

  it("reports the System Program the associated-account create invokes, besides the top-level programs", () => {
    const { programs } = verifyCosignTransaction(params(compileHex(chain, honestInstructions(chain))));
    expect(programs).toEqual([
      "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL",
      SYSTEM_PROGRAM,
      TOKEN_PROGRAM,
      "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr",
    ]);
  });

  it("refuses a resolver-paid create whose 'token program' is another program, unless allowed; then it is reported", async () => {
    const hex = createWith(5, STAKE_PROGRAM);
    expect(codeOf(() => verifyCosignTransaction(params(hex)))).toBe("SOL_PROGRAM_NOT_ALLOWED");
    expect(await signRefusalUnquoted(hex)).toEqual({ code: "SOL_PROGRAM_NOT_ALLOWED", signerCalls: 0 });
    expect(verifyCosignTransaction(params(hex, { allowedPrograms: [STAKE_PROGRAM] })).programs).toContain(
      STAKE_PROGRAM,
    );
  });

  it("refuses a create whose System Program slot names another program", () => {
    expect(codeOf(() => verifyCosignTransaction(params(createWith(4, STAKE_PROGRAM))))).toBe(
      "SOL_PROGRAM_NOT_ALLOWED",
    );
  });
});
