import {
  type Address,
  address,
  appendTransactionMessageInstructions,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  generateKeyPairSigner,
  type Instruction,
  lamports,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransaction,
  some,
} from "@solana/kit";
import { VersionedTransaction } from "@solana/web3.js";
import {
  getAdvanceNonceAccountInstruction,
  getAssignInstruction,
  getCreateAccountInstruction,
  getTransferSolInstruction,
} from "@solana-program/system";
import {
  AuthorityType,
  findAssociatedTokenPda,
  getApproveInstruction,
  getBurnInstruction,
  getCloseAccountInstruction,
  getCreateAssociatedTokenIdempotentInstruction,
  getFreezeAccountInstruction,
  getInitializeMint2Instruction,
  getMintToCheckedInstruction,
  getMintToInstruction,
  getSetAuthorityInstruction,
  getThawAccountInstruction,
  getTransferCheckedInstruction,
  getTransferInstruction,
} from "@solana-program/token";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AMOUNT,
  ata,
  type Chain,
  type CompileOptions,
  codeOf,
  compileHex,
  cosignAndSend,
  createChain,
  DECIMALS,
  honestInstructions,
  intentFor,
  memoInstruction,
  quoteFor,
  send,
  tokenBalance,
  userSigner,
  verifyParams,
} from "../test/fixture.js";
import { everyPathRefusal, refusedEverywhere } from "../test/paths.js";
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

const params = (hex: string, extra: Partial<VerifyCosignTransactionParameters> = {}) =>
  verifyParams(chain, hex, extra);

const user = () => userSigner(chain);

/** The honest transaction with `replace` swapped for the TransferChecked (index 1) and `append` added before the memo. */
function tampered(
  change: { transfer?: Instruction[]; append?: Instruction[] },
  options: CompileOptions = {},
): string {
  const [create, transfer, memo] = honestInstructions(chain);
  return compileHex(
    chain,
    [create!, ...(change.transfer ?? [transfer!]), ...(change.append ?? []), memo!],
    options,
  );
}

function transferChecked(over: {
  mint?: Address;
  source?: Address;
  destination?: Address;
  amount?: bigint;
  authority?: Address;
}) {
  return getTransferCheckedInstruction({
    source: over.source ?? chain.userAta,
    mint: over.mint ?? chain.mint,
    destination: over.destination ?? chain.escrowAta,
    authority: over.authority ? over.authority : user(),
    amount: over.amount ?? AMOUNT,
    decimals: DECIMALS,
  });
}

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

describe("verifyCosignTransaction refuses bad parameters", () => {
  it("an intent of another approval mechanism (SOL_MECHANISM_MISMATCH)", () => {
    const hex = compileHex(chain, honestInstructions(chain));
    for (const approvalMechanism of ["permit2", "htlc", "Cosign", undefined]) {
      const other = {
        ...intentFor(hex),
        approvalMechanism,
      } as unknown as VerifyCosignTransactionParameters["intent"];
      expect(
        codeOf(() => verifyCosignTransaction(params(hex, { intent: other }))),
        String(approvalMechanism),
      ).toBe("SOL_MECHANISM_MISMATCH");
    }
  });

  it("a non-positive or non-bigint amount, a negative cap (SOL_INVALID_PARAMETERS)", () => {
    const hex = compileHex(chain, honestInstructions(chain));
    expect(codeOf(() => verifyCosignTransaction(params(hex, { quote: quoteFor(chain, 0n) })))).toBe(
      "SOL_INVALID_PARAMETERS",
    );
    const floaty = { sourceToken: chain.mint as string, sourceAmountLots: 250000 as unknown as bigint };
    expect(codeOf(() => verifyCosignTransaction(params(hex, { quote: floaty })))).toBe(
      "SOL_INVALID_PARAMETERS",
    );
    expect(codeOf(() => verifyCosignTransaction(params(hex, { maxNativeOutflowLamports: -1n })))).toBe(
      "SOL_INVALID_PARAMETERS",
    );
  });

  it("addresses that are not base58 32-byte keys (SOL_INVALID_ADDRESS)", () => {
    const hex = compileHex(chain, honestInstructions(chain));
    expect(codeOf(() => verifyCosignTransaction(params(hex, { userAddress: "0xabc" })))).toBe(
      "SOL_INVALID_ADDRESS",
    );
    expect(codeOf(() => verifyCosignTransaction(params(hex, { escrow: { owner: "l0Ol" } })))).toBe(
      "SOL_INVALID_ADDRESS",
    );
    expect(
      codeOf(() =>
        verifyCosignTransaction(params(hex, { quote: { sourceToken: "USDC", sourceAmountLots: 1n } })),
      ),
    ).toBe("SOL_INVALID_ADDRESS");
  });

  it("a native SOL source is checked as the wrapped SOL mint", () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const native = { sourceToken: "11111111111111111111111111111111", sourceAmountLots: AMOUNT };
    expect(codeOf(() => verifyCosignTransaction(params(hex, { quote: native })))).toBe("SOL_MINT_MISMATCH");
  });
});

describe("verifyCosignTransaction refuses what a malicious service could slip past the decoder", () => {
  it("a MintTo under the user's mint authority (the user's signature would mint tokens to a stranger) -> SOL_AUTHORITY_GRANT", () => {
    const hex = tampered({
      append: [
        getMintToInstruction({
          mint: chain.otherMint,
          token: chain.strangerAta,
          mintAuthority: user(),
          amount: 10n ** 12n,
        }),
      ],
    });
    expect(codeOf(() => verifyCosignTransaction(params(hex)))).toBe("SOL_AUTHORITY_GRANT");
  });

  it("a MintToChecked, FreezeAccount or ThawAccount under the user's authority -> SOL_AUTHORITY_GRANT", () => {
    const instructions = [
      getMintToCheckedInstruction({
        mint: chain.otherMint,
        token: chain.strangerAta,
        mintAuthority: user(),
        amount: 1n,
        decimals: DECIMALS,
      }),
      getFreezeAccountInstruction({ account: chain.strangerAta, mint: chain.mint, owner: user() }),
      getThawAccountInstruction({ account: chain.strangerAta, mint: chain.mint, owner: user() }),
    ];
    for (const instruction of instructions)
      expect(codeOf(() => verifyCosignTransaction(params(tampered({ append: [instruction] }))))).toBe(
        "SOL_AUTHORITY_GRANT",
      );
  });
  it("with the escrow unchecked, a mint-less Transfer of another token of the user -> SOL_MINT_MISMATCH", async () => {
    // `Transfer` names no mint: with no known destination nothing ties it to the quote's mint.
    const hex = tampered({
      transfer: [
        getTransferInstruction({
          source: chain.userOtherAta,
          destination: await ata(chain.stranger, chain.otherMint),
          authority: user(),
          amount: AMOUNT,
        }),
      ],
    });
    expect(codeOf(() => verifyCosignTransaction(params(hex, { escrow: { unchecked: true } })))).toBe(
      "SOL_MINT_MISMATCH",
    );
  });
  it("a durable-nonce transaction (never expires, the resolver could hold the user's signature) -> SOL_DURABLE_NONCE", async () => {
    const [create, transfer, memo] = honestInstructions(chain);
    const advance = getAdvanceNonceAccountInstruction({
      nonceAccount: (await generateKeyPairSigner()).address,
      nonceAuthority: createNoopSigner(chain.resolver.address),
    });
    const hex = compileHex(chain, [advance, create!, transfer!, memo!]);
    expect(codeOf(() => verifyCosignTransaction(params(hex)))).toBe("SOL_DURABLE_NONCE");
  });
  it("a user-paid associated account create naming a foreign 'token program' (it sets the rent) -> SOL_PROGRAM_NOT_ALLOWED, or SOL_INSTRUCTION_UNKNOWN when the caller allows that program", () => {
    const [create, transfer, memo] = honestInstructions(chain);
    const accounts = create!.accounts!;
    const userPays = {
      ...create,
      accounts: [
        { ...accounts[0]!, address: chain.userAddress },
        ...accounts.slice(1, 5),
        { ...accounts[5]!, address: chain.stranger },
      ],
    };
    const hex = compileHex(chain, [userPays as Instruction, transfer!, memo!]);
    expect(
      codeOf(() => verifyCosignTransaction(params(hex, { maxNativeOutflowLamports: 1_000_000_000n }))),
    ).toBe("SOL_PROGRAM_NOT_ALLOWED");
    expect(
      codeOf(() =>
        verifyCosignTransaction(
          params(hex, { maxNativeOutflowLamports: 1_000_000_000n, allowedPrograms: [chain.stranger] }),
        ),
      ),
    ).toBe("SOL_INSTRUCTION_UNKNOWN");
  });

  it("the rent a user-paid Token-2022 associated account create is charged covers a transfer-fee mint's account (litesvm)", async () => {
    const token2022 = address("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb");
    const mint = await generateKeyPairSigner();
    const space = 278n; // a mint with the TransferFeeConfig extension
    // Token-2022 InitializeTransferFeeConfig (26, 0): no authorities, 10 bps, maximum fee 1.
    const transferFeeConfig = new Uint8Array([26, 0, 0, 0, 10, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
    const setup = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayer(chain.resolver.address, m),
      (m) =>
        setTransactionMessageLifetimeUsingBlockhash(
          { blockhash: chain.svm.latestBlockhash(), lastValidBlockHeight: 0n },
          m,
        ),
      (m) =>
        appendTransactionMessageInstructions(
          [
            getCreateAccountInstruction({
              payer: chain.resolver,
              newAccount: mint,
              lamports: lamports(chain.svm.minimumBalanceForRentExemption(space)),
              space,
              programAddress: token2022,
            }),
            {
              programAddress: token2022,
              accounts: [{ address: mint.address, role: 1 }],
              data: transferFeeConfig,
            },
            getInitializeMint2Instruction(
              { mint: mint.address, decimals: DECIMALS, mintAuthority: chain.resolver.address },
              { programAddress: token2022 },
            ),
          ],
          m,
        ),
    );
    send(chain.svm, await signTransaction([chain.resolver.keyPair, mint.keyPair], compileTransaction(setup)));
    const owner = (await generateKeyPairSigner()).address;
    const [account] = await findAssociatedTokenPda({ owner, mint: mint.address, tokenProgram: token2022 });
    const create = getCreateAssociatedTokenIdempotentInstruction({
      payer: user(),
      ata: account,
      owner,
      mint: mint.address,
      tokenProgram: token2022,
    });
    const verified = verifyCosignTransaction(
      params(tampered({ append: [create] }), { maxNativeOutflowLamports: 10n ** 9n }),
    );
    // Execute the create alone, signed by the user, and measure what the user paid.
    const tx = VersionedTransaction.deserialize(hexToBytes(compileHex(chain, [create])));
    tx.sign([chain.user]);
    const before = chain.svm.getBalance(chain.userAddress)!;
    await cosignAndSend(chain, bytesToHex(tx.serialize()));
    const paid = before - chain.svm.getBalance(chain.userAddress)!;
    expect(paid).toBeGreaterThan(2_074_080n); // more than a bare 170-byte Token-2022 account
    expect(verified.nativeOutflowLamports).toBeGreaterThanOrEqual(paid);
  });

  it("a quote whose lots and decimals are both inflated (the wallet would still display the typed amount) -> SOL_DECIMALS_MISMATCH", () => {
    // The mint has 6 decimals (the token program checks TransferChecked's decimals against it); the quote says 9.
    const inflated = AMOUNT * 1000n;
    const hex = tampered({ transfer: [transferChecked({ amount: inflated })] });
    const quote = { sourceToken: chain.mint as string, sourceAmountLots: inflated, sourceAmountDecimals: 9 };
    expect(codeOf(() => verifyCosignTransaction(params(hex, { quote })))).toBe("SOL_DECIMALS_MISMATCH");
    // The honest pair passes.
    const honest = compileHex(chain, honestInstructions(chain));
    const honestQuote = { ...quoteFor(chain), sourceAmountDecimals: DECIMALS };
    expect(verifyCosignTransaction(params(honest, { quote: honestQuote })).amountLots).toBe(AMOUNT);
  });

  it("with the quote's decimals given, a plain Transfer (which carries none) -> SOL_DECIMALS_MISMATCH", () => {
    const hex = tampered({
      transfer: [
        getTransferInstruction({
          source: chain.userAta,
          destination: chain.escrowAta,
          authority: user(),
          amount: AMOUNT,
        }),
      ],
    });
    expect(verifyCosignTransaction(params(hex)).amountLots).toBe(AMOUNT); // no decimals given: tied by the escrow account
    const quote = { ...quoteFor(chain), sourceAmountDecimals: DECIMALS };
    expect(codeOf(() => verifyCosignTransaction(params(hex, { quote })))).toBe("SOL_DECIMALS_MISMATCH");
  });

  it("a bare sign of a transaction with a MintTo under the user's mint authority mints to the stranger on litesvm", async () => {
    // A mint whose authority is the user (a wallet that issued a token), and a stranger's account for it.
    const mint = await generateKeyPairSigner();
    const space = 82n;
    const [strangerAccount] = await findAssociatedTokenPda({
      owner: chain.stranger,
      mint: mint.address,
      tokenProgram: address("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"),
    });
    const setup = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayer(chain.resolver.address, m),
      (m) =>
        setTransactionMessageLifetimeUsingBlockhash(
          { blockhash: chain.svm.latestBlockhash(), lastValidBlockHeight: 0n },
          m,
        ),
      (m) =>
        appendTransactionMessageInstructions(
          [
            getCreateAccountInstruction({
              payer: chain.resolver,
              newAccount: mint,
              lamports: lamports(chain.svm.minimumBalanceForRentExemption(space)),
              space,
              programAddress: address("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"),
            }),
            getInitializeMint2Instruction({
              mint: mint.address,
              decimals: 0,
              mintAuthority: chain.userAddress,
            }),
            getCreateAssociatedTokenIdempotentInstruction({
              payer: chain.resolver,
              ata: strangerAccount,
              owner: chain.stranger,
              mint: mint.address,
            }),
          ],
          m,
        ),
    );
    send(chain.svm, await signTransaction([chain.resolver.keyPair, mint.keyPair], compileTransaction(setup)));
    const hex = tampered({
      append: [
        getMintToInstruction({
          mint: mint.address,
          token: strangerAccount,
          mintAuthority: user(),
          amount: 1_000_000n,
        }),
      ],
    });
    expect(codeOf(() => verifyCosignTransaction(params(hex)))).toBe("SOL_AUTHORITY_GRANT");
    const tx = VersionedTransaction.deserialize(hexToBytes(hex));
    tx.sign([chain.user]);
    await cosignAndSend(chain, bytesToHex(tx.serialize()));
    expect(tokenBalance(chain, strangerAccount)).toBe(1_000_000n);
  });
});
