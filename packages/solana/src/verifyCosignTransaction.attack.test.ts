/**
 * The verifier attacked as a malicious service would: Token-2022 instructions,
 * compute budget, lookup tables, header flags, the user's key in odd places, wSOL, data-length tricks, amounts near
 * u64 max, decimals, and instructions that act on the user's token account without the user's key. Every payload
 * starts from the honest transaction the sandbox builds (@solana/kit, not this package).
 *
 * - What got through and is now refused: a Revoke by the user (it ends an allowance the user gave elsewhere), and any
 *   token instruction by another authority (a delegate, a permanent delegate, a close or freeze authority) on the
 *   user's token account. litesvm shows both change the user's account when signed blindly.
 * - What was already refused keeps its code, and the key is never asked.
 * - What is accepted is shown harmless: litesvm executes it signed and the user's wallet and token account end as
 *   after the honest transaction.
 */
import {
  AccountRole,
  type Address,
  address,
  appendTransactionMessageInstructions,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  generateKeyPairSigner,
  type Instruction,
  lamports,
  partiallySignTransaction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransaction,
} from "@solana/kit";
import { Keypair, type MessageV0, PublicKey, VersionedTransaction } from "@solana/web3.js";
import { getCreateAccountInstruction } from "@solana-program/system";
import {
  AuthorityType,
  getApproveInstruction,
  getBurnCheckedInstruction,
  getBurnInstruction,
  getCloseAccountInstruction,
  getFreezeAccountInstruction,
  getInitializeMint2Instruction,
  getRevokeInstruction,
  getSetAuthorityInstruction,
  getSyncNativeInstruction,
  getThawAccountInstruction,
  getTransferInstruction,
} from "@solana-program/token";
import type { Intent } from "@swapintent/client";
import { FailedTransactionMetadata } from "litesvm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AMOUNT,
  type Chain,
  compileHex,
  cosignAndSend,
  createChain,
  DECIMALS,
  decodeHex,
  getTransferCheckedInstruction,
  honestInstructions,
  intentFor,
  send,
  tokenBalance,
  userSigner,
  verifyParams,
} from "../test/fixture.js";
import { everyPathRefusal } from "../test/paths.js";
import { bytesToHex, hexToBytes } from "./internal/hex.js";
import { signCosignTransaction } from "./signCosignTransaction.js";
import {
  type VerifyCosignTransactionParameters,
  verifyCosignTransaction,
} from "./verifyCosignTransaction.js";

const TOKEN = address("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
const TOKEN_2022 = address("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb");
const ATA = address("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL");
const COMPUTE_BUDGET = address("ComputeBudget111111111111111111111111111111");
const MEMO_V2 = address("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr");
const SYSTEM = address("11111111111111111111111111111111");
const WSOL = address("So11111111111111111111111111111111111111112");
/** An address lookup table key (its contents are supplied by the test, as a wallet's RPC would). */
const TABLE = Keypair.generate();
/** Lots the user allowed the resolver to move as a delegate (an allowance given to another app before). */
const DELEGATED = 100_000n;

let chain: Chain;
beforeAll(async () => {
  chain = await createChain();
  const approve = compileHex(chain, [
    getApproveInstruction({
      source: chain.userAta,
      delegate: chain.resolver.address,
      owner: userSigner(chain),
      amount: DELEGATED,
    }),
  ]);
  await cosignAndSend(chain, signBlindly(approve));
});
beforeEach(() => chain.svm.expireBlockhash());

/** The full quote (with decimals), the user, the escrow by owner. */
const params = (hex: string, extra: Partial<VerifyCosignTransactionParameters> = {}) =>
  verifyParams(chain, hex, {
    quote: { sourceToken: chain.mint, sourceAmountLots: AMOUNT, sourceAmountDecimals: DECIMALS },
    ...extra,
  });

/** A web3.js sign without any check: what a wallet without this package would produce. */
function signBlindly(hex: string): string {
  const tx = VersionedTransaction.deserialize(hexToBytes(hex));
  tx.sign([chain.user]);
  return bytesToHex(tx.serialize());
}

/**
 * The code the signing paths refuse with, and how often the user's signer was asked: every path (web3.js, Kit,
 * wallet-standard) runs the case and must agree, so each case of these tables runs through all three.
 */
async function signRefusal(hex: string, extra: Partial<VerifyCosignTransactionParameters> = {}) {
  const outcomes = await everyPathRefusal(params(hex, extra));
  expect(outcomes.adapter, "wallet-adapter path").toEqual(outcomes.web3);
  expect(outcomes.kit, "kit path").toEqual(outcomes.web3);
  expect(outcomes.walletStandard, "wallet-standard path").toEqual(outcomes.web3);
  return outcomes.web3;
}

/** The honest instructions with `extra` after the transfer, before the memo. */
function withExtra(...extra: Instruction[]): string {
  const [create, transfer, memo] = honestInstructions(chain);
  return compileHex(chain, [create!, transfer!, ...extra, memo!]);
}

const role = (a: Address, r: AccountRole) => ({ address: a, role: r });
const { READONLY: R, WRITABLE: W, READONLY_SIGNER: RS, WRITABLE_SIGNER: WS } = AccountRole;
const u64 = (n: bigint) => {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, n, true);
  return out;
};
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
const user = () => userSigner(chain);

/** Post-state of the user's wallet and token account when litesvm simulates `userSignedHex` co-signed. */
async function userOutcome(userSignedHex: string) {
  const tx = await partiallySignTransaction([chain.resolver.keyPair], decodeHex(userSignedHex));
  const result = chain.svm.simulateTransaction(tx);
  if (result instanceof FailedTransactionMetadata) throw new Error(`litesvm: ${result.toString()}`);
  const post = new Map(result.postAccounts().map((a) => [a.address as string, a]));
  const state = (account: Address) => {
    const hit = post.get(account);
    if (hit !== undefined)
      return {
        lamports: hit.lamports,
        owner: hit.programAddress,
        data: bytesToHex(Uint8Array.from(hit.data)),
      };
    const info = chain.svm.getAccount(account);
    return info.exists
      ? { lamports: info.lamports, owner: info.programAddress, data: bytesToHex(Uint8Array.from(info.data)) }
      : undefined;
  };
  return { wallet: state(chain.userAddress), tokenAccount: state(chain.userAta) };
}

describe("got through before, refused now", () => {
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

describe("tried and refused already (each with its code, the key never asked)", () => {
  const t22 = (accounts: ReturnType<typeof role>[], data: Uint8Array): Instruction => ({
    programAddress: TOKEN_2022,
    accounts,
    data,
  });
  const cases: {
    name: string;
    code: string;
    hex: () => string;
    extra?: () => Partial<VerifyCosignTransactionParameters>;
  }[] = [
    {
      name: "Token-2022 TransferCheckedWithFee by the user to the escrow",
      code: "SOL_INSTRUCTION_UNKNOWN",
      hex: () =>
        withExtra(
          t22(
            [
              role(chain.userAta, W),
              role(chain.mint, R),
              role(chain.escrowAta, W),
              role(chain.userAddress, RS),
            ],
            bytes([26, 1], u64(1n), [DECIMALS], u64(0n)),
          ),
        ),
    },
    ...(
      [
        ["a confidential-transfer deposit", [27, 5]],
        ["Reallocate paid by the user", [29, 2, 0]],
        ["enable required memos", [30, 0]],
        ["enable the CPI guard", [34, 0]],
        ["WithdrawExcessLamports", [38]],
      ] as const
    ).map(([name, data]) => ({
      name: `Token-2022 ${name} under the user's authority`,
      code: "SOL_INSTRUCTION_UNKNOWN",
      hex: () =>
        withExtra(
          t22([role(chain.userAta, W), role(chain.userAddress, WS), role(SYSTEM, R)], Uint8Array.from(data)),
        ),
    })),
    {
      name: "a TransferChecked with two trailing data bytes (the token program ignores them)",
      code: "SOL_INSTRUCTION_UNKNOWN",
      hex: () => {
        const [create, transfer, memo] = honestInstructions(chain);
        return compileHex(chain, [create!, { ...transfer!, data: bytes(transfer!.data!, [0, 0]) }, memo!]);
      },
    },
    {
      name: "the amount at u64 max",
      code: "SOL_AMOUNT_MISMATCH",
      hex: () => compileHex(chain, honestInstructions(chain, { amount: 2n ** 64n - 1n })),
    },
    {
      name: "two transfers whose u64 sum wraps to the quoted amount (2^64 - 1 and AMOUNT + 1)",
      code: "SOL_AMOUNT_MISMATCH",
      hex: () => {
        const [create, big, memo] = honestInstructions(chain, { amount: 2n ** 64n - 1n });
        const [, rest] = honestInstructions(chain, { amount: AMOUNT + 1n });
        return compileHex(chain, [create!, big!, rest!, memo!]);
      },
    },
    {
      name: "decimals 9 where the quote says 6",
      code: "SOL_DECIMALS_MISMATCH",
      hex: () => {
        const [create, transfer, memo] = honestInstructions(chain);
        const data = Uint8Array.from(transfer!.data!);
        data[9] = 9;
        return compileHex(chain, [create!, { ...transfer!, data }, memo!]);
      },
    },
    {
      name: "wrapping SOL: a transfer from the user into its own wrapped-SOL account and a SyncNative (default cap 0)",
      code: "SOL_NATIVE_OUTFLOW_TOO_HIGH",
      hex: () =>
        withExtra(
          {
            programAddress: SYSTEM,
            accounts: [role(chain.userAddress, WS), role(userAtaOf(WSOL), W)],
            data: bytes([2, 0, 0, 0], u64(1_000_000n)),
          },
          getSyncNativeInstruction({ account: userAtaOf(WSOL) }),
        ),
    },
    {
      name: "a CloseAccount of the user's token account of another mint (as of its wrapped-SOL account)",
      code: "SOL_AUTHORITY_GRANT",
      hex: () =>
        withExtra(
          getCloseAccountInstruction({
            account: chain.userOtherAta,
            destination: chain.stranger,
            owner: user(),
          }),
        ),
    },
    {
      name: "SyncNative naming the user's wallet as the token account",
      code: "SOL_USER_ROLE_NOT_ALLOWED",
      hex: () => withExtra(getSyncNativeInstruction({ account: chain.userAddress })),
    },
    {
      name: "an associated-account create idempotent paid by the user for another owner (rent paid by the user)",
      code: "SOL_NATIVE_OUTFLOW_TOO_HIGH",
      hex: () =>
        withExtra({
          programAddress: ATA,
          accounts: [
            role(chain.userAddress, WS),
            role(chain.strangerAta, W),
            role(chain.stranger, R),
            role(chain.mint, R),
            role(SYSTEM, R),
            role(TOKEN, R),
          ],
          data: Uint8Array.from([1]),
        }),
    },
    {
      name: "the user as fee payer",
      code: "SOL_USER_IS_FEE_PAYER",
      hex: () => compileHex(chain, honestInstructions(chain), { feePayer: chain.userAddress }),
    },
    {
      name: "a lookup table resolving the user's key into a writable slot (loaded twice)",
      code: "SOL_TX_DECODE_FAILED",
      hex: () => {
        const tx = VersionedTransaction.deserialize(hexToBytes(compileHex(chain, honestInstructions(chain))));
        (tx.message as MessageV0).addressTableLookups.push({
          accountKey: TABLE.publicKey,
          writableIndexes: [0],
          readonlyIndexes: [],
        });
        return bytesToHex(tx.serialize());
      },
      extra: () => ({ lookupTables: [{ key: TABLE.publicKey, addresses: [chain.userAddress] }] }),
    },
    {
      name: "a signatures array one slot longer than the required signers",
      code: "SOL_TX_DECODE_FAILED",
      hex: () => {
        const b = hexToBytes(compileHex(chain, honestInstructions(chain)));
        return bytesToHex(bytes([b[0]! + 1], new Uint8Array(64), b.subarray(1)));
      },
    },
    {
      // Harmless on chain, but a cosign carries the intent's memo only: any other text is refused, however it reads.
      name: "a second memo (v2) with the user as a signer account",
      code: "SOL_MEMO_MISMATCH",
      hex: () =>
        withExtra({
          programAddress: MEMO_V2,
          accounts: [role(chain.userAddress, RS)],
          data: new TextEncoder().encode("gm"),
        }),
    },
    {
      name: "a version byte for v1 (0x81): its own code, the version is read from the bytes",
      code: "SOL_TX_VERSION_UNSUPPORTED",
      hex: () => {
        const b = hexToBytes(compileHex(chain, honestInstructions(chain)));
        b[1 + 64 * b[0]!] = 0x81;
        return bytesToHex(b);
      },
    },
  ];

  it.each(cases)("$name -> $code", async ({ hex, code, extra }) => {
    expect(await signRefusal(hex(), extra?.())).toEqual({ code, signerCalls: 0 });
  });
});

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

describe("a user-paid Token-2022 associated account create counts at least the rent the chain charges", () => {
  it("the bound covers the largest account a mint can require (Token-2022's GetAccountDataSize on litesvm)", async () => {
    const mint = await generateKeyPairSigner();
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
    const setup = message([
      getCreateAccountInstruction({
        payer: chain.resolver,
        newAccount: mint,
        lamports: lamports(chain.svm.minimumBalanceForRentExemption(82n)),
        space: 82n,
        programAddress: TOKEN_2022,
      }),
      getInitializeMint2Instruction(
        { mint: mint.address, decimals: DECIMALS, mintAuthority: chain.resolver.address },
        { programAddress: TOKEN_2022 },
      ),
    ]);
    send(chain.svm, await signTransaction([chain.resolver.keyPair, mint.keyPair], compileTransaction(setup)));
    // GetAccountDataSize (21) with the account extensions (u16 each) an associated create can be made to add: the
    // immutable owner (7) every associated account has, and those a mint requires: transfer-fee amount (2),
    // non-transferable account (13), transfer-hook account (15), confidential transfer-fee amount (17), pausable
    // account (27).
    const types = [7, 2, 13, 15, 17, 27];
    const ask = message([
      {
        programAddress: TOKEN_2022,
        accounts: [role(mint.address, R)],
        data: Uint8Array.from([21, ...types.flatMap((t) => [t, 0])]),
      },
    ]);
    const result = chain.svm.simulateTransaction(
      await signTransaction([chain.resolver.keyPair], compileTransaction(ask)),
    );
    if (result instanceof FailedTransactionMetadata) throw new Error(result.toString());
    const answer = result.meta().returnData().data();
    const size = BigInt(answer[0]! + answer[1]! * 256);
    expect(size).toBeGreaterThan(256n); // a bound of 256 bytes would be too small
    const rent = chain.svm.minimumBalanceForRentExemption(size);

    const owner = (await generateKeyPairSigner()).address;
    const create: Instruction = {
      programAddress: ATA,
      accounts: [
        role(chain.userAddress, WS),
        role(chain.strangerAta, W),
        role(owner, R),
        role(mint.address, R),
        role(SYSTEM, R),
        role(TOKEN_2022, R),
      ],
      data: Uint8Array.from([1]),
    };
    const shown = verifyCosignTransaction(params(withExtra(create), { maxNativeOutflowLamports: 10n ** 9n }));
    expect(shown.nativeOutflowLamports).toBeGreaterThanOrEqual(rent);
  });
});

describe("escrow { tokenAccount } vs { owner } vs { unchecked } confusion (the wallet's own input)", () => {
  it("more than one of them is SOL_INVALID_PARAMETERS before any key is used; an undefined one is absent", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const owner = chain.escrowOwner.address;
    const ambiguous = [
      { unchecked: true, owner }, // `{ ...defaults, owner }` over a default opt-out: was silently unchecked
      { owner, tokenAccount: chain.strangerAta }, // was silently the token account
      { unchecked: true, tokenAccount: chain.escrowAta },
    ] as unknown as VerifyCosignTransactionParameters["escrow"][];
    for (const escrow of ambiguous) {
      expect(await signRefusal(hex, { escrow })).toEqual({ code: "SOL_INVALID_PARAMETERS", signerCalls: 0 });
    }
    const withUndefined = {
      owner,
      tokenAccount: undefined,
    } as unknown as VerifyCosignTransactionParameters["escrow"];
    expect(verifyCosignTransaction(params(hex, { escrow: withUndefined })).destination).toBe(chain.escrowAta);
    const notOptOut = { unchecked: false, owner } as unknown as VerifyCosignTransactionParameters["escrow"];
    expect(verifyCosignTransaction(params(hex, { escrow: notOptOut })).destination).toBe(chain.escrowAta);
  });
});

describe("an intent of another approval mechanism", () => {
  it("is SOL_MECHANISM_MISMATCH (not the caller's bad parameters) before any key is used", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    for (const approvalMechanism of ["permit2", "htlc", "cosign ", null]) {
      const intent = { ...intentFor(hex), approvalMechanism } as unknown as Intent;
      expect(await signRefusal(hex, { intent })).toEqual({ code: "SOL_MECHANISM_MISMATCH", signerCalls: 0 });
    }
  });
});
