/**
 * Where the user's lamports go. Wrapping SOL into the user's own wrapped SOL account and sending that to the escrow
 * is one payment of the quote; SOL sent to the escrow's wrapped SOL account on top is a second one, and lamports to
 * anyone else count against `maxNativeOutflowLamports`, whatever that cap was raised to.
 */
import { type Address, address, createNoopSigner, type Instruction, lamports } from "@solana/kit";
import { VersionedTransaction } from "@solana/web3.js";
import { getTransferSolInstruction } from "@solana-program/system";
import {
  findAssociatedTokenPda,
  getSyncNativeInstruction,
  getTransferCheckedInstruction,
} from "@solana-program/token";
import { beforeAll, describe, expect, it } from "vitest";
import {
  ata,
  type Chain,
  codeOf,
  compileHex,
  cosignAndSend,
  createChain,
  getCreateAssociatedTokenIdempotentInstruction,
  memoInstruction,
  verifyParams,
} from "../test/fixture.js";
import { everyPathRefusal } from "../test/paths.js";
import { SOLANA_PROGRAM_ADDRESSES, WRAPPED_SOL_MINT_ADDRESS } from "./constants.js";
import { bytesToHex, hexToBytes } from "./internal/hex.js";
import { verifyCosignTransaction } from "./verifyCosignTransaction.js";

const WSOL = address(WRAPPED_SOL_MINT_ADDRESS);
const QUOTE = 100_000_000n; // 0.1 SOL
let chain: Chain;
let userWsol: Address;
let escrowWsol: Address;

beforeAll(async () => {
  chain = await createChain();
  userWsol = await ata(chain.userAddress, WSOL);
  escrowWsol = await ata(chain.escrowOwner.address, WSOL);
});

const user = () => createNoopSigner(chain.userAddress);
const lamportsTo = (destination: Address, amount: bigint): Instruction =>
  getTransferSolInstruction({ source: user(), destination, amount });

/** The user wraps `wrapped` lamports, sends `QUOTE` wSOL to the escrow, and runs `extra` before the memo. */
function wrapAndPay(wrapped: bigint, extra: Instruction[] = []): string {
  return compileHex(chain, [
    getCreateAssociatedTokenIdempotentInstruction({
      payer: createNoopSigner(chain.resolver.address),
      ata: escrowWsol,
      owner: chain.escrowOwner.address,
      mint: WSOL,
    }),
    lamportsTo(userWsol, wrapped),
    getSyncNativeInstruction({ account: userWsol }),
    getTransferCheckedInstruction({
      source: userWsol,
      mint: WSOL,
      destination: escrowWsol,
      authority: user(),
      amount: QUOTE,
      decimals: 9,
    }),
    ...extra,
    memoInstruction(),
  ]);
}

const params = (hex: string, cap: bigint) =>
  verifyParams(chain, hex, {
    quote: { sourceToken: WRAPPED_SOL_MINT_ADDRESS, sourceAmountLots: QUOTE },
    maxNativeOutflowLamports: cap,
  });

describe("native SOL paid once", () => {
  it("wrapping the quote into the user's own wSOL account is the payment itself: no cap needed, shown as wrapped", () => {
    const shown = verifyCosignTransaction(params(wrapAndPay(QUOTE), 0n));
    expect(shown.wrappedLamports).toBe(QUOTE);
    expect(shown.nativeOutflowLamports).toBe(0n);
    expect(shown.amountLots).toBe(QUOTE);
  });

  it("SOL sent to the escrow's wSOL account as well (0.2 in the escrow for a 0.1 quote) is refused, however high the cap", async () => {
    const twice = wrapAndPay(QUOTE, [
      lamportsTo(escrowWsol, QUOTE),
      getSyncNativeInstruction({ account: escrowWsol }),
    ]);
    for (const cap of [0n, QUOTE, 2n * QUOTE, 10n ** 18n]) {
      expect(
        codeOf(() => verifyCosignTransaction(params(twice, cap))),
        `cap ${cap}`,
      ).toBe("SOL_AMOUNT_MISMATCH");
    }
    const outcomes = await everyPathRefusal(params(twice, 2n * QUOTE));
    for (const outcome of Object.values(outcomes))
      expect(outcome).toEqual({ code: "SOL_AMOUNT_MISMATCH", signerCalls: 0 });
  });

  it("lamports wrapped beyond the quote count against the cap, once", () => {
    const over = wrapAndPay(QUOTE + 5_000n);
    expect(codeOf(() => verifyCosignTransaction(params(over, 4_999n)))).toBe("SOL_NATIVE_OUTFLOW_TOO_HIGH");
    const shown = verifyCosignTransaction(params(over, 5_000n));
    expect([shown.wrappedLamports, shown.nativeOutflowLamports]).toEqual([QUOTE, 5_000n]);
  });

  it("lamports to anyone else (a stranger, the escrow owner's wallet) count against the cap", () => {
    for (const destination of [chain.stranger, chain.escrowOwner.address]) {
      const hex = wrapAndPay(QUOTE, [lamportsTo(destination, 1n)]);
      expect(
        codeOf(() => verifyCosignTransaction(params(hex, 0n))),
        destination,
      ).toBe("SOL_NATIVE_OUTFLOW_TOO_HIGH");
      expect(verifyCosignTransaction(params(hex, 1n)).nativeOutflowLamports).toBe(1n);
    }
  });

  it("wrapping is no payment when the quote is not in wSOL: lamports into the user's wSOL account are an outflow", () => {
    const hex = compileHex(chain, [
      getCreateAssociatedTokenIdempotentInstruction({
        payer: createNoopSigner(chain.resolver.address),
        ata: chain.escrowAta,
        owner: chain.escrowOwner.address,
        mint: chain.mint,
      }),
      lamportsTo(userWsol, 7n),
      getTransferCheckedInstruction({
        source: chain.userAta,
        mint: chain.mint,
        destination: chain.escrowAta,
        authority: user(),
        amount: 250_000n,
        decimals: 6,
      }),
      memoInstruction(),
    ]);
    expect(codeOf(() => verifyCosignTransaction(verifyParams(chain, hex)))).toBe(
      "SOL_NATIVE_OUTFLOW_TOO_HIGH",
    );
  });
});

/** A web3.js sign without any check: what a wallet without this package would produce. */
function signBlindly(hex: string): string {
  const tx = VersionedTransaction.deserialize(hexToBytes(hex));
  tx.sign([chain.user]);
  return bytesToHex(tx.serialize());
}

describe("only the user's real wrapped SOL account counts as wrapping", () => {
  it("lamports to the Token-2022 derivation for the wSOL mint (an account no token program can ever open) are an outflow", async () => {
    // The wSOL mint belongs to SPL Token: Token-2022 cannot open an account for it, so the user's "associated
    // account" under Token-2022 stays a bare address that nobody can ever spend from.
    const [dead] = await findAssociatedTokenPda({
      owner: chain.userAddress,
      mint: WSOL,
      tokenProgram: address(SOLANA_PROGRAM_ADDRESSES.token2022),
    });
    // The wSOL mint as the chain has it (SPL Token's native mint: no authority, 9 decimals, initialized).
    const mintData = new Uint8Array(82);
    mintData[44] = 9;
    mintData[45] = 1;
    chain.svm.setAccount({
      address: WSOL,
      data: mintData,
      executable: false,
      lamports: lamports(chain.svm.minimumBalanceForRentExemption(82n)),
      programAddress: address(SOLANA_PROGRAM_ADDRESSES.token),
      space: 82n,
    });
    // The user already holds wSOL (wrapped earlier).
    chain.svm.expireBlockhash();
    const wrapEarlier = compileHex(chain, [
      getCreateAssociatedTokenIdempotentInstruction({
        payer: createNoopSigner(chain.resolver.address),
        ata: userWsol,
        owner: chain.userAddress,
        mint: WSOL,
      }),
      lamportsTo(userWsol, QUOTE),
      getSyncNativeInstruction({ account: userWsol }),
    ]);
    await cosignAndSend(chain, signBlindly(wrapEarlier));
    chain.svm.expireBlockhash();
    const hex = compileHex(chain, [
      getCreateAssociatedTokenIdempotentInstruction({
        payer: createNoopSigner(chain.resolver.address),
        ata: escrowWsol,
        owner: chain.escrowOwner.address,
        mint: WSOL,
      }),
      lamportsTo(dead, QUOTE),
      getTransferCheckedInstruction({
        source: userWsol,
        mint: WSOL,
        destination: escrowWsol,
        authority: user(),
        amount: QUOTE,
        decimals: 9,
      }),
      memoInstruction(),
    ]);
    // What signing it costs the user on chain: the quote in wSOL, and the same again in SOL, out of reach for good.
    const before = chain.svm.getBalance(chain.userAddress) ?? 0n;
    await cosignAndSend(chain, signBlindly(hex));
    expect(before - (chain.svm.getBalance(chain.userAddress) ?? 0n)).toBe(QUOTE);
    const stuck = chain.svm.getAccount(dead);
    expect(stuck.exists && stuck.programAddress).toBe(SOLANA_PROGRAM_ADDRESSES.system);
    expect(codeOf(() => verifyCosignTransaction(params(hex, 0n)))).toBe("SOL_NATIVE_OUTFLOW_TOO_HIGH");
    expect(verifyCosignTransaction(params(hex, QUOTE))).toMatchObject({
      nativeOutflowLamports: QUOTE,
      wrappedLamports: 0n,
    });
  });
});
