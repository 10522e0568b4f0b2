/**
 * Generative tamper test: start from the transaction, intent and quote the sandbox builds (the approvals.md
 * instructions, compiled by @solana/kit), mutate anything a malicious service controls, and require that the result
 * is either refused with a coded `SOL_*` error before the key is used, or means for the user exactly what the honest
 * transaction means: litesvm (signature verification on) executes the signed mutation and every account of the user
 * (its wallet, any account whose data names it) ends as the honest transaction leaves it, or as it was.
 *
 * Fixed seed and a moderate number of runs in `pnpm test`; `pnpm fuzz` (FUZZ_RUNS, FUZZ_SEED) runs more.
 */
import { AccountRole, createNoopSigner, type Instruction } from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import type { Intent } from "@swapintent/client";
import fc from "fast-check";
import { describe, it } from "vitest";
import {
  baseParams,
  chain,
  DELEGATED,
  honestHex,
  judge,
  PROGRAMS,
  pool,
  RUNS,
  runOptions,
  SEED,
  startProperty,
  TIMEOUT,
  useEffectOracle,
  withTransaction,
} from "../test/effectOracle.js";
import { AMOUNT, compileHex, DECIMALS, honestInstructions } from "../test/fixture.js";
import { BUILDERS, MEMO_EDITS, mutateMessage, replace } from "../test/tamperMutations.js";
import { bytesToHex, hexToBytes } from "./internal/hex.js";
import type { VerifyCosignTransactionParameters } from "./verifyCosignTransaction.js";

useEffectOracle();

describe(`generative tamper test (seed ${SEED}, ${RUNS} runs per property)`, { timeout: TIMEOUT }, () => {
  it("any byte of the transaction: set, insert or delete (1-4 edits)", async () => {
    startProperty("bytes");
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
    startProperty("message");
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
    startProperty("instruction");
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
    startProperty("client");
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
    startProperty("json");
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
