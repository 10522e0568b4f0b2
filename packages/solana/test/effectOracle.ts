/**
 * Test support for the generative tamper test: a litesvm chain where the user once gave the resolver an allowance,
 * the honest transaction's end state, the mutations a malicious service could make, and the effect oracle that
 * judges each (refused with a coded error before the signer is asked, or accepted meaning for the user what the
 * honest transaction means).
 */
import {
  type Address,
  address,
  createAddressWithSeed,
  createNoopSigner,
  decompileTransactionMessage,
  getCompiledTransactionMessageDecoder,
  partiallySignTransaction,
} from "@solana/kit";
import { PublicKey, VersionedTransaction } from "@solana/web3.js";
import { parseSystemInstruction } from "@solana-program/system";
import { getApproveInstruction } from "@solana-program/token";
import type { Intent } from "@swapintent/client";
import { FailedTransactionMetadata } from "litesvm";
import { afterAll, beforeAll, expect, vi } from "vitest";
import { bytesToHex, hexToBytes } from "../src/internal/hex.js";
import { isSolanaCosignError } from "../src/isSolanaCosignError.js";
import { signCosignTransaction } from "../src/signCosignTransaction.js";
import {
  type VerifyCosignTransactionParameters,
  verifyCosignTransaction,
} from "../src/verifyCosignTransaction.js";
import { SOLANA_COSIGN_ERROR_CODES } from "./codes.js";
import {
  AMOUNT,
  type Chain,
  compileHex,
  cosignAndSend,
  createChain,
  DECIMALS,
  decodeHex,
  honestInstructions,
  intentFor,
  quoteFor,
} from "./fixture.js";

/** Lots of the user's token account the resolver may move as a delegate (set up before the run). */
export const DELEGATED = 100_000n;
export const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
export const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
/** Each property's time limit grows with the run count (about 15 ms a mutation on a shared 2-core machine). */
export const TIMEOUT = Math.max(60_000, RUNS * 100);

export const PROGRAMS = {
  system: address("11111111111111111111111111111111"),
  token: address("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"),
  token2022: address("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb"),
  ata: address("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL"),
  memo: address("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr"),
  computeBudget: address("ComputeBudget111111111111111111111111111111"),
  stake: address("Stake11111111111111111111111111111111111111"),
};

export let chain: Chain;
export let honestHex: string;
export let baseParams: VerifyCosignTransactionParameters;
export let pool: Address[];
/** The honest transaction's end state of the user-related accounts it changes (user token account, escrow). */
export let honestPost: Map<string, AccountState>;
/** Per property: mutations tried, refused (by code), accepted, and accepted ones litesvm executed. */
export const tally: Record<string, { tried: number; refused: number; accepted: number; executed: number }> =
  {};
export const byCode: Record<string, number> = {};
let property = "";
/** Name the property whose mutations follow (for the run report). */
export function startProperty(name: string): void {
  property = name;
}
export const count = (field: "tried" | "refused" | "accepted" | "executed") => {
  const entry = tally[property] ?? { tried: 0, refused: 0, accepted: 0, executed: 0 };
  entry[field]++;
  tally[property] = entry;
};

export interface AccountState {
  lamports: bigint;
  owner: string;
  data: string;
}

export function stateOf(account: Address): AccountState | undefined {
  const info = chain.svm.getAccount(account);
  return info.exists
    ? { lamports: info.lamports, owner: info.programAddress, data: bytesToHex(info.data) }
    : undefined;
}

/**
 * The resolver co-signs (kit) what the user signed and litesvm simulates it: the end state of every account the
 * transaction loads, or undefined when it cannot execute (the chain refuses it; nothing changes).
 */
export async function outcomeOf(userSignedHex: string): Promise<Map<string, AccountState> | undefined> {
  let tx: ReturnType<typeof decodeHex>;
  try {
    tx = await partiallySignTransaction([chain.resolver.keyPair], decodeHex(userSignedHex));
  } catch {
    return undefined; // the resolver is not a signer of it: it can never be submitted
  }
  let result: ReturnType<typeof chain.svm.simulateTransaction>;
  try {
    result = chain.svm.simulateTransaction(tx);
  } catch {
    return undefined; // another signer's signature is missing: it can never be submitted as it is
  }
  if (result instanceof FailedTransactionMetadata) return undefined;
  return new Map(
    result
      .postAccounts()
      .map((a) => [
        a.address as string,
        { lamports: a.lamports, owner: a.programAddress, data: bytesToHex(Uint8Array.from(a.data)) },
      ]),
  );
}

/** The signature a wallet without this package would add: web3.js signs whatever it is given. */
export function signBlindly(hex: string): string {
  const tx = VersionedTransaction.deserialize(hexToBytes(hex));
  tx.sign([chain.user]);
  return bytesToHex(tx.serialize());
}

/**
 * Addresses derived from the user's key with the seed and owner of any System with-seed instruction of the
 * transaction (decoded by @solana/kit and @solana-program/system, not by this package).
 */
export async function userSeedAddresses(hex: string): Promise<Set<string>> {
  const compiled = getCompiledTransactionMessageDecoder().decode(decodeHex(hex).messageBytes);
  const message = decompileTransactionMessage(compiled);
  const out = new Set<string>();
  for (const ix of message.instructions) {
    if (ix.programAddress !== PROGRAMS.system || ix.data === undefined) continue;
    let parsed: { data: { base?: Address; seed?: string; programAddress?: Address } };
    try {
      parsed = parseSystemInstruction(ix as Parameters<typeof parseSystemInstruction>[0]) as typeof parsed;
    } catch {
      continue;
    }
    const { base, seed, programAddress } = parsed.data;
    if (base === chain.userAddress && seed !== undefined && programAddress !== undefined) {
      out.add(await createAddressWithSeed({ baseAddress: base, programAddress, seed }));
    }
  }
  return out;
}

/**
 * The executed transaction did to the user exactly what the honest one does, or nothing: the user's token account
 * and the escrow end as after the honest transaction (or unchanged), every other account of the user (its wallet,
 * any account whose data names the user, any address derived from the user's key as a seed base) keeps its owner
 * and data and loses no lamports.
 */
export async function assertUserEffects(
  outcome: Map<string, AccountState>,
  signedHex: string,
): Promise<void> {
  const userDerived = await userSeedAddresses(signedHex);
  const moved = [...honestPost.keys()].filter(
    (a) => outcome.has(a) && outcome.get(a)!.data !== (stateOf(a as Address)?.data ?? ""),
  );
  for (const [account, post] of outcome) {
    const pre = stateOf(account as Address);
    if (honestPost.has(account)) {
      // Lamports the resolver adds to the user's or the escrow's token account change nothing for the user.
      noWorse(account, post, moved.length > 0 ? honestPost.get(account) : pre);
    } else if (userRelated(account, pre) || userRelated(account, post)) {
      noWorse(account, post, pre);
    } else if (userDerived.has(account)) {
      // An address derived from the user's key as seed base (a stake or nonce address of the user's).
      noWorse(account, post, pre);
    }
  }
  if (moved.length > 0) expect(moved.sort()).toEqual([...honestPost.keys()].sort());
}

export const userKeyHex = () => bytesToHex(new PublicKey(chain.userAddress).toBytes());

/** Accounts that are the user's: its wallet, or any account whose data names the user's key (owner, authority). */
export function userRelated(account: string, state: AccountState | undefined): boolean {
  return account === chain.userAddress || state?.data.includes(userKeyHex()) === true;
}

/** Refused with a coded error, and the signer never asked; or accepted and meaning what the honest transaction means. */
export async function judge(parameters: VerifyCosignTransactionParameters): Promise<void> {
  count("tried");
  let verification: ReturnType<typeof verifyCosignTransaction>;
  try {
    verification = verifyCosignTransaction(parameters);
  } catch (error) {
    // A swapintent error whose code is one of the package's (the guard checks the code against the union).
    expect(isSolanaCosignError(error), String(error)).toBe(true);
    const code = (error as { code: string }).code;
    expect(SOLANA_COSIGN_ERROR_CODES).toHaveProperty(code);
    // Whatever the service sent, the error repeats none of it with a character that must not be displayed.
    for (const text of strings((error as { details: unknown }).details)) {
      expect(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(text), JSON.stringify(text)).toBe(false);
    }
    count("refused");
    byCode[code] = (byCode[code] ?? 0) + 1;
    const signMessage = vi.fn(async () => new Uint8Array(64));
    const { userAddress: _u, ...rest } = parameters;
    await expect(
      signCosignTransaction({ ...rest, signer: { publicKey: chain.userAddress, signMessage } }),
    ).rejects.toMatchObject({ code });
    expect(signMessage).not.toHaveBeenCalled();
    return;
  }
  count("accepted");
  // What the wallet shows is what it expected from its own state.
  expect(verification).toMatchObject({
    userAddress: chain.userAddress,
    mint: chain.mint,
    amountLots: AMOUNT,
    destination: chain.escrowAta,
    nativeOutflowLamports: 0n,
  });
  expect(verification.feePayer).not.toBe(chain.userAddress);
  assertMemoRecorded(parameters, verification.memos);
  const { userAddress: _u, ...rest } = parameters;
  const signed = await signCosignTransaction({ ...rest, signer: chain.user });
  expect(signed.transaction.length).toBe(
    (parameters.intent.paramsToSign as { transaction: string }).transaction.length,
  );
  const outcome = await outcomeOf(signed.transaction);
  if (outcome === undefined) return;
  count("executed");
  await assertUserEffects(outcome, signed.transaction);
}

/**
 * The memos shown are the bytes the chain records: the transaction (decoded by @solana/kit) carries a memo
 * instruction whose data is exactly the UTF-8 of `swapintent:<intent_id>:<secret_hash>`, and every memo shown is
 * the exact text of one memo instruction, with no control, bidi or zero-width character.
 */
export function assertMemoRecorded(
  parameters: VerifyCosignTransactionParameters,
  shown: readonly string[],
): void {
  const hex = (parameters.intent.paramsToSign as { transaction: string }).transaction;
  const message = decompileTransactionMessage(
    getCompiledTransactionMessageDecoder().decode(decodeHex(hex).messageBytes),
  );
  const recorded = message.instructions
    .filter(
      (ix) =>
        ix.programAddress === PROGRAMS.memo ||
        ix.programAddress === "Memo1UhkJRfHyvLMcVucJwxXeuD728EQVDDwQDxFMNo",
    )
    .map((ix) => bytesToHex(Uint8Array.from(ix.data ?? [])));
  const { intentId, secretHash } = parameters.intent;
  expect(recorded).toContain(bytesToHex(utf8(`swapintent:${intentId}:${secretHash}`)));
  expect(shown.map((text) => bytesToHex(utf8(text)))).toEqual(recorded);
  for (const text of shown)
    expect(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(text), JSON.stringify(text)).toBe(false);
}

/** Same owner and data, and no fewer lamports (anyone may send lamports to an account). */
export function noWorse(account: string, post: AccountState, expected: AccountState | undefined): void {
  expect({ owner: post.owner, data: post.data }, `${account} changed`).toEqual(
    expected === undefined
      ? { owner: PROGRAMS.system, data: "" }
      : { owner: expected.owner, data: expected.data },
  );
  expect(post.lamports >= (expected?.lamports ?? 0n), `${account} lost lamports`).toBe(true);
}

export function withTransaction(hex: string): VerifyCosignTransactionParameters {
  return { ...baseParams, intent: { ...baseParams.intent, paramsToSign: { transaction: hex } } as Intent };
}

/** `factor` multiplies the runs of a property whose space is larger (the client-built instructions). */
export const runOptions = (factor = 1) => ({ seed: SEED, numRuns: RUNS * factor, endOnFailure: true });

/** Every string inside `value` (object values and array items, recursively). */
export function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

export const utf8 = (text: string) => new TextEncoder().encode(text);

/** Register the shared chain and the run report on the calling test file (call once, at its top level). */
export function useEffectOracle(): void {
  beforeAll(async () => {
    chain = await createChain();
    honestHex = compileHex(chain, honestInstructions(chain));
    baseParams = {
      intent: intentFor(honestHex),
      quote: { ...quoteFor(chain), sourceAmountDecimals: DECIMALS },
      userAddress: chain.userAddress,
      escrow: { owner: chain.escrowOwner.address },
    };
    pool = [
      chain.userAddress,
      chain.userAta,
      chain.userOtherAta,
      chain.escrowAta,
      chain.escrowOwner.address,
      chain.resolver.address,
      chain.mint,
      chain.otherMint,
      chain.stranger,
      chain.strangerAta,
      ...Object.values(PROGRAMS),
    ];
    // The user once approved the resolver as a delegate of its token account (another app's allowance): a Revoke by
    // the user, or a transfer or burn by that delegate, changes the user's account, so the oracle sees them.
    const approve = compileHex(chain, [
      getApproveInstruction({
        source: chain.userAta,
        delegate: chain.resolver.address,
        owner: createNoopSigner(chain.userAddress),
        amount: DELEGATED,
      }),
    ]);
    await cosignAndSend(chain, signBlindly(approve));
    chain.svm.expireBlockhash();
    honestHex = compileHex(chain, honestInstructions(chain));
    baseParams = { ...baseParams, intent: intentFor(honestHex) };
    const outcome = await outcomeOf(signBlindly(honestHex));
    if (outcome === undefined) throw new Error("the honest transaction must execute");
    honestPost = new Map(
      [chain.userAta, chain.escrowAta].map((a) => [a as string, outcome.get(a) ?? stateOf(a)!]),
    );
    expect(honestPost.get(chain.userAta)).not.toEqual(stateOf(chain.userAta));
  });

  afterAll(() => {
    // The report's numbers: how many mutations were tried and how they ended.
    const total = Object.values(tally).reduce((sum, t) => sum + t.tried, 0);
    if (total > 0) console.info(`solana fuzz: ${total} mutations ${JSON.stringify({ tally, byCode })}`);
  });
}
