import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { exec } from "./project.js";

/** What one call gave: a coded error with every guard's answer, an uncoded error's first line, or a return. */
export interface Refusal {
  code?: string;
  /** `specifier#guard` -> what the guard said of the error (every `is…Error` of its package, `isSwapIntentError`). */
  guards?: Record<string, boolean>;
  uncoded?: string;
  returned?: string;
}

/** The deposit a bitcoin wallet adapter is asked to sign, as plain JSON (the amount as a decimal string). */
export interface WalletCase {
  intent: unknown;
  sourceAmountLots: string;
  userPublicKey: string;
}

/**
 * The script run in the consumer project, once per module system (`import` or `require` of every entry): every
 * exported function of every entry called with `{}` (each refuses it with its package's code, or answers), and the
 * refusal that crosses entries: a Unisat wallet (from `@swapintent/bitcoin/wallets`) that the user cancels, asked by
 * the root's `signHtlcPsbt` and by `@swapintent/bitcoin/node`'s actions. Each coded error is put to every guard of
 * its package's entries and to the client's `isSwapIntentError`, so an entry with its own copy of the error class is caught.
 */
const SCRIPT = `
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
const require = createRequire(import.meta.url);
const [mode, specifiersJson, walletCaseFile] = process.argv.slice(2);
const specifiers = JSON.parse(specifiersJson);
const walletCase = JSON.parse(readFileSync(walletCaseFile, "utf8"));
const load = async (s) => (mode === "import" ? await import(s) : require(s));
const modules = {};
for (const s of specifiers) modules[s] = await load(s);
const packageOf = (s) => s.split("/").slice(0, 2).join("/");
// the package's own guards, from each of its entries, and the client's guard of every package's errors
const guardsOf = (pkg) =>
  Object.entries(modules)
    .filter(([s]) => packageOf(s) === pkg || s === "@swapintent/client")
    .flatMap(([s, m]) =>
      Object.entries(m)
        .filter(([name, value]) => /^is[A-Z]\\w*Error$/.test(name) && typeof value === "function")
        .filter(([name]) => packageOf(s) === pkg || name === "isSwapIntentError")
        .map(([name, guard]) => [s + "#" + name, guard]),
    );
const first = (e) => String(e?.message ?? e).split("\\n")[0];
async function outcome(pkg, call) {
  try {
    const value = await call();
    return { returned: value === null ? "null" : typeof value };
  } catch (error) {
    if (typeof error?.code !== "string") return { uncoded: first(error) };
    return {
      code: error.code,
      guards: Object.fromEntries(guardsOf(pkg).map(([name, guard]) => [name, guard(error) === true])),
    };
  }
}
// Never called here: they wait on a service or loop over its pages.
const SKIP = /^(watch|wait|iterate|raceAbortSignal$)/;
const out = {};
for (const [s, m] of Object.entries(modules)) {
  for (const [name, value] of Object.entries(m).sort(([a], [b]) => a.localeCompare(b))) {
    if (typeof value !== "function" || /^[A-Z]/.test(name) || /^(is|has)[A-Z]/.test(name) || SKIP.test(name)) continue;
    out[s + "#" + name + "({})"] = await outcome(packageOf(s), () => value({}));
  }
}
// The Unisat wallet of a user who cancels: the wallet's own code 4001.
const bitcoin = modules["@swapintent/bitcoin"];
const wallets = modules["@swapintent/bitcoin/wallets"];
const node = modules["@swapintent/bitcoin/node"];
const ecc = await load("@bitcoinerlab/secp256k1");
const cancelled = () =>
  wallets.createUnisatWalletSigner({
    unisat: { signPsbt: async () => { throw Object.assign(new Error("User rejected the request."), { code: 4001 }); } },
    publicKey: walletCase.userPublicKey,
  });
const deposit = {
  intent: walletCase.intent,
  quote: { sourceAmountLots: BigInt(walletCase.sourceAmountLots) },
  userPublicKey: walletCase.userPublicKey,
};
out["@swapintent/bitcoin#signHtlcPsbt with @swapintent/bitcoin/wallets#createUnisatWalletSigner, cancelled"] =
  await outcome("@swapintent/bitcoin", () => bitcoin.signHtlcPsbt({ ...deposit, ecc: ecc.default ?? ecc, signer: cancelled() }));
out["@swapintent/bitcoin/node#createNodeHtlcActions().sign with the Unisat signer, cancelled"] =
  await outcome("@swapintent/bitcoin", () => node.createNodeHtlcActions().sign({ ...deposit, signer: cancelled() }));
console.log(JSON.stringify(out));
`;

/**
 * Runs the refusals of {@link SCRIPT} in the project at `dir`, loading every entry in `specifiers` by `import` or by
 * `require`. Keys name the entry and the call.
 */
export async function collectRefusals(
  dir: string,
  mode: "import" | "require",
  specifiers: string[],
  walletCase: WalletCase,
): Promise<Record<string, Refusal>> {
  const script = join(dir, "refusals.mjs");
  const caseFile = join(dir, "wallet-case.json");
  await writeFile(script, SCRIPT);
  await writeFile(caseFile, JSON.stringify(walletCase));
  const { stdout } = await exec("node", [script, mode, JSON.stringify(specifiers), caseFile], { cwd: dir });
  return JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as Record<string, Refusal>;
}
