/**
 * Tampered transactions (Token-2022 instructions, compute budget, lookup tables, header flags, the user's key in odd
 * places, wSOL, data-length tricks, amounts near u64 max, decimals), each refused with its code through the signer:
 * the key is never asked.
 */
import { AccountRole, type Address, address, type Instruction } from "@solana/kit";
import { Keypair, type MessageV0, PublicKey, VersionedTransaction } from "@solana/web3.js";
import { getCloseAccountInstruction, getSyncNativeInstruction } from "@solana-program/token";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AMOUNT, type Chain, compileHex, DECIMALS, honestInstructions } from "../test/fixture.js";
import { createDelegatedChain, role, transactionTools, u64 } from "../test/transactionTools.js";
import { bytesToHex, hexToBytes } from "./internal/hex.js";
import type { VerifyCosignTransactionParameters } from "./verifyCosignTransaction.js";

const TOKEN = address("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
const TOKEN_2022 = address("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb");
const ATA = address("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL");
const MEMO_V2 = address("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr");
const SYSTEM = address("11111111111111111111111111111111");
const WSOL = address("So11111111111111111111111111111111111111112");
/** An address lookup table key (its contents are supplied by the test, as a wallet's RPC would). */
const TABLE = Keypair.generate();

let chain: Chain;
beforeAll(async () => {
  chain = await createDelegatedChain();
});
beforeEach(() => chain.svm.expireBlockhash());

const { user, signRefusal, withExtra } = transactionTools(() => chain);

const { READONLY: R, WRITABLE: W, READONLY_SIGNER: RS, WRITABLE_SIGNER: WS } = AccountRole;
const bytes = (...parts: ArrayLike<number>[]) => Uint8Array.from(parts.flatMap((p) => Array.from(p)));
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
describe("refused through the signer, each with its code, the key never asked", () => {
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
