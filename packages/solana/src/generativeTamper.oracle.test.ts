/**
 * The effect oracle of the generative tamper test, checked itself (so a pass means something): it accepts the honest
 * transaction's effects and notices each harm litesvm executes when signed blindly.
 */
import { createAddressWithSeed, createNoopSigner, type Instruction } from "@solana/kit";
import { getCreateAccountWithSeedInstruction, getTransferSolInstruction } from "@solana-program/system";
import {
  getApproveInstruction,
  getRevokeInstruction,
  getTransferCheckedInstruction,
} from "@solana-program/token";
import { describe, expect, it } from "vitest";
import {
  assertUserEffects,
  chain,
  DELEGATED,
  honestHex,
  outcomeOf,
  PROGRAMS,
  signBlindly,
  useEffectOracle,
  withTransaction,
} from "../test/effectOracle.js";
import { AMOUNT, compileHex, DECIMALS, honestInstructions } from "../test/fixture.js";
import { verifyCosignTransaction } from "./verifyCosignTransaction.js";

useEffectOracle();

describe("the effect oracle itself (so a pass means something)", () => {
  it("accepts the honest transaction's effects and notices each harm litesvm executes when signed blindly", async () => {
    const honestSigned = signBlindly(honestHex);
    await assertUserEffects((await outcomeOf(honestSigned))!, honestSigned);
    const [create, transfer, memo] = honestInstructions(chain);
    const user = createNoopSigner(chain.userAddress);
    const harms: Instruction[][] = [
      [
        create!,
        getApproveInstruction({ source: chain.userAta, delegate: chain.stranger, owner: user, amount: 1n }),
        memo!,
      ],
      [
        create!,
        transfer!,
        getTransferSolInstruction({ source: user, destination: chain.stranger, amount: 100_000_000n }),
        memo!,
      ],
      [
        create!,
        transfer!,
        getCreateAccountWithSeedInstruction({
          payer: createNoopSigner(chain.resolver.address),
          newAccount: await createAddressWithSeed({
            baseAddress: chain.userAddress,
            programAddress: PROGRAMS.stake,
            seed: "s",
          }),
          baseAccount: user,
          base: chain.userAddress,
          seed: "s",
          amount: 1_000_000n,
          space: 0n,
          programAddress: PROGRAMS.stake,
        }),
        memo!,
      ],
      [
        create!,
        getTransferCheckedInstruction({
          source: chain.userAta,
          mint: chain.mint,
          destination: chain.strangerAta,
          authority: user,
          amount: AMOUNT,
          decimals: DECIMALS,
        }),
        memo!,
      ],
      // A Revoke of the allowance the user gave elsewhere, and a pull by that delegate (no user key needed).
      [create!, transfer!, getRevokeInstruction({ source: chain.userAta, owner: user }), memo!],
      [
        create!,
        transfer!,
        getTransferCheckedInstruction({
          source: chain.userAta,
          mint: chain.mint,
          destination: chain.strangerAta,
          authority: createNoopSigner(chain.resolver.address),
          amount: DELEGATED,
          decimals: DECIMALS,
        }),
        memo!,
      ],
    ];
    for (const instructions of harms) {
      const hex = compileHex(chain, instructions);
      expect(verifyCosignTransaction.bind(null, withTransaction(hex))).toThrow();
      const signed = signBlindly(hex);
      const outcome = await outcomeOf(signed);
      expect(outcome, `harm ${harms.indexOf(instructions)}`).toBeDefined();
      await expect(assertUserEffects(outcome!, signed)).rejects.toThrow();
    }
  });
});
