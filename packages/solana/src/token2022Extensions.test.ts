/**
 * A Token-2022 mint's transfer fee and transfer hook change what a transfer does without showing in the
 * transaction: the escrow receives less than the amount a TransferChecked states, and a hook program runs. The
 * wallet states what it knows of the mint (`token2022Mint`); without it such a transfer is refused, with it the
 * summary shows what the escrow receives and every program the transfer can invoke.
 */
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
} from "@solana/kit";
import { VersionedTransaction } from "@solana/web3.js";
import { getCreateAccountInstruction } from "@solana-program/system";
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintToInstruction,
  getTransferCheckedInstruction,
} from "@solana-program/token";
import { beforeAll, describe, expect, it } from "vitest";
import {
  AMOUNT,
  type Chain,
  codeOf,
  compileHex,
  cosignAndSend,
  createChain,
  DECIMALS,
  honestInstructions,
  memoInstruction,
  send,
  userSigner,
  verifyParams,
} from "../test/fixture.js";
import { everyPathRefusal } from "../test/paths.js";
import { SOLANA_PROGRAM_ADDRESSES } from "./constants.js";
import { bytesToHex, hexToBytes } from "./internal/hex.js";
import { type Token2022MintFacts, verifyCosignTransaction } from "./verifyCosignTransaction.js";

const TOKEN_2022 = address(SOLANA_PROGRAM_ADDRESSES.token2022);
let chain: Chain;
let escrow2022: Address;
let hookProgram: Address;

beforeAll(async () => {
  chain = await createChain();
  [escrow2022] = await findAssociatedTokenPda({
    owner: chain.escrowOwner.address,
    mint: chain.mint,
    tokenProgram: TOKEN_2022,
  });
  hookProgram = (await generateKeyPairSigner()).address;
});

/** The honest transaction with its transfer through Token-2022 for `amount`. */
function through2022(amount: bigint): string {
  const [create, , memo] = honestInstructions(chain);
  const transfer: Instruction = getTransferCheckedInstruction(
    {
      source: chain.userAta,
      mint: chain.mint,
      destination: escrow2022,
      authority: userSigner(chain),
      amount,
      decimals: DECIMALS,
    },
    { programAddress: TOKEN_2022 },
  );
  return compileHex(chain, [create!, transfer, memo!]);
}

const noExtensions: Token2022MintFacts = { transferFee: null, transferHook: null };
const halfFee: Token2022MintFacts = {
  transferFee: { basisPoints: 5_000, maximumFeeLots: 10n ** 12n },
  transferHook: null,
};

describe("a transfer fee: the summary shows what the escrow receives", () => {
  it("a Token-2022 transfer without the wallet's mint facts is refused on every path before any key is asked", async () => {
    const outcomes = await everyPathRefusal(verifyParams(chain, through2022(AMOUNT)));
    for (const outcome of Object.values(outcomes))
      expect(outcome).toEqual({ code: "SOL_MINT_EXTENSIONS_UNKNOWN", signerCalls: 0 });
  });

  it("a 50% fee: TransferChecked states 250000, the escrow receives 125000, refused as SOL_AMOUNT_MISMATCH", () => {
    let error: unknown;
    try {
      verifyCosignTransaction(verifyParams(chain, through2022(AMOUNT), { token2022Mint: halfFee }));
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({
      code: "SOL_AMOUNT_MISMATCH",
      details: { expected: AMOUNT, actual: AMOUNT / 2n },
    });
  });

  it("the transfer grossed up so the escrow receives the quote: accepted, amountLots is what arrives and the fee is shown", () => {
    const shown = verifyCosignTransaction(
      verifyParams(chain, through2022(2n * AMOUNT), { token2022Mint: halfFee }),
    );
    expect(shown.amountLots).toBe(AMOUNT);
    expect(shown.transferFeeLots).toBe(AMOUNT);
  });

  it("the fee is Token-2022's: rounded up, capped at maximumFeeLots, and none for a mint without the extension", () => {
    const facts = (basisPoints: number, maximumFeeLots: bigint): Token2022MintFacts => ({
      transferFee: { basisPoints, maximumFeeLots },
      transferHook: null,
    });
    // 1 bp of 250026 is 25.0026 lots, rounded up to 26 withheld: 250000 arrive.
    expect(
      verifyCosignTransaction(
        verifyParams(chain, through2022(AMOUNT + 26n), { token2022Mint: facts(1, 1_000n) }),
      ).transferFeeLots,
    ).toBe(26n);
    // A 100% fee capped at 7 lots.
    const capped = verifyCosignTransaction(
      verifyParams(chain, through2022(AMOUNT + 7n), { token2022Mint: facts(10_000, 7n) }),
    );
    expect([capped.amountLots, capped.transferFeeLots]).toEqual([AMOUNT, 7n]);
    const none = verifyCosignTransaction(
      verifyParams(chain, through2022(AMOUNT), { token2022Mint: noExtensions }),
    );
    expect([none.amountLots, none.transferFeeLots]).toEqual([AMOUNT, 0n]);
    // Through SPL Token no facts are needed and no fee is taken.
    const classic = verifyCosignTransaction(
      verifyParams(chain, compileHex(chain, honestInstructions(chain))),
    );
    expect(classic.transferFeeLots).toBe(0n);
  });

  it("malformed facts are SOL_INVALID_PARAMETERS", () => {
    const hex = through2022(AMOUNT);
    for (const [i, token2022Mint] of [
      {},
      { transferFee: null },
      { transferFee: { basisPoints: 10_001, maximumFeeLots: 0n }, transferHook: null },
      { transferFee: { basisPoints: 1.5, maximumFeeLots: 0n }, transferHook: null },
      { transferFee: { basisPoints: 1, maximumFeeLots: 1 }, transferHook: null },
      { transferFee: null, transferHook: { programAddress: "not an address" } },
      {
        transferFee: null,
        transferHook: { programAddress: SOLANA_PROGRAM_ADDRESSES.memo, extraPrograms: "x" },
      },
      "none",
    ].entries()) {
      expect(
        codeOf(() =>
          verifyCosignTransaction(verifyParams(chain, hex, { token2022Mint: token2022Mint as never })),
        ),
        `case ${i}`,
      ).toMatch(/^SOL_INVALID_(PARAMETERS|ADDRESS)$/);
    }
  });
});

describe("a transfer hook: its programs are allowed by the wallet, and listed", () => {
  const hook = (extraPrograms: string[] = []): Token2022MintFacts => ({
    transferFee: null,
    transferHook: { programAddress: hookProgram, extraPrograms },
  });

  it("a hook program the wallet did not allow is SOL_PROGRAM_NOT_ALLOWED via Token-2022, on every path", async () => {
    const outcomes = await everyPathRefusal(
      verifyParams(chain, through2022(AMOUNT), { token2022Mint: hook() }),
    );
    for (const outcome of Object.values(outcomes))
      expect(outcome).toEqual({ code: "SOL_PROGRAM_NOT_ALLOWED", signerCalls: 0 });
  });

  it("allowed, the hook and the programs its extra accounts name are in the summary's programs", async () => {
    const extra = (await generateKeyPairSigner()).address;
    const shown = verifyCosignTransaction(
      verifyParams(chain, through2022(AMOUNT), {
        token2022Mint: hook([extra, SOLANA_PROGRAM_ADDRESSES.memo]),
        allowedPrograms: [hookProgram, extra],
      }),
    );
    expect(shown.programs).toEqual(expect.arrayContaining([TOKEN_2022, hookProgram, extra]));
    // An extra program the wallet did not allow is refused like the hook itself.
    expect(
      codeOf(() =>
        verifyCosignTransaction(
          verifyParams(chain, through2022(AMOUNT), {
            token2022Mint: hook([extra]),
            allowedPrograms: [hookProgram],
          }),
        ),
      ),
    ).toBe("SOL_PROGRAM_NOT_ALLOWED");
  });
});

describe("on litesvm: a transfer-fee mint withholds half, and the verifier says so", () => {
  /** A Token-2022 mint with a 50% transfer fee (TransferFeeConfig, no authorities), the user funded with 1,000,000. */
  async function feeMint(): Promise<{ mint: Address; userAta: Address; escrowAta: Address }> {
    const mint = await generateKeyPairSigner();
    // Mint (82) padded to an account's 165, the account-type byte, then TLV: type 1 (TransferFeeConfig), length 108.
    const space = 165n + 1n + 4n + 108n;
    const message = (instructions: Instruction[]) =>
      pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayer(chain.resolver.address, m),
        (m) =>
          setTransactionMessageLifetimeUsingBlockhash(
            { blockhash: chain.svm.latestBlockhash(), lastValidBlockHeight: 0n },
            m,
          ),
        (m) => appendTransactionMessageInstructions(instructions, m),
      );
    const u16 = (n: number) => [n & 255, n >> 8];
    const u64 = (n: bigint) => Array.from({ length: 8 }, (_, i) => Number((n >> BigInt(8 * i)) & 255n));
    const setup = message([
      getCreateAccountInstruction({
        payer: chain.resolver,
        newAccount: mint,
        lamports: lamports(chain.svm.minimumBalanceForRentExemption(space)),
        space,
        programAddress: TOKEN_2022,
      }),
      // InitializeTransferFeeConfig (26, 0): no config authority, no withdraw authority, 5000 bp, max 10^12.
      {
        programAddress: TOKEN_2022,
        accounts: [{ address: mint.address, role: 1 }],
        data: Uint8Array.from([26, 0, 0, 0, ...u16(5_000), ...u64(10n ** 12n)]),
      },
      getInitializeMint2Instruction(
        { mint: mint.address, decimals: DECIMALS, mintAuthority: chain.resolver.address },
        { programAddress: TOKEN_2022 },
      ),
    ]);
    send(chain.svm, await signTransaction([chain.resolver.keyPair, mint.keyPair], compileTransaction(setup)));
    const ataOf = async (owner: Address) =>
      (await findAssociatedTokenPda({ owner, mint: mint.address, tokenProgram: TOKEN_2022 }))[0];
    const userAta = await ataOf(chain.userAddress);
    const escrowAta = await ataOf(chain.escrowOwner.address);
    const payer = createNoopSigner(chain.resolver.address);
    const fund = message([
      getCreateAssociatedTokenIdempotentInstruction({
        payer,
        ata: userAta,
        owner: chain.userAddress,
        mint: mint.address,
        tokenProgram: TOKEN_2022,
      }),
      getMintToInstruction(
        { mint: mint.address, token: userAta, mintAuthority: chain.resolver, amount: 1_000_000n },
        { programAddress: TOKEN_2022 },
      ),
    ]);
    send(chain.svm, await signTransaction([chain.resolver.keyPair], compileTransaction(fund)));
    return { mint: mint.address, userAta, escrowAta };
  }

  it("250000 sent, 125000 arrive: refused with the mint's facts; the grossed-up transfer delivers amountLots", async () => {
    const { mint, userAta, escrowAta } = await feeMint();
    const pay = (amount: bigint) =>
      compileHex(chain, [
        getCreateAssociatedTokenIdempotentInstruction({
          payer: createNoopSigner(chain.resolver.address),
          ata: escrowAta,
          owner: chain.escrowOwner.address,
          mint,
          tokenProgram: TOKEN_2022,
        }),
        getTransferCheckedInstruction(
          {
            source: userAta,
            mint,
            destination: escrowAta,
            authority: userSigner(chain),
            amount,
            decimals: DECIMALS,
          },
          { programAddress: TOKEN_2022 },
        ),
        memoInstruction(),
      ]);
    const params = (hex: string, facts?: Token2022MintFacts) =>
      verifyParams(chain, hex, {
        quote: { sourceToken: mint, sourceAmountLots: AMOUNT },
        ...(facts ? { token2022Mint: facts } : {}),
      });
    const balance = (account: Address) => {
      const data = chain.svm.getAccount(account);
      return data.exists ? new DataView(data.data.buffer, data.data.byteOffset).getBigUint64(64, true) : 0n;
    };
    const signBlindly = (hex: string) => {
      const tx = VersionedTransaction.deserialize(hexToBytes(hex));
      tx.sign([chain.user]);
      return bytesToHex(tx.serialize());
    };

    const short = pay(AMOUNT);
    expect(codeOf(() => verifyCosignTransaction(params(short)))).toBe("SOL_MINT_EXTENSIONS_UNKNOWN");
    expect(codeOf(() => verifyCosignTransaction(params(short, halfFee)))).toBe("SOL_AMOUNT_MISMATCH");
    // The harm is real: signed blindly, the escrow receives half the quote.
    await cosignAndSend(chain, signBlindly(short));
    expect(balance(escrowAta)).toBe(AMOUNT / 2n);

    chain.svm.expireBlockhash();
    const grossed = pay(2n * AMOUNT);
    const shown = verifyCosignTransaction(params(grossed, halfFee));
    expect([shown.amountLots, shown.transferFeeLots]).toEqual([AMOUNT, AMOUNT]);
    await cosignAndSend(chain, signBlindly(grossed));
    expect(balance(escrowAta) - AMOUNT / 2n).toBe(shown.amountLots);
  });
});
