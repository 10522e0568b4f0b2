/**
 * No authority over the user's accounts: a Revoke by the user (it ends an allowance the user gave elsewhere) is
 * SOL_AUTHORITY_GRANT, and any token instruction by another authority (a delegate, a permanent delegate, a close or
 * freeze authority) on the user's token account is SOL_OTHER_AUTHORITY; litesvm shows both change the user's account
 * when signed blindly.
 */
import {
  AccountRole,
  type Address,
  address,
  createNoopSigner,
  generateKeyPairSigner,
  type Instruction,
} from "@solana/kit";
import { PublicKey, VersionedTransaction } from "@solana/web3.js";
import {
  AuthorityType,
  getBurnCheckedInstruction,
  getBurnInstruction,
  getCloseAccountInstruction,
  getFreezeAccountInstruction,
  getRevokeInstruction,
  getSetAuthorityInstruction,
  getThawAccountInstruction,
  getTransferInstruction,
} from "@solana-program/token";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type Chain,
  compileHex,
  cosignAndSend,
  DECIMALS,
  getTransferCheckedInstruction,
  honestInstructions,
  tokenBalance,
} from "../test/fixture.js";
import { createDelegatedChain, DELEGATED, role, transactionTools, u64 } from "../test/transactionTools.js";
import { hexToBytes } from "./internal/hex.js";

const TOKEN = address("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
const TOKEN_2022 = address("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb");
const ATA = address("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL");

let chain: Chain;
beforeAll(async () => {
  chain = await createDelegatedChain();
});
beforeEach(() => chain.svm.expireBlockhash());

const { user, signBlindly, signRefusal, withExtra, userOutcome } = transactionTools(() => chain);

const { READONLY: R, WRITABLE: W, READONLY_SIGNER: RS } = AccountRole;
const bytes = (...parts: ArrayLike<number>[]) => Uint8Array.from(parts.flatMap((p) => Array.from(p)));
const resolver = () => createNoopSigner(chain.resolver.address);
/** The user's associated account for `mint` (derived by web3.js here, independently of the package). */
const userAtaOf = (mint: Address, tokenProgram: Address = TOKEN) =>
  address(
    PublicKey.findProgramAddressSync(
      [
        new PublicKey(chain.userAddress).toBytes(),
        new PublicKey(tokenProgram).toBytes(),
        new PublicKey(mint).toBytes(),
      ],
      new PublicKey(ATA),
    )[0].toBase58(),
  );

describe("no authority over the user's accounts: a Revoke, another authority acting on them", () => {
  it("a Revoke by the user (SPL Token and Token-2022 program ids) -> SOL_AUTHORITY_GRANT before any key is used", async () => {
    for (const programAddress of [TOKEN, TOKEN_2022]) {
      const hex = withExtra(
        getRevokeInstruction({ source: chain.userAta, owner: user() }, { programAddress }),
      );
      expect(await signRefusal(hex)).toEqual({ code: "SOL_AUTHORITY_GRANT", signerCalls: 0 });
    }
  });

  it("the Revoke is real: signed blindly, litesvm clears the allowance the user gave elsewhere", async () => {
    const hex = withExtra(getRevokeInstruction({ source: chain.userAta, owner: user() }));
    const honest = await userOutcome(signBlindly(compileHex(chain, honestInstructions(chain))));
    const revoked = await userOutcome(signBlindly(hex));
    expect(revoked.tokenAccount?.data).not.toBe(honest.tokenAccount?.data);
  });

  const otherAuthority: { name: string; build: () => Instruction }[] = [
    {
      name: "a TransferChecked by the user's delegate to a stranger",
      build: () =>
        getTransferCheckedInstruction({
          source: chain.userAta,
          mint: chain.mint,
          destination: chain.strangerAta,
          authority: resolver(),
          amount: DELEGATED,
          decimals: DECIMALS,
        }),
    },
    {
      name: "a TransferChecked by the delegate to the escrow itself (a second outflow the summary would not show)",
      build: () =>
        getTransferCheckedInstruction({
          source: chain.userAta,
          mint: chain.mint,
          destination: chain.escrowAta,
          authority: resolver(),
          amount: DELEGATED,
          decimals: DECIMALS,
        }),
    },
    {
      name: "a plain Transfer by the delegate (names no mint)",
      build: () =>
        getTransferInstruction({
          source: chain.userAta,
          destination: chain.strangerAta,
          authority: resolver(),
          amount: 1n,
        }),
    },
    {
      name: "a TransferChecked by a delegate from the user's account of another mint (the mint it names)",
      build: () =>
        getTransferCheckedInstruction({
          source: chain.userOtherAta,
          mint: chain.otherMint,
          destination: chain.strangerAta,
          authority: resolver(),
          amount: 1n,
          decimals: DECIMALS,
        }),
    },
    {
      name: "a Burn by the delegate",
      build: () =>
        getBurnInstruction({ account: chain.userAta, mint: chain.mint, authority: resolver(), amount: 1n }),
    },
    {
      name: "a BurnChecked by the delegate",
      build: () =>
        getBurnCheckedInstruction({
          account: chain.userAta,
          mint: chain.mint,
          authority: resolver(),
          amount: 1n,
          decimals: DECIMALS,
        }),
    },
    {
      name: "a CloseAccount of the user's token account by a close authority",
      build: () =>
        getCloseAccountInstruction({
          account: chain.userAta,
          destination: chain.stranger,
          owner: resolver(),
        }),
    },
    {
      name: "a CloseAccount of the user's token account by a close authority, paying the user (the user's key in the instruction)",
      build: () =>
        getCloseAccountInstruction({
          account: chain.userAta,
          destination: chain.userAddress,
          owner: resolver(),
        }),
    },
    {
      name: "a FreezeAccount of the user's token account by the mint's freeze authority",
      build: () =>
        getFreezeAccountInstruction({ account: chain.userAta, mint: chain.mint, owner: resolver() }),
    },
    {
      name: "a ThawAccount of the user's token account",
      build: () => getThawAccountInstruction({ account: chain.userAta, mint: chain.mint, owner: resolver() }),
    },
    {
      name: "a SetAuthority on the user's token account by another authority",
      build: () =>
        getSetAuthorityInstruction({
          owned: chain.userAta,
          owner: resolver(),
          authorityType: AuthorityType.CloseAccount,
          newAuthority: chain.stranger,
        }),
    },
    {
      name: "a Token-2022 TransferCheckedWithFee by a delegate from the user's Token-2022 account of another mint",
      build: () => ({
        programAddress: TOKEN_2022,
        accounts: [
          role(userAtaOf(chain.otherMint, TOKEN_2022), W),
          role(chain.otherMint, R),
          role(chain.strangerAta, W),
          role(chain.resolver.address, RS),
        ],
        data: bytes([26, 1], u64(1n), [DECIMALS], u64(0n)),
      }),
    },
    {
      name: "a Token-2022 extension instruction (CPI guard) on the user's token account by another owner",
      build: () => ({
        programAddress: TOKEN_2022,
        accounts: [role(chain.userAta, W), role(chain.resolver.address, RS)],
        data: Uint8Array.from([34, 1]),
      }),
    },
  ];

  it.each(otherAuthority)("$name -> SOL_OTHER_AUTHORITY before any key is used", async ({ build }) => {
    expect(await signRefusal(withExtra(build()))).toEqual({ code: "SOL_OTHER_AUTHORITY", signerCalls: 0 });
  });

  it("the same delegate pull placed before the user's own transfer, and through a lookup table", async () => {
    const pull = otherAuthority[0]!.build();
    const [create, transfer, memo] = honestInstructions(chain);
    expect(await signRefusal(compileHex(chain, [create!, pull, transfer!, memo!]))).toEqual({
      code: "SOL_OTHER_AUTHORITY",
      signerCalls: 0,
    });
    const table = (await generateKeyPairSigner()).address;
    const addresses = [chain.strangerAta, chain.mint];
    const hex = compileHex(chain, [create!, transfer!, pull, memo!], {
      lookupTables: { [table]: addresses },
    });
    expect(VersionedTransaction.deserialize(hexToBytes(hex)).message.addressTableLookups).toHaveLength(1);
    expect(await signRefusal(hex, { lookupTables: [{ key: table, addresses }] })).toEqual({
      code: "SOL_OTHER_AUTHORITY",
      signerCalls: 0,
    });
  });

  it("the delegate pull is real: signed blindly, litesvm moves the delegated lots to the stranger as well", async () => {
    const before = tokenBalance(chain, chain.strangerAta);
    const hex = withExtra(otherAuthority[0]!.build());
    await cosignAndSend(chain, signBlindly(hex));
    expect(tokenBalance(chain, chain.strangerAta) - before).toBe(DELEGATED);
  });
});
