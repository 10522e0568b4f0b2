/**
 * Generative tamper test: start from the transaction, intent and quote the sandbox builds (the approvals.md
 * instructions, compiled by @solana/kit), mutate anything a malicious service controls, and require that the result
 * is either refused with a coded `SOL_*` error before the key is used, or means for the user exactly what the honest
 * transaction means: litesvm (signature verification on) executes the signed mutation and every account of the user
 * (its wallet, any account whose data names it) ends as the honest transaction leaves it, or as it was.
 *
 * Fixed seed and a moderate number of runs in `pnpm test`; `pnpm fuzz` (FUZZ_RUNS, FUZZ_SEED) runs more.
 */
import {
  AccountRole,
  type Address,
  address,
  createAddressWithSeed,
  createNoopSigner,
  decompileTransactionMessage,
  getCompiledTransactionMessageDecoder,
  type Instruction,
  partiallySignTransaction,
} from "@solana/kit";
import { MessageV0, PublicKey, VersionedTransaction } from "@solana/web3.js";
import {
  getAllocateInstruction,
  getAssignInstruction,
  getCreateAccountWithSeedInstruction,
  getTransferSolInstruction,
  parseSystemInstruction,
} from "@solana-program/system";
import {
  AuthorityType,
  getApproveInstruction,
  getBurnCheckedInstruction,
  getBurnInstruction,
  getCloseAccountInstruction,
  getCreateAssociatedTokenIdempotentInstructionAsync,
  getFreezeAccountInstruction,
  getMintToInstruction,
  getRevokeInstruction,
  getSetAuthorityInstruction,
  getSyncNativeInstruction,
  getThawAccountInstruction,
  getTransferCheckedInstruction,
  getTransferInstruction,
} from "@solana-program/token";
import type { Intent } from "@swapintent/client";
import fc from "fast-check";
import { FailedTransactionMetadata } from "litesvm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SOLANA_COSIGN_ERROR_CODES } from "../test/codes.js";
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
} from "../test/fixture.js";
import { bytesToHex, hexToBytes } from "./internal/hex.js";
import { isSolanaCosignError } from "./isSolanaCosignError.js";
import { signCosignTransaction } from "./signCosignTransaction.js";
import {
  type VerifyCosignTransactionParameters,
  verifyCosignTransaction,
} from "./verifyCosignTransaction.js";

/** Lots of the user's token account the resolver may move as a delegate (set up before the run). */
const DELEGATED = 100_000n;
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
/** Each property's time limit grows with the run count (about 15 ms a mutation on a shared 2-core machine). */
const TIMEOUT = Math.max(60_000, RUNS * 100);

const PROGRAMS = {
  system: address("11111111111111111111111111111111"),
  token: address("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"),
  token2022: address("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb"),
  ata: address("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL"),
  memo: address("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr"),
  computeBudget: address("ComputeBudget111111111111111111111111111111"),
  stake: address("Stake11111111111111111111111111111111111111"),
};

let chain: Chain;
let honestHex: string;
let baseParams: VerifyCosignTransactionParameters;
let pool: Address[];
/** The honest transaction's end state of the user-related accounts it changes (user token account, escrow). */
let honestPost: Map<string, AccountState>;
/** Per property: mutations tried, refused (by code), accepted, and accepted ones litesvm executed. */
const tally: Record<string, { tried: number; refused: number; accepted: number; executed: number }> = {};
const byCode: Record<string, number> = {};
let property = "";
const count = (field: "tried" | "refused" | "accepted" | "executed") => {
  const entry = tally[property] ?? { tried: 0, refused: 0, accepted: 0, executed: 0 };
  entry[field]++;
  tally[property] = entry;
};

interface AccountState {
  lamports: bigint;
  owner: string;
  data: string;
}

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
  console.info(`solana fuzz: ${total} mutations ${JSON.stringify({ tally, byCode })}`);
});

function stateOf(account: Address): AccountState | undefined {
  const info = chain.svm.getAccount(account);
  return info.exists
    ? { lamports: info.lamports, owner: info.programAddress, data: bytesToHex(info.data) }
    : undefined;
}

/**
 * The resolver co-signs (kit) what the user signed and litesvm simulates it: the end state of every account the
 * transaction loads, or undefined when it cannot execute (the chain refuses it; nothing changes).
 */
async function outcomeOf(userSignedHex: string): Promise<Map<string, AccountState> | undefined> {
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
function signBlindly(hex: string): string {
  const tx = VersionedTransaction.deserialize(hexToBytes(hex));
  tx.sign([chain.user]);
  return bytesToHex(tx.serialize());
}

/**
 * Addresses derived from the user's key with the seed and owner of any System with-seed instruction of the
 * transaction (decoded by @solana/kit and @solana-program/system, not by this package).
 */
async function userSeedAddresses(hex: string): Promise<Set<string>> {
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
async function assertUserEffects(outcome: Map<string, AccountState>, signedHex: string): Promise<void> {
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

const userKeyHex = () => bytesToHex(new PublicKey(chain.userAddress).toBytes());

/** Accounts that are the user's: its wallet, or any account whose data names the user's key (owner, authority). */
function userRelated(account: string, state: AccountState | undefined): boolean {
  return account === chain.userAddress || state?.data.includes(userKeyHex()) === true;
}

/** Refused with a coded error, and the signer never asked; or accepted and meaning what the honest transaction means. */
async function judge(parameters: VerifyCosignTransactionParameters): Promise<void> {
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
function assertMemoRecorded(parameters: VerifyCosignTransactionParameters, shown: readonly string[]): void {
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
function noWorse(account: string, post: AccountState, expected: AccountState | undefined): void {
  expect({ owner: post.owner, data: post.data }, `${account} changed`).toEqual(
    expected === undefined
      ? { owner: PROGRAMS.system, data: "" }
      : { owner: expected.owner, data: expected.data },
  );
  expect(post.lamports >= (expected?.lamports ?? 0n), `${account} lost lamports`).toBe(true);
}

function withTransaction(hex: string): VerifyCosignTransactionParameters {
  return { ...baseParams, intent: { ...baseParams.intent, paramsToSign: { transaction: hex } } as Intent };
}

/** `factor` multiplies the runs of a property whose space is larger (the client-built instructions). */
const runOptions = (factor = 1) => ({ seed: SEED, numRuns: RUNS * factor, endOnFailure: true });

describe(`generative tamper test (seed ${SEED}, ${RUNS} runs per property)`, { timeout: TIMEOUT }, () => {
  it("any byte of the transaction: set, insert or delete (1-4 edits)", async () => {
    property = "bytes";
    const edit = fc.record({
      at: fc.nat(),
      op: fc.constantFrom("set", "insert", "delete", "flip", "stretch"),
      value: fc.integer({ min: 0, max: 255 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 4 }), async (edits) => {
        const bytes = [...hexToBytes(honestHex)];
        for (const { at, op, value } of edits) {
          const i = at % (bytes.length + (op === "insert" ? 1 : 0));
          if (op === "set") bytes[i] = value;
          else if (op === "flip") bytes[i] = bytes[i]! ^ (1 << (value % 8));
          else if (op === "insert") bytes.splice(i, 0, value);
          else if (op === "stretch") {
            // The same value in a longer, non-minimal shortvec form (the signature count, or any byte below 0x80).
            const j = value % 2 === 0 ? 0 : i;
            if (bytes[j]! < 0x80) bytes.splice(j, 1, bytes[j]! | 0x80, 0x00);
          } else bytes.splice(i, 1);
        }
        await judge(withTransaction(bytesToHex(Uint8Array.from(bytes))));
      }),
      runOptions(),
    );
  });

  it("any field of the decoded message: header, keys, blockhash, program and account indexes, data, instruction order", async () => {
    property = "message";
    const mutation = fc.oneof(
      fc.record({
        kind: fc.constant("header" as const),
        field: fc.nat(2),
        delta: fc.integer({ min: -2, max: 2 }),
      }),
      fc.record({ kind: fc.constant("key" as const), index: fc.nat(), with: fc.nat() }),
      fc.record({ kind: fc.constant("blockhash" as const), with: fc.nat() }),
      fc.record({ kind: fc.constant("program" as const), ix: fc.nat(), index: fc.nat(20) }),
      fc.record({
        kind: fc.constant("account" as const),
        ix: fc.nat(),
        at: fc.nat(),
        index: fc.nat(20),
        op: fc.constantFrom("set", "add", "drop"),
      }),
      fc.record({
        kind: fc.constant("data" as const),
        ix: fc.nat(),
        at: fc.nat(),
        value: fc.integer({ min: 0, max: 255 }),
        op: fc.constantFrom("set", "add", "drop"),
      }),
      fc.record({
        kind: fc.constant("order" as const),
        ix: fc.nat(),
        op: fc.constantFrom("drop", "duplicate", "swap"),
      }),
      fc.record({
        kind: fc.constant("memo" as const),
        edit: fc.constantFrom(...Object.keys(MEMO_EDITS)),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), async (mutations) => {
        const hex = mutateMessage(mutations);
        if (hex !== undefined) await judge(withTransaction(hex));
      }),
      runOptions(),
    );
  });

  it("an added instruction of any built-in program with any accounts (the user among them) and any data", async () => {
    property = "instruction";
    const part = fc.oneof(
      fc.nat({ max: 15 }).map((i) => ({ key: i })),
      fc.constantFrom(0n, 1n, AMOUNT, 2n ** 64n - 1n).map((n) => ({ u64: n })),
      fc.uint8Array({ maxLength: 12 }).map((b) => ({ bytes: b })),
    );
    const extra = fc.record({
      program: fc.constantFrom(
        PROGRAMS.system,
        PROGRAMS.token,
        PROGRAMS.token2022,
        PROGRAMS.ata,
        PROGRAMS.computeBudget,
      ),
      tag: fc.nat(40),
      tagWidth: fc.constantFrom(1, 4),
      accounts: fc.array(
        fc.record({
          key: fc.nat(),
          role: fc.constantFrom(...Object.values(AccountRole).filter((r) => typeof r === "number")),
        }),
        { maxLength: 7 },
      ),
      parts: fc.array(part, { maxLength: 3 }),
      position: fc.nat(3),
    });
    await fc.assert(
      fc.asyncProperty(extra, async (x) => {
        const accounts = x.accounts.map(({ key, role }) => {
          const at = pool[key % pool.length]!;
          return at === chain.userAddress || at === chain.resolver.address
            ? { address: at, role: AccountRole.READONLY_SIGNER, signer: createNoopSigner(at) }
            : { address: at, role: role as AccountRole };
        });
        const data = [...(x.tagWidth === 1 ? [x.tag] : [x.tag, 0, 0, 0])];
        for (const p of x.parts) {
          if ("key" in p) data.push(...new PublicKey(pool[p.key % pool.length]!).toBytes());
          else if ("u64" in p) for (let i = 0n; i < 8n; i++) data.push(Number((p.u64 >> (8n * i)) & 255n));
          else data.push(...p.bytes);
        }
        const ix = { programAddress: x.program, accounts, data: Uint8Array.from(data) } as Instruction;
        const instructions = honestInstructions(chain);
        instructions.splice(x.position, 0, ix);
        let hex: string;
        try {
          hex = compileHex(chain, instructions);
        } catch {
          return; // kit cannot compile it (too large): nothing to sign
        }
        await judge(withTransaction(hex));
      }),
      runOptions(),
    );
  });

  it("an added instruction the program clients build (System, SPL Token or Token-2022, Associated Token) with every role drawn from the pool, the user included", async () => {
    property = "client";
    const shape = fc.record({
      builder: fc.nat(BUILDERS.length - 1),
      picks: fc.array(fc.nat(), { minLength: 4, maxLength: 4 }),
      userSigns: fc.array(fc.boolean(), { minLength: 2, maxLength: 2 }),
      amount: fc.constantFrom(1n, AMOUNT, DELEGATED, 1_000_000n, 100_000_000n),
      position: fc.nat(3),
      token2022: fc.boolean(),
      focus: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(shape, async ({ builder, picks, userSigns, amount, position, token2022, focus }) => {
        // Half the time the first account (a token instruction's source or target) is one of the token accounts,
        // most of them the user's: a delegate's pull or a revoke is then as likely as anything else.
        const accounts = [chain.userAta, chain.userAta, chain.userOtherAta, chain.strangerAta];
        const pick = (i: number) =>
          i === 0 && focus ? accounts[picks[0]! % accounts.length]! : pool[picks[i]! % pool.length]!;
        const signer = (i: number) =>
          createNoopSigner(userSigns[i] ? chain.userAddress : chain.resolver.address);
        const tokenProgram = token2022 ? PROGRAMS.token2022 : PROGRAMS.token;
        const ix = await BUILDERS[builder]!({ pick, signer, amount, tokenProgram });
        const instructions = honestInstructions(chain);
        instructions.splice(position, 0, ix);
        let hex: string;
        try {
          hex = compileHex(chain, instructions);
        } catch {
          return;
        }
        await judge(withTransaction(hex));
      }),
      runOptions(2),
    );
  });

  it("any JSON value of the quote and intent the service sends (the transaction unchanged)", async () => {
    property = "json";
    const leaves = (value: unknown, path: string[] = []): string[][] =>
      value !== null && typeof value === "object"
        ? [path, ...Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]))]
        : [path];
    const replacement = fc.oneof(
      fc.constantFrom(
        undefined,
        null,
        true,
        0,
        -1,
        1.5,
        "",
        "0x",
        [],
        {},
        0n,
        -1n,
        AMOUNT - 1n,
        AMOUNT + 1n,
        AMOUNT * 10n,
      ),
      fc.constantFrom("cosign", "permit2", "psbt", DECIMALS - 2, DECIMALS + 2, 255, 256),
      fc.string({ maxLength: 8 }),
      fc.nat({ max: 15 }).map((i) => `#pool${i}`),
      fc.constantFrom("upper", "bom", "rlo", "newline", "trim", "append").map((t) => `#edit:${t}`),
    );
    await fc.assert(
      fc.asyncProperty(fc.nat(), replacement, async (pick, value) => {
        const root = { intent: structuredClone(baseParams.intent), quote: structuredClone(baseParams.quote) };
        const paths = leaves(root).filter(
          (p) => p.length > 0 && p.join(".") !== "intent.paramsToSign.transaction",
        );
        const path = paths[pick % paths.length]!;
        const parent = path
          .slice(0, -1)
          .reduce<Record<string, unknown>>((o, k) => o[k] as Record<string, unknown>, root);
        const key = path[path.length - 1]!;
        parent[key] = replace(parent[key], value);
        await judge({
          ...baseParams,
          intent: root.intent as Intent,
          quote: root.quote as VerifyCosignTransactionParameters["quote"],
        });
      }),
      runOptions(),
    );
  });
});

describe("the effect oracle itself (so a pass means something)", () => {
  it("accepts the honest transaction's effects and notices each harm litesvm executes when signed blindly", async () => {
    const honestSigned = signBlindly(honestHex);
    await assertUserEffects((await outcomeOf(honestSigned))!, honestSigned);
    const [create, transfer, memo] = honestInstructions(chain);
    const user = createNoopSigner(chain.userAddress);
    const harms: Instruction[][] = [
      [
        create!,
        getApproveInstruction({ source: chain.userAta, delegate: chain.stranger, owner: user, amount: 1n }),
        memo!,
      ],
      [
        create!,
        transfer!,
        getTransferSolInstruction({ source: user, destination: chain.stranger, amount: 100_000_000n }),
        memo!,
      ],
      [
        create!,
        transfer!,
        getCreateAccountWithSeedInstruction({
          payer: createNoopSigner(chain.resolver.address),
          newAccount: await createAddressWithSeed({
            baseAddress: chain.userAddress,
            programAddress: PROGRAMS.stake,
            seed: "s",
          }),
          baseAccount: user,
          base: chain.userAddress,
          seed: "s",
          amount: 1_000_000n,
          space: 0n,
          programAddress: PROGRAMS.stake,
        }),
        memo!,
      ],
      [
        create!,
        getTransferCheckedInstruction({
          source: chain.userAta,
          mint: chain.mint,
          destination: chain.strangerAta,
          authority: user,
          amount: AMOUNT,
          decimals: DECIMALS,
        }),
        memo!,
      ],
      // A Revoke of the allowance the user gave elsewhere, and a pull by that delegate (no user key needed).
      [create!, transfer!, getRevokeInstruction({ source: chain.userAta, owner: user }), memo!],
      [
        create!,
        transfer!,
        getTransferCheckedInstruction({
          source: chain.userAta,
          mint: chain.mint,
          destination: chain.strangerAta,
          authority: createNoopSigner(chain.resolver.address),
          amount: DELEGATED,
          decimals: DECIMALS,
        }),
        memo!,
      ],
    ];
    for (const instructions of harms) {
      const hex = compileHex(chain, instructions);
      expect(verifyCosignTransaction.bind(null, withTransaction(hex))).toThrow();
      const signed = signBlindly(hex);
      const outcome = await outcomeOf(signed);
      expect(outcome, `harm ${harms.indexOf(instructions)}`).toBeDefined();
      await expect(assertUserEffects(outcome!, signed)).rejects.toThrow();
    }
  });
});

type Builder = (x: {
  pick: (i: number) => Address;
  signer: (i: number) => ReturnType<typeof createNoopSigner>;
  amount: bigint;
  /** SPL Token or Token-2022 (the token builders' program). */
  tokenProgram: Address;
}) => Instruction | Promise<Instruction>;

/** Instructions as the program clients build them; accounts from the pool, authorities the user or the resolver. */
const BUILDERS: Builder[] = [
  ({ pick, signer, amount }) =>
    getTransferSolInstruction({ source: signer(0), destination: pick(0), amount }),
  async ({ pick, signer, amount }) => {
    const base = signer(1);
    const programAddress = pick(1);
    return getCreateAccountWithSeedInstruction({
      payer: signer(0),
      newAccount: await createAddressWithSeed({ baseAddress: base.address, programAddress, seed: "fuzz" }),
      baseAccount: base,
      base: base.address,
      seed: "fuzz",
      amount,
      space: 0n,
      programAddress,
    });
  },
  ({ signer, pick }) => getAssignInstruction({ account: signer(0), programAddress: pick(0) }),
  ({ signer }) => getAllocateInstruction({ newAccount: signer(0), space: 8n }),
  ({ pick, signer, amount, tokenProgram }) =>
    getTransferCheckedInstruction(
      {
        source: pick(0),
        mint: pick(1),
        destination: pick(2),
        authority: signer(0),
        amount,
        decimals: DECIMALS,
      },
      { programAddress: tokenProgram },
    ),
  ({ pick, signer, amount, tokenProgram }) =>
    getTransferInstruction(
      { source: pick(0), destination: pick(1), authority: signer(0), amount },
      { programAddress: tokenProgram },
    ),
  ({ pick, signer, amount, tokenProgram }) =>
    getApproveInstruction(
      { source: pick(0), delegate: pick(1), owner: signer(0), amount },
      { programAddress: tokenProgram },
    ),
  ({ pick, signer, tokenProgram }) =>
    getRevokeInstruction({ source: pick(0), owner: signer(0) }, { programAddress: tokenProgram }),
  ({ pick, signer, tokenProgram }) =>
    getSetAuthorityInstruction(
      {
        owned: pick(0),
        owner: signer(0),
        authorityType: AuthorityType.AccountOwner,
        newAuthority: pick(1),
      },
      { programAddress: tokenProgram },
    ),
  ({ pick, signer, tokenProgram }) =>
    getCloseAccountInstruction(
      { account: pick(0), destination: pick(1), owner: signer(0) },
      { programAddress: tokenProgram },
    ),
  ({ pick, signer, amount, tokenProgram }) =>
    getBurnCheckedInstruction(
      {
        account: pick(0),
        mint: pick(1),
        authority: signer(0),
        amount,
        decimals: DECIMALS,
      },
      { programAddress: tokenProgram },
    ),
  ({ pick, signer, amount, tokenProgram }) =>
    getMintToInstruction(
      { mint: pick(0), token: pick(1), mintAuthority: signer(0), amount },
      { programAddress: tokenProgram },
    ),
  ({ pick, signer }) =>
    getCreateAssociatedTokenIdempotentInstructionAsync({ payer: signer(0), owner: pick(0), mint: pick(1) }),
  ({ pick, tokenProgram }) =>
    getSyncNativeInstruction({ account: pick(0) }, { programAddress: tokenProgram }),
  ({ pick, signer, amount, tokenProgram }) =>
    getBurnInstruction(
      { account: pick(0), mint: pick(1), authority: signer(0), amount },
      { programAddress: tokenProgram },
    ),
  ({ pick, signer, tokenProgram }) =>
    getFreezeAccountInstruction(
      { account: pick(0), mint: pick(1), owner: signer(0) },
      { programAddress: tokenProgram },
    ),
  ({ pick, signer, tokenProgram }) =>
    getThawAccountInstruction(
      { account: pick(0), mint: pick(1), owner: signer(0) },
      { programAddress: tokenProgram },
    ),
];

/** Every string inside `value` (object values and array items, recursively). */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

function replace(current: unknown, value: unknown): unknown {
  if (typeof value !== "string") return value;
  if (value.startsWith("#pool")) return pool[Number(value.slice(5)) % pool.length];
  if (!value.startsWith("#edit:") || typeof current !== "string") return value;
  const edits: Record<string, (s: string) => string> = {
    upper: (s) => s.toUpperCase(),
    bom: (s) => `\uFEFF${s}`,
    rlo: (s) => `\u202E${s}`,
    newline: (s) => `${s}\n`,
    trim: (s) => s.slice(0, -1),
    append: (s) => `${s}0`,
  };
  return edits[value.slice(6)]!(current);
}

type MessageMutation =
  | { kind: "header"; field: number; delta: number }
  | { kind: "key"; index: number; with: number }
  | { kind: "blockhash"; with: number }
  | { kind: "program"; ix: number; index: number }
  | { kind: "account"; ix: number; at: number; index: number; op: "set" | "add" | "drop" }
  | { kind: "data"; ix: number; at: number; value: number; op: "set" | "add" | "drop" }
  | { kind: "order"; ix: number; op: "drop" | "duplicate" | "swap" }
  | { kind: "memo"; edit: string };

const utf8 = (text: string) => new TextEncoder().encode(text);
/** Edits of the memo's bytes: each leaves a text that reads (almost) the same but is recorded differently. */
const MEMO_EDITS: Record<string, (bytes: Uint8Array) => Uint8Array> = {
  bom: (b) => Uint8Array.from([0xef, 0xbb, 0xbf, ...b]),
  rlo: (b) => Uint8Array.from([...utf8("\u202E"), ...b]),
  zeroWidth: (b) => Uint8Array.from([...b.subarray(0, 10), ...utf8("\u200B"), ...b.subarray(10)]),
  upper: (b) => utf8(new TextDecoder().decode(b).toUpperCase()),
  trailingSpace: (b) => Uint8Array.from([...b, 0x20]),
  newline: (b) => Uint8Array.from([...b, 0x0a]),
  invalidByte: (b) => Uint8Array.from([...b, 0xff]),
  overlongColon: (b) => {
    const i = b.indexOf(0x3a);
    return Uint8Array.from([...b.subarray(0, i), 0xc0, 0xba, ...b.subarray(i + 1)]);
  },
  fullwidthColon: (b) => utf8(new TextDecoder().decode(b).replace(":", "\uFF1A")),
};

/** Apply structured edits to the decoded honest message and re-serialize it with web3.js (undefined if it cannot). */
function mutateMessage(mutations: readonly MessageMutation[]): string | undefined {
  const original = VersionedTransaction.deserialize(hexToBytes(honestHex)).message as MessageV0;
  const header = { ...original.header };
  const keys = [...original.staticAccountKeys];
  let blockhash = original.recentBlockhash;
  const instructions = original.compiledInstructions.map((c) => ({
    programIdIndex: c.programIdIndex,
    accountKeyIndexes: [...c.accountKeyIndexes],
    data: Uint8Array.from(c.data),
  }));
  for (const m of mutations) {
    const ix = "ix" in m ? instructions[m.ix % Math.max(1, instructions.length)] : undefined;
    switch (m.kind) {
      case "header": {
        const field = (
          ["numRequiredSignatures", "numReadonlySignedAccounts", "numReadonlyUnsignedAccounts"] as const
        )[m.field]!;
        header[field] = Math.max(0, header[field] + m.delta);
        break;
      }
      case "key":
        keys[m.index % keys.length] = new PublicKey(pool[m.with % pool.length]!);
        break;
      case "blockhash":
        blockhash = new PublicKey(pool[m.with % pool.length]!).toBase58();
        break;
      case "program":
        if (ix) ix.programIdIndex = m.index;
        break;
      case "account":
        if (!ix) break;
        if (m.op === "add") ix.accountKeyIndexes.splice(m.at % (ix.accountKeyIndexes.length + 1), 0, m.index);
        else if (ix.accountKeyIndexes.length > 0) {
          const at = m.at % ix.accountKeyIndexes.length;
          if (m.op === "set") ix.accountKeyIndexes[at] = m.index;
          else ix.accountKeyIndexes.splice(at, 1);
        }
        break;
      case "data": {
        if (!ix) break;
        const data = [...ix.data];
        if (m.op === "add") data.splice(m.at % (data.length + 1), 0, m.value);
        else if (data.length > 0) {
          if (m.op === "set") data[m.at % data.length] = m.value;
          else data.splice(m.at % data.length, 1);
        }
        ix.data = Uint8Array.from(data);
        break;
      }
      case "memo": {
        const memoIndex = keys.findIndex((k) => k.toBase58() === PROGRAMS.memo);
        const memo = instructions.find((c) => c.programIdIndex === memoIndex);
        if (memo) memo.data = Uint8Array.from(MEMO_EDITS[m.edit]!(memo.data));
        break;
      }
      case "order": {
        const i = m.ix % instructions.length;
        if (m.op === "drop") instructions.splice(i, 1);
        else if (m.op === "duplicate")
          instructions.splice(i, 0, {
            ...instructions[i]!,
            accountKeyIndexes: [...instructions[i]!.accountKeyIndexes],
          });
        else if (instructions.length > 1) {
          const j = (i + 1) % instructions.length;
          [instructions[i], instructions[j]] = [instructions[j]!, instructions[i]!];
        }
        break;
      }
    }
  }
  try {
    const message = new MessageV0({
      header,
      staticAccountKeys: keys,
      recentBlockhash: blockhash,
      compiledInstructions: instructions,
      addressTableLookups: [],
    });
    const signatures = Array.from({ length: header.numRequiredSignatures }, () => new Uint8Array(64));
    return bytesToHex(new VersionedTransaction(message, signatures).serialize());
  } catch {
    return undefined;
  }
}
