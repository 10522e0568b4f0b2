/**
 * One tampered copy of the honest transaction per refusal, each refused with its own code; and, on litesvm, what the
 * refused transactions would do if the user signed them blindly.
 */
import { address, generateKeyPairSigner, type Instruction, some } from "@solana/kit";
import { VersionedTransaction } from "@solana/web3.js";
import { getAssignInstruction, getTransferSolInstruction } from "@solana-program/system";
import {
  AuthorityType,
  getApproveInstruction,
  getBurnInstruction,
  getCloseAccountInstruction,
  getSetAuthorityInstruction,
  getTransferInstruction,
} from "@solana-program/token";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AMOUNT,
  ata,
  type Chain,
  codeOf,
  compileHex,
  cosignAndSend,
  createChain,
  honestInstructions,
  memoInstruction,
  tokenBalance,
} from "../test/fixture.js";
import { everyPathRefusal, refusedEverywhere } from "../test/paths.js";
import { transactionTools } from "../test/transactionTools.js";
import { bytesToHex, hexToBytes } from "./internal/hex.js";
import {
  type VerifyCosignTransactionParameters,
  verifyCosignTransaction,
} from "./verifyCosignTransaction.js";

let chain: Chain;
beforeAll(async () => {
  chain = await createChain();
});
beforeEach(() => chain.svm.expireBlockhash());

const { params, user, tampered, transferChecked } = transactionTools(() => chain);

describe("verifyCosignTransaction refuses tampered transactions, each with its code", () => {
  const cases: {
    name: string;
    code: string;
    build: () => string | Promise<string>;
    extra?: () => Partial<VerifyCosignTransactionParameters>;
  }[] = [
    {
      name: "wrong amount",
      code: "SOL_AMOUNT_MISMATCH",
      build: () => tampered({ transfer: [transferChecked({ amount: AMOUNT + 1n })] }),
    },
    {
      name: "amount split over two transfers that sum to more",
      code: "SOL_AMOUNT_MISMATCH",
      build: () => tampered({ transfer: [transferChecked({}), transferChecked({ amount: 1n })] }),
    },
    {
      name: "wrong mint",
      code: "SOL_MINT_MISMATCH",
      build: async () =>
        tampered({
          transfer: [
            transferChecked({
              mint: chain.otherMint,
              source: chain.userOtherAta,
              destination: await ata(chain.escrowOwner.address, chain.otherMint),
            }),
          ],
        }),
    },
    {
      name: "destination a stranger",
      code: "SOL_DESTINATION_NOT_ALLOWED",
      build: () => tampered({ transfer: [transferChecked({ destination: chain.strangerAta })] }),
    },
    {
      name: "user as fee payer",
      code: "SOL_USER_IS_FEE_PAYER",
      build: () => compileHex(chain, honestInstructions(chain), { feePayer: chain.userAddress }),
    },
    {
      name: "user not a signer (authority passed as a plain account)",
      code: "SOL_USER_NOT_SIGNER",
      build: () => tampered({ transfer: [transferChecked({ authority: chain.userAddress })] }),
    },
    {
      name: "user absent from the transaction",
      code: "SOL_USER_NOT_SIGNER",
      build: () => tampered({ transfer: [] }),
    },
    {
      name: "a disallowed program",
      code: "SOL_PROGRAM_NOT_ALLOWED",
      build: () =>
        tampered({
          append: [
            {
              programAddress: address("BPFLoaderUpgradeab1e11111111111111111111111"),
              accounts: [],
              data: new Uint8Array([3]),
            },
          ],
        }),
    },
    {
      name: "an Approve to a delegate",
      code: "SOL_AUTHORITY_GRANT",
      build: () =>
        tampered({
          append: [
            getApproveInstruction({
              source: chain.userAta,
              delegate: chain.stranger,
              owner: user(),
              amount: 1n,
            }),
          ],
        }),
    },
    {
      name: "a SetAuthority on the user's token account",
      code: "SOL_AUTHORITY_GRANT",
      build: () =>
        tampered({
          append: [
            getSetAuthorityInstruction({
              owned: chain.userAta,
              owner: user(),
              authorityType: AuthorityType.AccountOwner,
              newAuthority: some(chain.stranger),
            }),
          ],
        }),
    },
    {
      name: "a CloseAccount of the user's token account",
      code: "SOL_AUTHORITY_GRANT",
      build: () =>
        tampered({
          append: [
            getCloseAccountInstruction({
              account: chain.userOtherAta,
              destination: chain.stranger,
              owner: user(),
            }),
          ],
        }),
    },
    {
      name: "a System Assign of the user's wallet to another program",
      code: "SOL_AUTHORITY_GRANT",
      build: () =>
        tampered({ append: [getAssignInstruction({ account: user(), programAddress: chain.stranger })] }),
    },
    {
      name: "a SOL transfer out of the user",
      code: "SOL_NATIVE_OUTFLOW_TOO_HIGH",
      build: () =>
        tampered({
          append: [getTransferSolInstruction({ source: user(), destination: chain.stranger, amount: 1n })],
        }),
    },
    {
      name: "an escrow account creation paid by the user",
      code: "SOL_NATIVE_OUTFLOW_TOO_HIGH",
      build: () => {
        const [, transfer, memo] = honestInstructions(chain);
        const create = honestInstructions(chain)[0]!;
        const userPays = {
          ...create,
          accounts: [{ ...create.accounts![0]!, address: chain.userAddress }, ...create.accounts!.slice(1)],
        };
        return compileHex(chain, [userPays as Instruction, transfer!, memo!]);
      },
    },
    {
      name: "an unresolved lookup table",
      code: "SOL_LOOKUP_TABLE_UNRESOLVED",
      build: async () =>
        tampered({}, { lookupTables: { [(await generateKeyPairSigner()).address]: [chain.escrowAta] } }),
    },
    {
      name: "a lookup index beyond the supplied table",
      code: "SOL_LOOKUP_TABLE_UNRESOLVED",
      build: async () => {
        const table = (await generateKeyPairSigner()).address;
        lookupOverride = [{ key: table, addresses: [] }];
        return tampered({}, { lookupTables: { [table]: [chain.escrowAta] } });
      },
      extra: () => ({ lookupTables: lookupOverride }),
    },
    {
      name: "a second transfer to a stranger",
      code: "SOL_EXTRA_OUTFLOW",
      build: () => tampered({ append: [transferChecked({ destination: chain.strangerAta, amount: 1n })] }),
    },
    {
      name: "with the escrow unchecked, the quoted amount split between two destinations",
      code: "SOL_EXTRA_OUTFLOW",
      build: () =>
        tampered({
          transfer: [
            transferChecked({ amount: AMOUNT - 1n }),
            transferChecked({ destination: chain.strangerAta, amount: 1n }),
          ],
        }),
      extra: () => ({ escrow: { unchecked: true } }),
    },
    {
      name: "with the escrow unchecked, a second destination paid first and the escrow second",
      code: "SOL_EXTRA_OUTFLOW",
      build: () =>
        tampered({
          transfer: [
            transferChecked({ destination: chain.strangerAta, amount: AMOUNT / 2n }),
            transferChecked({ amount: AMOUNT / 2n }),
          ],
        }),
      extra: () => ({ escrow: { unchecked: true } }),
    },
    {
      name: "an unchecked Transfer to a stranger besides the escrow transfer",
      code: "SOL_EXTRA_OUTFLOW",
      build: () =>
        tampered({
          append: [
            getTransferInstruction({
              source: chain.userAta,
              destination: chain.strangerAta,
              authority: user(),
              amount: 1n,
            }),
          ],
        }),
    },
    {
      name: "a Burn of the user's tokens",
      code: "SOL_EXTRA_OUTFLOW",
      build: () =>
        tampered({
          append: [
            getBurnInstruction({ account: chain.userAta, mint: chain.mint, authority: user(), amount: 1n }),
          ],
        }),
    },
    {
      name: "an undecodable token instruction involving the user",
      code: "SOL_INSTRUCTION_UNKNOWN",
      build: () =>
        tampered({
          append: [
            {
              programAddress: address("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb"),
              accounts: [{ address: chain.userAddress, role: 2 /* readonly signer */ }],
              data: new Uint8Array([26, 1]),
            },
          ],
        }),
    },
    {
      name: "a caller-allowed program that involves the user",
      code: "SOL_INSTRUCTION_UNKNOWN",
      build: () =>
        tampered({
          append: [
            {
              programAddress: address("Stake11111111111111111111111111111111111111"),
              accounts: [{ address: chain.userAddress, role: 3 /* writable signer */ }],
              data: new Uint8Array([1]),
            },
          ],
        }),
      extra: () => ({ allowedPrograms: ["Stake11111111111111111111111111111111111111"] }),
    },
    {
      name: "a memo naming another intent",
      code: "SOL_MEMO_MISMATCH",
      build: () => {
        const [create, transfer] = honestInstructions(chain);
        return compileHex(chain, [create!, transfer!, memoInstruction("swapintent:other:0x00")]);
      },
    },
    { name: "hex that is not hex", code: "SOL_TX_DECODE_FAILED", build: () => "zz" },
    { name: "bytes that are not a transaction", code: "SOL_TX_DECODE_FAILED", build: () => "0102030405" },
    {
      name: "a transaction with trailing bytes",
      code: "SOL_TX_DECODE_FAILED",
      build: () => `${compileHex(chain, honestInstructions(chain))}00`,
    },
    {
      name: "no escrow given",
      code: "SOL_ESCROW_NOT_SPECIFIED",
      build: () => compileHex(chain, honestInstructions(chain)),
      extra: () => ({ escrow: undefined as unknown as VerifyCosignTransactionParameters["escrow"] }),
    },
  ];
  let lookupOverride: { key: string; addresses: string[] }[] = [];

  it.each(cases)(
    "$name -> $code (verify, and every signing path before its signer is asked)",
    async ({ build, code, extra }) => {
      const hex = await build();
      const parameters = params(hex, extra?.());
      expect(
        codeOf(() => verifyCosignTransaction(parameters)),
        hex.slice(0, 8),
      ).toBe(code);
      // One table, every path: web3.js, Kit and wallet-standard refuse with the same code, their signer never asked.
      expect(await everyPathRefusal(parameters)).toEqual(refusedEverywhere(code));
    },
  );

  it("covers at least 12 distinct refusal codes", () => {
    expect(new Set(cases.map((c) => c.code)).size).toBeGreaterThanOrEqual(12);
  });
});

describe("the refused transactions are real threats: litesvm would execute them if the user signed blindly", () => {
  it("a bare web3.js sign of the stranger-destination transaction moves the user's tokens to the stranger", async () => {
    const hex = tampered({ transfer: [transferChecked({ destination: chain.strangerAta, amount: 7n })] });
    expect(codeOf(() => verifyCosignTransaction(params(hex)))).toBe("SOL_DESTINATION_NOT_ALLOWED");
    const tx = VersionedTransaction.deserialize(hexToBytes(hex));
    tx.sign([chain.user]);
    const before = tokenBalance(chain, chain.strangerAta);
    await cosignAndSend(chain, bytesToHex(tx.serialize()));
    expect(tokenBalance(chain, chain.strangerAta)).toBe(before + 7n);
  });

  it("a bare sign of the amount split between the escrow and a stranger moves part of it to the stranger", async () => {
    const hex = tampered({
      transfer: [
        transferChecked({ amount: AMOUNT - 3n }),
        transferChecked({ destination: chain.strangerAta, amount: 3n }),
      ],
    });
    expect(codeOf(() => verifyCosignTransaction(params(hex, { escrow: { unchecked: true } })))).toBe(
      "SOL_EXTRA_OUTFLOW",
    );
    const tx = VersionedTransaction.deserialize(hexToBytes(hex));
    tx.sign([chain.user]);
    const before = tokenBalance(chain, chain.strangerAta);
    await cosignAndSend(chain, bytesToHex(tx.serialize()));
    expect(tokenBalance(chain, chain.strangerAta)).toBe(before + 3n);
  });

  it("a bare sign of the Approve transaction makes the stranger a delegate litesvm honours", async () => {
    const hex = tampered({
      append: [
        getApproveInstruction({ source: chain.userAta, delegate: chain.stranger, owner: user(), amount: 1n }),
      ],
    });
    const tx = VersionedTransaction.deserialize(hexToBytes(hex));
    tx.sign([chain.user]);
    await cosignAndSend(chain, bytesToHex(tx.serialize()));
    const { getTokenDecoder } = await import("@solana-program/token");
    const account = chain.svm.getAccount(chain.userAta);
    expect(account.exists && getTokenDecoder().decode(account.data).delegate).toEqual(some(chain.stranger));
  });
});
