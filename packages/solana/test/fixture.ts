/**
 * Test fixture: a litesvm chain (signature verification on) with a mint, a funded user and an escrow owner, and
 * a builder for cosign transactions made with @solana/kit and @solana-program/token, so the transactions our
 * signer (web3.js) checks are built by a different library.
 */

import {
  type Address,
  address,
  appendTransactionMessageInstructions,
  compileTransaction,
  compressTransactionMessageUsingAddressLookupTables,
  createNoopSigner,
  createTransactionMessage,
  generateKeyPairSigner,
  getTransactionDecoder,
  getTransactionEncoder,
  type Instruction,
  type KeyPairSigner,
  lamports,
  partiallySignTransaction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransaction,
  type Transaction,
  type TransactionSigner,
} from "@solana/kit";
import { Keypair } from "@solana/web3.js";
import { getCreateAccountInstruction, getTransferSolInstruction } from "@solana-program/system";
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintSize,
  getMintToInstruction,
  getTokenDecoder,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import { type Intent, isSwapIntentError } from "@swapintent/client";
import { FailedTransactionMetadata, LiteSVM } from "litesvm";
import { bytesToHex, hexToBytes } from "../src/internal/hex.js";
import type { VerifyCosignTransactionParameters } from "../src/verifyCosignTransaction.js";

export const MEMO_PROGRAM = address("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr");
export const AMOUNT = 250_000n;
export const DECIMALS = 6;

export interface Chain {
  svm: LiteSVM;
  resolver: KeyPairSigner;
  escrowOwner: KeyPairSigner;
  user: Keypair;
  userAddress: Address;
  mint: Address;
  otherMint: Address;
  userAta: Address;
  userOtherAta: Address;
  escrowAta: Address;
  stranger: Address;
  strangerAta: Address;
}

/** Send a kit transaction; throw with litesvm's error when it fails. */
export function send(svm: LiteSVM, tx: Transaction): void {
  const result = svm.sendTransaction(tx);
  if (result instanceof FailedTransactionMetadata) throw new Error(`litesvm: ${result.toString()}`);
}

async function sendInstructions(
  svm: LiteSVM,
  payer: KeyPairSigner,
  instructions: Instruction[],
  extra: KeyPairSigner[] = [],
) {
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(payer.address, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: svm.latestBlockhash(), lastValidBlockHeight: 0n },
        m,
      ),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const tx = await signTransaction(
    [payer.keyPair, ...extra.map((s) => s.keyPair)],
    compileTransaction(message),
  );
  send(svm, tx);
}

async function createMint(svm: LiteSVM, payer: KeyPairSigner): Promise<Address> {
  const mint = await generateKeyPairSigner();
  const space = BigInt(getMintSize());
  await sendInstructions(
    svm,
    payer,
    [
      getCreateAccountInstruction({
        payer,
        newAccount: mint,
        lamports: lamports(svm.minimumBalanceForRentExemption(space)),
        space,
        programAddress: TOKEN_PROGRAM_ADDRESS,
      }),
      getInitializeMint2Instruction({ mint: mint.address, decimals: DECIMALS, mintAuthority: payer.address }),
    ],
    [mint],
  );
  return mint.address;
}

export async function ata(owner: Address, mint: Address): Promise<Address> {
  const [pda] = await findAssociatedTokenPda({ owner, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  return pda;
}

async function fund(svm: LiteSVM, payer: KeyPairSigner, owner: Address, mint: Address, amount: bigint) {
  const account = await ata(owner, mint);
  await sendInstructions(svm, payer, [
    getCreateAssociatedTokenIdempotentInstruction({ payer, ata: account, owner, mint }),
    getMintToInstruction({ mint, token: account, mintAuthority: payer, amount }),
  ]);
  return account;
}

/** A fresh chain: resolver (fee payer, mint authority), user with 1,000,000 lots and 1 SOL, escrow owner, stranger. */
export async function createChain(): Promise<Chain> {
  const svm = new LiteSVM();
  const resolver = await generateKeyPairSigner();
  const escrowOwner = await generateKeyPairSigner();
  svm.airdrop(resolver.address, lamports(10_000_000_000n));
  const user = Keypair.generate();
  const userAddress = address(user.publicKey.toBase58());
  svm.airdrop(userAddress, lamports(1_000_000_000n));
  const mint = await createMint(svm, resolver);
  const otherMint = await createMint(svm, resolver);
  const userAta = await fund(svm, resolver, userAddress, mint, 1_000_000n);
  const userOtherAta = await fund(svm, resolver, userAddress, otherMint, 1_000_000n);
  const stranger = (await generateKeyPairSigner()).address;
  const strangerAta = await fund(svm, resolver, stranger, mint, 0n);
  return {
    svm,
    resolver,
    escrowOwner,
    user,
    userAddress,
    mint,
    otherMint,
    userAta,
    userOtherAta,
    escrowAta: await ata(escrowOwner.address, mint),
    stranger,
    strangerAta,
  };
}

export const INTENT_ID = "2f1c7f6e-3d0b-4a57-9b8e-6f0c1d2e3a4b";
export const SECRET_HASH = `0x${"ab".repeat(32)}` as const;

export function memoInstruction(text = `swapintent:${INTENT_ID}:${SECRET_HASH}`): Instruction {
  return { programAddress: MEMO_PROGRAM, accounts: [], data: new TextEncoder().encode(text) };
}

/** The user as a kit signer that never signs (the user's slot stays empty in what the fixture compiles). */
export function userSigner(chain: Chain): TransactionSigner {
  return createNoopSigner(chain.userAddress);
}

/** The honest instructions of approvals.md: idempotent escrow ATA create, TransferChecked, memo. */
export function honestInstructions(chain: Chain, overrides: { amount?: bigint } = {}): Instruction[] {
  return [
    getCreateAssociatedTokenIdempotentInstruction({
      payer: createNoopSigner(chain.resolver.address),
      ata: chain.escrowAta,
      owner: chain.escrowOwner.address,
      mint: chain.mint,
    }),
    getTransferCheckedInstruction({
      source: chain.userAta,
      mint: chain.mint,
      destination: chain.escrowAta,
      authority: userSigner(chain),
      amount: overrides.amount ?? AMOUNT,
      decimals: DECIMALS,
    }),
    memoInstruction(),
  ];
}

/** Options of {@link compileHex}. */
export interface CompileOptions {
  /** Fee payer, default the resolver. */
  feePayer?: Address;
  version?: 0 | "legacy";
  /** Lookup tables to compress the message with (v0 only). */
  lookupTables?: Record<Address, Address[]>;
}

/** Compile instructions into a transaction with every signature slot empty; hex. */
export function compileHex(chain: Chain, instructions: Instruction[], options: CompileOptions = {}): string {
  const base = pipe(
    createTransactionMessage({ version: options.version ?? 0 }),
    (m) => setTransactionMessageFeePayer(options.feePayer ?? chain.resolver.address, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: chain.svm.latestBlockhash(), lastValidBlockHeight: 0n },
        m,
      ),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const message =
    options.lookupTables && base.version === 0
      ? (compressTransactionMessageUsingAddressLookupTables(
          base as Parameters<typeof compressTransactionMessageUsingAddressLookupTables>[0],
          options.lookupTables,
        ) as unknown as typeof base)
      : base;
  return bytesToHex(new Uint8Array(getTransactionEncoder().encode(compileTransaction(message))));
}

export function intentFor(transaction: string): Intent {
  return {
    intentId: INTENT_ID,
    deadlineSecs: 2_000_000_000,
    secretHash: SECRET_HASH,
    approvalMechanism: "cosign",
    paramsToSign: { transaction },
  };
}

export function quoteFor(chain: Chain, amount = AMOUNT) {
  return { sourceToken: chain.mint as string, sourceAmountLots: amount };
}

export function decodeHex(hex: string): Transaction {
  return getTransactionDecoder().decode(hexToBytes(hex));
}

/** The resolver co-signs (kit) the hex the user signed and litesvm executes it. */
export async function cosignAndSend(chain: Chain, hex: string): Promise<void> {
  const tx = await partiallySignTransaction([chain.resolver.keyPair], decodeHex(hex));
  send(chain.svm, tx);
}

export {
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  getTransferSolInstruction,
};

/** The token balance of a token account on the chain (decoded by @solana-program/token). */
export function tokenBalance(chain: Chain, account: Address): bigint {
  const info = chain.svm.getAccount(account);
  if (!info.exists) return 0n;
  return getTokenDecoder().decode(info.data).amount;
}

/** Verify parameters for `hex` on `chain`: the fixture's intent and quote, the user, the escrow by owner. */
export function verifyParams(
  chain: Chain,
  hex: string,
  extra: Partial<VerifyCosignTransactionParameters> = {},
): VerifyCosignTransactionParameters {
  return {
    intent: intentFor(hex),
    quote: quoteFor(chain),
    userAddress: chain.userAddress,
    escrow: { owner: chain.escrowOwner.address },
    ...extra,
  };
}

/** The code `fn` throws (a swapintent error's code), or undefined when it returns. */
export function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    return isSwapIntentError(error) ? error.code : `not a SwapIntentError: ${String(error)}`;
  }
}
