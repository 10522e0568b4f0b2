/**
 * What an instruction the decoder reads does to the user: minting, freezing or thawing under the user's authority, a
 * mint-less Transfer, a durable nonce, a foreign token program that sets the rent, decimals that disagree with the quote.
 */
import {
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
} from "@solana/kit";
import { VersionedTransaction } from "@solana/web3.js";
import { getAdvanceNonceAccountInstruction, getCreateAccountInstruction } from "@solana-program/system";
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getFreezeAccountInstruction,
  getInitializeMint2Instruction,
  getMintToCheckedInstruction,
  getMintToInstruction,
  getThawAccountInstruction,
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
  DECIMALS,
  honestInstructions,
  quoteFor,
  send,
  tokenBalance,
} from "../test/fixture.js";
import { transactionTools } from "../test/transactionTools.js";
import { bytesToHex, hexToBytes } from "./internal/hex.js";
import { verifyCosignTransaction } from "./verifyCosignTransaction.js";

let chain: Chain;
beforeAll(async () => {
  chain = await createChain();
});
beforeEach(() => chain.svm.expireBlockhash());

const { params, user, tampered, transferChecked } = transactionTools(() => chain);

describe("what each instruction does to the user: refused when it is more than the quoted transfer", () => {
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
