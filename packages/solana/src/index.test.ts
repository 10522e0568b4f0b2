import { expect, it } from "vitest";

/** The names kept one minor release beside their replacements, each with the name that replaces it. */
const DEPRECATED: Record<string, string> = {
  ASSOCIATED_TOKEN_PROGRAM_ADDRESS: "SOLANA_PROGRAM_ADDRESSES.associatedToken",
  COMPUTE_BUDGET_PROGRAM_ADDRESS: "SOLANA_PROGRAM_ADDRESSES.computeBudget",
  MEMO_PROGRAM_ADDRESS: "SOLANA_PROGRAM_ADDRESSES.memo",
  MEMO_V1_PROGRAM_ADDRESS: "SOLANA_PROGRAM_ADDRESSES.memoV1",
  SYSTEM_PROGRAM_ADDRESS: "SOLANA_PROGRAM_ADDRESSES.system",
  TOKEN_2022_PROGRAM_ADDRESS: "SOLANA_PROGRAM_ADDRESSES.token2022",
  TOKEN_PROGRAM_ADDRESS: "SOLANA_PROGRAM_ADDRESSES.token",
  getAssociatedTokenAddress: "getAssociatedTokenAccountAddress",
  isSolanaError: "isSolanaCosignError",
};

it("exports exactly the public API", async () => {
  expect(Object.keys(await import("./index.js")).sort()).toMatchInlineSnapshot(`
    [
      "ASSOCIATED_TOKEN_PROGRAM_ADDRESS",
      "COMPUTE_BUDGET_PROGRAM_ADDRESS",
      "DEFAULT_ALLOWED_PROGRAMS",
      "MEMO_PROGRAM_ADDRESS",
      "MEMO_V1_PROGRAM_ADDRESS",
      "NATIVE_SOL_ADDRESS",
      "SOLANA_PROGRAM_ADDRESSES",
      "SOLANA_SIGN_TRANSACTION_FEATURE",
      "SYSTEM_PROGRAM_ADDRESS",
      "TOKEN_2022_PROGRAM_ADDRESS",
      "TOKEN_PROGRAM_ADDRESS",
      "WRAPPED_SOL_MINT_ADDRESS",
      "getAssociatedTokenAccountAddress",
      "getAssociatedTokenAddress",
      "isSolanaCosignError",
      "isSolanaError",
      "signCosignTransaction",
      "signCosignTransactionWithKit",
      "signCosignTransactionWithWalletStandard",
      "verifyCosignTransaction",
    ]
  `);
});

/** Every function a module exports has TSDoc with a `ts` @example, in the file named after it. */
async function expectDocumented(exports: Record<string, unknown>): Promise<void> {
  const { readFile } = await import("node:fs/promises");
  const functions = Object.entries(exports).filter(
    ([name, value]) => typeof value === "function" && !(name in DEPRECATED),
  );
  expect(functions.length).toBeGreaterThan(0);
  for (const [name] of functions) {
    const source = await readFile(new URL(`./${name}.ts`, import.meta.url), "utf8");
    const at = source.search(new RegExp(`export (async )?function ${name}\\b`));
    expect(at, name).toBeGreaterThan(0);
    expect(source.slice(source.lastIndexOf("/**", at), at), name).toMatch(/@example\n \* ```ts\n/);
  }
}

it("every exported function has TSDoc with an @example", async () => {
  await expectDocumented(await import("./index.js"));
});

it("the Kit entry exports exactly its API, each function documented with an @example", async () => {
  const kit = await import("./kit.js");
  expect(Object.keys(kit).sort()).toMatchInlineSnapshot(`
    [
      "ASSOCIATED_TOKEN_PROGRAM_ADDRESS",
      "COMPUTE_BUDGET_PROGRAM_ADDRESS",
      "DEFAULT_ALLOWED_PROGRAMS",
      "MEMO_PROGRAM_ADDRESS",
      "MEMO_V1_PROGRAM_ADDRESS",
      "NATIVE_SOL_ADDRESS",
      "SOLANA_PROGRAM_ADDRESSES",
      "SOLANA_SIGN_TRANSACTION_FEATURE",
      "SYSTEM_PROGRAM_ADDRESS",
      "TOKEN_2022_PROGRAM_ADDRESS",
      "TOKEN_PROGRAM_ADDRESS",
      "WRAPPED_SOL_MINT_ADDRESS",
      "getAssociatedTokenAccountAddress",
      "getAssociatedTokenAddress",
      "isSolanaCosignError",
      "isSolanaError",
      "signCosignTransactionWithKit",
      "signCosignTransactionWithWalletStandard",
      "verifyCosignTransaction",
    ]
  `);
  await expectDocumented(kit);
});

it("each deprecated name is its replacement, on both entries", async () => {
  for (const entry of [await import("./index.js"), await import("./kit.js")]) {
    const exports = entry as unknown as Record<string, unknown>;
    for (const [old, replacement] of Object.entries(DEPRECATED)) {
      const [name, key] = replacement.split(".") as [string, string | undefined];
      const value = key === undefined ? exports[name] : (exports[name] as Record<string, unknown>)[key];
      expect(exports[old], old).toBe(value);
      expect(value, replacement).toBeDefined();
    }
  }
});

it("SOLANA_PROGRAM_ADDRESSES is frozen and lists exactly the default programs", async () => {
  const { DEFAULT_ALLOWED_PROGRAMS, SOLANA_PROGRAM_ADDRESSES } = await import("./index.js");
  expect(Object.isFrozen(SOLANA_PROGRAM_ADDRESSES)).toBe(true);
  expect(() => {
    (SOLANA_PROGRAM_ADDRESSES as { token: string }).token = "11111111111111111111111111111111";
  }).toThrow(TypeError);
  expect(Object.keys(SOLANA_PROGRAM_ADDRESSES)).toEqual([
    "system",
    "token",
    "token2022",
    "associatedToken",
    "computeBudget",
    "memo",
    "memoV1",
  ]);
  expect([...DEFAULT_ALLOWED_PROGRAMS]).toEqual(Object.values(SOLANA_PROGRAM_ADDRESSES));
});

it("no current export shares a name with an export of the Solana libraries a wallet imports", async () => {
  const libraries = await Promise.all([
    import("@solana/kit"),
    import("@solana/web3.js"),
    import("@solana-program/system"),
    import("@solana-program/token"),
  ]);
  // `@solana/spl-token` is not installed here; its exports this package once shared, by name.
  const splToken = [
    "getAssociatedTokenAddress",
    "TOKEN_PROGRAM_ID",
    "ASSOCIATED_TOKEN_PROGRAM_ID",
    "NATIVE_MINT",
  ];
  const theirs = new Set([...libraries.flatMap((library) => Object.keys(library)), ...splToken]);
  for (const entry of [await import("./index.js"), await import("./kit.js")]) {
    const clashes = Object.keys(entry).filter((name) => theirs.has(name) && !(name in DEPRECATED));
    expect(clashes).toEqual([]);
  }
});
