import { expect, it } from "vitest";

it("exports exactly the public API", async () => {
  expect(Object.keys(await import("./index.js")).sort()).toMatchInlineSnapshot(`
    [
      "ASSOCIATED_TOKEN_PROGRAM_ADDRESS",
      "COMPUTE_BUDGET_PROGRAM_ADDRESS",
      "DEFAULT_ALLOWED_PROGRAMS",
      "MEMO_PROGRAM_ADDRESS",
      "MEMO_V1_PROGRAM_ADDRESS",
      "NATIVE_SOL_ADDRESS",
      "SOLANA_SIGN_TRANSACTION_FEATURE",
      "SYSTEM_PROGRAM_ADDRESS",
      "TOKEN_2022_PROGRAM_ADDRESS",
      "TOKEN_PROGRAM_ADDRESS",
      "WRAPPED_SOL_MINT_ADDRESS",
      "getAssociatedTokenAddress",
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
  const functions = Object.entries(exports).filter(([, value]) => typeof value === "function");
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
      "SOLANA_SIGN_TRANSACTION_FEATURE",
      "SYSTEM_PROGRAM_ADDRESS",
      "TOKEN_2022_PROGRAM_ADDRESS",
      "TOKEN_PROGRAM_ADDRESS",
      "WRAPPED_SOL_MINT_ADDRESS",
      "getAssociatedTokenAddress",
      "isSolanaError",
      "signCosignTransactionWithKit",
      "signCosignTransactionWithWalletStandard",
      "verifyCosignTransaction",
    ]
  `);
  await expectDocumented(kit);
});
