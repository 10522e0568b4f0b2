/**
 * What is accepted beside the honest instructions is harmless: litesvm executes it signed and the user's wallet and
 * token account end as after the honest transaction.
 */
import { AccountRole, address, type Instruction } from "@solana/kit";
import { VersionedTransaction } from "@solana/web3.js";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AMOUNT, type Chain, compileHex, honestInstructions } from "../test/fixture.js";
import { createDelegatedChain, role, transactionTools, u64 } from "../test/transactionTools.js";
import { bytesToHex, hexToBytes } from "./internal/hex.js";
import { signCosignTransaction } from "./signCosignTransaction.js";
import { verifyCosignTransaction } from "./verifyCosignTransaction.js";

const TOKEN = address("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
const ATA = address("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL");
const COMPUTE_BUDGET = address("ComputeBudget111111111111111111111111111111");
const SYSTEM = address("11111111111111111111111111111111");

let chain: Chain;
beforeAll(async () => {
  chain = await createDelegatedChain();
});
beforeEach(() => chain.svm.expireBlockhash());

const { quotedParams: params, signBlindly, withExtra, userOutcome } = transactionTools(() => chain);

const { READONLY: R, WRITABLE: W, WRITABLE_SIGNER: WS } = AccountRole;
const bytes = (...parts: ArrayLike<number>[]) => Uint8Array.from(parts.flatMap((p) => Array.from(p)));

describe("accepted, and harmless: litesvm executes them signed and the user ends as after the honest transaction", () => {
  const harmless: { name: string; build: () => Instruction[]; why: string }[] = [
    {
      name: "a huge compute-unit price",
      why: "the fee payer (signer 0, never the user) pays every fee",
      build: () => [{ programAddress: COMPUTE_BUDGET, accounts: [], data: bytes([3], u64(10n ** 9n)) }],
    },
    {
      name: "a compute-budget instruction naming the user's wallet as a writable account",
      why: "the compute-budget program reads no accounts",
      build: () => [
        {
          programAddress: COMPUTE_BUDGET,
          accounts: [role(chain.userAddress, W)],
          data: bytes([2], [0, 0, 4, 0]),
        },
      ],
    },
    {
      name: "a resolver-funded idempotent create of the user's associated account for another mint",
      why: "an account of the user's own (here it exists: a no-op; new, the resolver pays its rent)",
      build: () => [
        {
          programAddress: ATA,
          accounts: [
            role(chain.resolver.address, WS),
            role(chain.userOtherAta, W),
            role(chain.userAddress, R),
            role(chain.otherMint, R),
            role(SYSTEM, R),
            role(TOKEN, R),
          ],
          data: Uint8Array.from([1]),
        },
      ],
    },
    {
      name: "a 0-lamport SOL transfer from the user",
      why: "nothing leaves the user",
      build: () => [
        {
          programAddress: SYSTEM,
          accounts: [role(chain.userAddress, WS), role(chain.stranger, W)],
          data: bytes([2, 0, 0, 0], u64(0n)),
        },
      ],
    },
    {
      name: "a resolver SOL transfer to the user with trailing data bytes",
      why: "the user only receives; the lamports read are the ones the program moves",
      build: () => [
        {
          programAddress: SYSTEM,
          accounts: [role(chain.resolver.address, WS), role(chain.userAddress, W)],
          data: bytes([2, 0, 0, 0], u64(5n), [7, 7]),
        },
      ],
    },
  ];

  it.each(harmless)("$name ($why)", async ({ build }) => {
    await assertHarmless(withExtra(...build()));
  });

  it("the user's read-only signer flag flipped to writable in the header (no instruction can debit it)", async () => {
    const tx = VersionedTransaction.deserialize(hexToBytes(compileHex(chain, honestInstructions(chain))));
    // Signers are [resolver, user]; the honest header makes the last one, the user, a read-only signer.
    expect(tx.message.staticAccountKeys[1]!.toBase58()).toBe(chain.userAddress);
    expect(tx.message.header).toMatchObject({ numRequiredSignatures: 2, numReadonlySignedAccounts: 1 });
    tx.message.header.numReadonlySignedAccounts = 0;
    expect(tx.message.isAccountWritable(1)).toBe(true);
    await assertHarmless(bytesToHex(tx.serialize()));
  });

  async function assertHarmless(hex: string) {
    const shown = verifyCosignTransaction(params(hex));
    expect(shown).toMatchObject({
      amountLots: AMOUNT,
      destination: chain.escrowAta,
      nativeOutflowLamports: 0n,
    });
    const { userAddress: _u, ...rest } = params(hex);
    const signed = await signCosignTransaction({ ...rest, signer: chain.user });
    const honest = await userOutcome(signBlindly(compileHex(chain, honestInstructions(chain))));
    const outcome = await userOutcome(signed.transaction);
    expect(outcome.tokenAccount).toEqual(honest.tokenAccount);
    expect(outcome.wallet?.owner).toBe(honest.wallet?.owner);
    expect(outcome.wallet?.data).toBe(honest.wallet?.data);
    expect(outcome.wallet!.lamports >= honest.wallet!.lamports).toBe(true);
  }
});
