/**
 * Every wallet-side parameter is read defensively: whatever shape it has (missing, of another type, an array entry
 * without its fields, a getter or Proxy that throws when read), every public function refuses it with a coded error
 * of this package, or works; no `TypeError` or foreign throw escapes. One case named, then generated ones.
 */
import { getAddressEncoder, address as kitAddress } from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { type Chain, compileHex, createChain, honestInstructions, verifyParams } from "../test/fixture.js";
import { getAssociatedTokenAccountAddress } from "./getAssociatedTokenAccountAddress.js";
import { isSolanaCosignError } from "./isSolanaCosignError.js";
import { signCosignTransaction } from "./signCosignTransaction.js";
import { signCosignTransactionWithKit } from "./signCosignTransactionWithKit.js";
import { signCosignTransactionWithWalletStandard } from "./signCosignTransactionWithWalletStandard.js";
import { verifyCosignTransaction } from "./verifyCosignTransaction.js";

const RUNS = Number(process.env.FUZZ_RUNS ?? 120);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_128);
let chain: Chain;
let hex: string;
let table: string;

beforeAll(async () => {
  chain = await createChain();
  hex = compileHex(chain, honestInstructions(chain));
  table = new PublicKey(new Uint8Array(32).fill(7)).toBase58();
});

/** Fresh honest parameters (plain objects all the way down, so a run may change any of them). */
function honest(): Record<string, unknown> {
  return {
    ...verifyParams(chain, hex),
    intent: { ...verifyParams(chain, hex).intent, paramsToSign: { transaction: hex } },
    quote: { sourceToken: chain.mint, sourceAmountLots: 250_000n, sourceAmountDecimals: 6 },
    escrow: { owner: chain.escrowOwner.address },
    lookupTables: [{ key: table, addresses: [chain.stranger] }],
    allowedPrograms: [chain.stranger],
    token2022Mint: { transferFee: { basisPoints: 0, maximumFeeLots: 0n }, transferHook: null },
  };
}

type Run = (parameters: Record<string, unknown>) => unknown;

/**
 * The signing paths take the verify parameters without `userAddress`, plus their signer: added to a plain object,
 * and anything else (a whole parameters value generated) passed as it is.
 */
function withSigner(p: unknown, signer: Record<string, unknown>): unknown {
  if (isHostile(p)) return p;
  if (
    Object.prototype.toString.call(p) !== "[object Object]" ||
    Object.getPrototypeOf(p) !== Object.prototype
  )
    return p;
  const copy = p as Record<string, unknown>;
  delete copy.userAddress;
  return Object.assign(copy, signer);
}

/** A generated value that throws when inspected (the hostile Proxy): passed to the function as it is. */
function isHostile(p: unknown): boolean {
  try {
    Object.prototype.toString.call(p);
    if (typeof p === "object" && p !== null) Object.getPrototypeOf(p);
    return false;
  } catch {
    return true;
  }
}

/** Every public function that takes the wallet's parameters; each signer answers nonsense (a coded refusal too). */
const paths: Record<string, Run> = {
  verify: (p) => verifyCosignTransaction(p as never),
  web3: (p) =>
    signCosignTransaction(
      withSigner(p, {
        signer: { publicKey: chain.userAddress, signMessage: async () => new Uint8Array(64) },
      }) as never,
    ),
  adapter: (p) =>
    signCosignTransaction(
      withSigner(p, {
        signer: { publicKey: new PublicKey(chain.userAddress), signTransaction: async (tx: unknown) => tx },
      }) as never,
    ),
  kit: (p) =>
    signCosignTransactionWithKit(
      withSigner(p, { signer: { address: chain.userAddress, signTransactions: async () => [{}] } }) as never,
    ),
  walletStandard: (p) => {
    const signer: Record<string, unknown> = {};
    signer.account = {
      address: chain.userAddress,
      publicKey: new Uint8Array(getAddressEncoder().encode(kitAddress(chain.userAddress))),
      chains: ["solana:localnet"],
      features: ["solana:signTransaction"],
    };
    signer.wallet = {
      accounts: [],
      features: {
        "solana:signTransaction": {
          version: "1.0.0",
          supportedTransactionVersions: ["legacy", 0],
          signTransaction: async () => [{ signedTransaction: new Uint8Array(0) }],
        },
      },
    };
    return signCosignTransactionWithWalletStandard(withSigner(p, signer) as never);
  },
};

/** What a run ended with: "ok", a code of this package, or the stray throw (a failure). */
async function outcomeOf(run: () => unknown): Promise<string> {
  try {
    await run();
    return "ok";
  } catch (error) {
    return isSolanaCosignError(error) ? error.code : `uncoded: ${String(error)}`;
  }
}

describe("a lookup table entry without its addresses", () => {
  it("lookupTables: [{ key, addresses: undefined }] is SOL_INVALID_PARAMETERS on every path, not a TypeError", async () => {
    for (const [name, run] of Object.entries(paths)) {
      const parameters = { ...honest(), lookupTables: [{ key: table, addresses: undefined }] };
      expect(await outcomeOf(() => run(parameters)), name).toBe("SOL_INVALID_PARAMETERS");
    }
  });

  it("and every other malformed entry: null, a string, a key alone, addresses that are not an array", async () => {
    for (const entry of [
      null,
      "table",
      { key: table },
      { key: table, addresses: "x" },
      { addresses: [] },
      7,
    ]) {
      expect(await outcomeOf(() => paths.verify!({ ...honest(), lookupTables: [entry] }))).toMatch(
        /^SOL_INVALID_(PARAMETERS|ADDRESS)$/,
      );
    }
    expect(await outcomeOf(() => paths.verify!({ ...honest(), lookupTables: { length: 1 } }))).toBe(
      "SOL_INVALID_PARAMETERS",
    );
  });
});

/** Where a generated value goes: a field path in the honest parameters. */
const FIELDS = [
  [],
  ["intent"],
  ["intent", "approvalMechanism"],
  ["intent", "intentId"],
  ["intent", "secretHash"],
  ["intent", "paramsToSign"],
  ["intent", "paramsToSign", "transaction"],
  ["quote"],
  ["quote", "sourceToken"],
  ["quote", "sourceAmountLots"],
  ["quote", "sourceAmountDecimals"],
  ["userAddress"],
  ["escrow"],
  ["escrow", "owner"],
  ["escrow", "tokenAccount"],
  ["escrow", "unchecked"],
  ["allowedPrograms"],
  ["allowedPrograms", "0"],
  ["maxNativeOutflowLamports"],
  ["lookupTables"],
  ["lookupTables", "0"],
  ["lookupTables", "0", "key"],
  ["lookupTables", "0", "addresses"],
  ["lookupTables", "0", "addresses", "0"],
  ["checkMemo"],
  ["token2022Mint"],
  ["token2022Mint", "transferFee"],
  ["token2022Mint", "transferFee", "basisPoints"],
  ["token2022Mint", "transferFee", "maximumFeeLots"],
  ["token2022Mint", "transferHook"],
  ["signal"],
] as const;

const boom = () => {
  throw new Error("read");
};
/** A value whose every inspection throws (a hostile Proxy); made inside the property, where fast-check never looks. */
const trap = () =>
  new Proxy(
    {},
    { get: boom, has: boom, ownKeys: boom, getPrototypeOf: boom, getOwnPropertyDescriptor: boom },
  );

/** Values fast-check generates, plus hostile ones named by a tag and made at run time. */
const value = fc.oneof(
  fc.anything({
    withBigInt: true,
    withMap: true,
    withSet: true,
    withTypedArray: true,
    withNullPrototype: true,
  }),
  fc.constantFrom("<trap>", "<trap in an array>", "<symbol>", "<function>", "<array of undefined>"),
);
const HOSTILE: Record<string, () => unknown> = {
  "<trap>": trap,
  "<trap in an array>": () => [trap()],
  "<symbol>": () => Symbol("s"),
  "<function>": () => () => 1,
  "<array of undefined>": () => [undefined],
};
const materialize = (v: unknown) => (typeof v === "string" && Object.hasOwn(HOSTILE, v) ? HOSTILE[v]!() : v);

/** Put `v` at `path` in `root`: as the value, or (`getter`) behind a getter that throws when read. */
function place(root: Record<string, unknown>, path: readonly string[], v: unknown, getter: boolean) {
  if (path.length === 0) return v;
  let owner: Record<string, unknown> = root;
  for (const key of path.slice(0, -1)) owner = owner[key] as Record<string, unknown>;
  const last = path[path.length - 1]!;
  if (getter) Object.defineProperty(owner, last, { get: boom, enumerable: false, configurable: true });
  else owner[last] = v;
  return root;
}

describe("generated parameter shapes: a coded refusal or a result, never a stray throw", () => {
  for (const [name, run] of Object.entries(paths)) {
    it(`${name}: any field replaced by any value, or by a getter that throws`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...FIELDS), value, fc.boolean(), async (path, v, getter) => {
          const parameters = place(honest(), path, materialize(v), getter);
          const outcome = await outcomeOf(() => run(parameters as Record<string, unknown>));
          expect(outcome).not.toMatch(/^uncoded/);
        }),
        { numRuns: RUNS, seed: SEED },
      );
    });
  }

  it("getAssociatedTokenAccountAddress: any parameters refuse with SOL_INVALID_ADDRESS or derive", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("owner", "mint", "tokenProgram", ""), value, async (key, v) => {
        const hostile = materialize(v);
        const parameters =
          key === "" ? hostile : { owner: chain.userAddress, mint: chain.mint, [key]: hostile };
        const outcome = await outcomeOf(() => getAssociatedTokenAccountAddress(parameters as never));
        expect(outcome).toMatch(/^(ok|SOL_INVALID_ADDRESS)$/);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
