/**
 * Tampered transactions a malicious service could send, each as the tampered input and the class around it: the user in a role it did not agree to, non-canonical bytes, a memo that is not the recorded
 * one, programs reached through accounts. Every refusal is also checked through the signer: the key is never asked.
 */
import {
  type Address,
  address,
  createAddressWithSeed,
  createNoopSigner,
  generateKeyPairSigner,
  type Instruction,
  partiallySignTransaction,
} from "@solana/kit";
import { VersionedTransaction } from "@solana/web3.js";
import {
  getAllocateInstruction,
  getAllocateWithSeedInstruction,
  getAuthorizeNonceAccountInstruction,
  getCreateAccountWithSeedInstruction,
  getInitializeNonceAccountInstruction,
} from "@solana-program/system";
import {
  AuthorityType,
  getApproveInstruction,
  getInitializeAccount3Instruction,
  getInitializeMultisigInstruction,
  getSetAuthorityInstruction,
} from "@solana-program/token";
import { type Intent, isSwapIntentError } from "@swapintent/client";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type Chain,
  codeOf,
  compileHex,
  createChain,
  decodeHex,
  honestInstructions,
  intentFor,
  memoInstruction,
  send,
  userSigner,
  verifyParams,
} from "../test/fixture.js";
import { everyPathRefusal } from "../test/paths.js";
import { bytesToHex, hexToBytes } from "./internal/hex.js";
import {
  type VerifyCosignTransactionParameters,
  verifyCosignTransaction,
} from "./verifyCosignTransaction.js";

const STAKE_PROGRAM = address("Stake11111111111111111111111111111111111111");
const TOKEN_PROGRAM = address("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
const SYSTEM_PROGRAM = address("11111111111111111111111111111111");

let chain: Chain;
beforeAll(async () => {
  chain = await createChain();
});
beforeEach(() => chain.svm.expireBlockhash());

const params = (hex: string, extra: Partial<VerifyCosignTransactionParameters> = {}) =>
  verifyParams(chain, hex, extra);

/**
 * The code the signing paths refuse with, and how often the user's signer was asked: every path (web3.js, Kit,
 * wallet-standard, each with a spy signer) runs the case and must agree.
 */
async function signRefusal(hex: string, extra: Partial<VerifyCosignTransactionParameters> = {}) {
  const outcomes = await everyPathRefusal(params(hex, extra));
  expect(outcomes.adapter, "wallet-adapter path").toEqual(outcomes.web3);
  expect(outcomes.kit, "kit path").toEqual(outcomes.web3);
  expect(outcomes.walletStandard, "wallet-standard path").toEqual(outcomes.web3);
  return outcomes.web3;
}

/** The honest instructions with `extra` added before the memo. */
function withExtra(...extra: Instruction[]): string {
  const [create, transfer, memo] = honestInstructions(chain);
  return compileHex(chain, [create!, transfer!, ...extra, memo!]);
}

const resolverNoop = () => createNoopSigner(chain.resolver.address);
const user = () => userSigner(chain);

describe("the user in a role it did not agree to -> SOL_USER_ROLE_NOT_ALLOWED (before any key is used)", () => {
  const cases: { name: string; build: () => Promise<Instruction> | Instruction; allowed?: string[] }[] = [
    {
      name: "a resolver-funded CreateAccountWithSeed under the user's base",
      build: async () =>
        getCreateAccountWithSeedInstruction({
          payer: resolverNoop(),
          newAccount: await createAddressWithSeed({
            baseAddress: chain.userAddress,
            programAddress: STAKE_PROGRAM,
            seed: "stake:0",
          }),
          baseAccount: user(),
          base: chain.userAddress,
          seed: "stake:0",
          amount: 2_282_880n,
          space: 200n,
          programAddress: STAKE_PROGRAM,
        }),
    },
    {
      name: "an AllocateWithSeed under the user's base",
      build: async () =>
        getAllocateWithSeedInstruction({
          newAccount: await createAddressWithSeed({
            baseAddress: chain.userAddress,
            programAddress: SYSTEM_PROGRAM,
            seed: "nonce",
          }),
          baseAccount: user(),
          base: chain.userAddress,
          seed: "nonce",
          space: 80n,
          programAddress: SYSTEM_PROGRAM,
        }),
    },
    {
      name: "an Allocate of the user's wallet",
      build: () => getAllocateInstruction({ newAccount: user(), space: 80n }),
    },
    {
      name: "an InitializeNonceAccount naming the user its authority (the key only in the data)",
      build: () =>
        getInitializeNonceAccountInstruction({
          nonceAccount: chain.stranger,
          nonceAuthority: chain.userAddress,
        }),
    },
    {
      name: "an AuthorizeNonceAccount making the user a nonce authority",
      build: () =>
        getAuthorizeNonceAccountInstruction({
          nonceAccount: chain.stranger,
          nonceAuthority: resolverNoop(),
          newNonceAuthority: chain.userAddress,
        }),
    },
    {
      name: "a token InitializeAccount3 owned by the user",
      build: () =>
        getInitializeAccount3Instruction({
          account: chain.stranger,
          mint: chain.mint,
          owner: chain.userAddress,
        }),
    },
    {
      name: "a token InitializeMultisig with the user as a signer",
      build: () =>
        getInitializeMultisigInstruction({ multisig: chain.stranger, m: 1, signers: [chain.userAddress] }),
    },
    {
      name: "a SetAuthority handing a resolver account to the user",
      build: () =>
        getSetAuthorityInstruction({
          owned: chain.strangerAta,
          owner: resolverNoop(),
          authorityType: AuthorityType.AccountOwner,
          newAuthority: chain.userAddress,
        }),
    },
    {
      name: "an Approve making the user a delegate of a resolver account",
      build: () =>
        getApproveInstruction({
          source: chain.strangerAta,
          delegate: chain.userAddress,
          owner: resolverNoop(),
          amount: 1n,
        }),
    },
    {
      name: "an associated-account create with the user's wallet as the associated account",
      build: () => {
        const [create] = honestInstructions(chain);
        const accounts = [...create!.accounts!];
        accounts[1] = { ...accounts[1]!, address: chain.userAddress };
        return { ...create!, accounts };
      },
    },
    {
      name: "a caller-allowed program whose data carries the user's key",
      allowed: [STAKE_PROGRAM],
      build: () => ({
        programAddress: STAKE_PROGRAM,
        accounts: [],
        data: Uint8Array.from([1, 0, 0, 0, ...hexToBytes(bytesToHex(chain.user.publicKey.toBytes()))]),
      }),
    },
  ];

  it.each(cases)("$name", async ({ build, allowed }) => {
    const hex = withExtra(await build());
    const extra = allowed ? { allowedPrograms: allowed } : {};
    expect(codeOf(() => verifyCosignTransaction(params(hex, extra)))).toBe("SOL_USER_ROLE_NOT_ALLOWED");
    expect(await signRefusal(hex, extra)).toEqual({ code: "SOL_USER_ROLE_NOT_ALLOWED", signerCalls: 0 });
  });

  it("the CreateAccountWithSeed case is real: signed blindly, litesvm creates the user's seed-derived stake address for the resolver", async () => {
    const seedAddress = await createAddressWithSeed({
      baseAddress: chain.userAddress,
      programAddress: STAKE_PROGRAM,
      seed: "stake:1",
    });
    const squat = getCreateAccountWithSeedInstruction({
      payer: resolverNoop(),
      newAccount: seedAddress,
      baseAccount: user(),
      base: chain.userAddress,
      seed: "stake:1",
      amount: 2_282_880n,
      space: 200n,
      programAddress: STAKE_PROGRAM,
    });
    const hex = withExtra(squat);
    const tx = VersionedTransaction.deserialize(hexToBytes(hex));
    tx.sign([chain.user]);
    send(
      chain.svm,
      await partiallySignTransaction([chain.resolver.keyPair], decodeHex(bytesToHex(tx.serialize()))),
    );
    const account = chain.svm.getAccount(seedAddress);
    expect(account.exists && account.programAddress).toBe(STAKE_PROGRAM);
  });
});

describe("only the canonical serialization is accepted (SOL_TX_DECODE_FAILED)", () => {
  it("refuses a non-minimal signature count (0x82 0x00 for 2), which web3.js itself decodes", async () => {
    const bytes = hexToBytes(compileHex(chain, honestInstructions(chain)));
    expect(bytes[0]).toBe(2);
    const stretched = Uint8Array.from([0x82, 0x00, ...bytes.subarray(1)]);
    expect(VersionedTransaction.deserialize(stretched).signatures).toHaveLength(2);
    const hex = bytesToHex(stretched);
    expect(codeOf(() => verifyCosignTransaction(params(hex)))).toBe("SOL_TX_DECODE_FAILED");
    expect(await signRefusal(hex)).toEqual({ code: "SOL_TX_DECODE_FAILED", signerCalls: 0 });
  });

  it("refuses a non-minimal length inside the message (the account-key count) and a third shortvec byte", () => {
    const bytes = hexToBytes(compileHex(chain, honestInstructions(chain)));
    // v0: [sig count][2 x 64][0x80 version][3 header bytes][account-key count]...
    const at = 1 + 128 + 1 + 3;
    const count = bytes[at]!;
    expect(count).toBeLessThan(128);
    const inner = Uint8Array.from([...bytes.subarray(0, at), count | 0x80, 0x00, ...bytes.subarray(at + 1)]);
    expect(codeOf(() => verifyCosignTransaction(params(bytesToHex(inner))))).toBe("SOL_TX_DECODE_FAILED");
    const three = Uint8Array.from([0x82, 0x80, 0x00, ...bytes.subarray(1)]);
    expect(codeOf(() => verifyCosignTransaction(params(bytesToHex(three))))).toBe("SOL_TX_DECODE_FAILED");
  });

  it("refuses trailing bytes and a transaction that loads an account twice through a lookup table", async () => {
    const honest = compileHex(chain, honestInstructions(chain));
    expect(codeOf(() => verifyCosignTransaction(params(`${honest}00`)))).toBe("SOL_TX_DECODE_FAILED");
    const table = (await generateKeyPairSigner()).address;
    const hex = compileHex(chain, honestInstructions(chain), {
      lookupTables: { [table]: [chain.escrowAta] },
    });
    const lookupTables = [{ key: table, addresses: [chain.userAta] }]; // the user's account, already static
    expect(codeOf(() => verifyCosignTransaction(params(hex, { lookupTables })))).toBe("SOL_TX_DECODE_FAILED");
  });
});

describe("the memo is compared as the exact bytes the chain records", () => {
  const expected = () => {
    const intent = intentFor("00");
    return `swapintent:${intent.intentId}:${intent.secretHash}`;
  };
  const withMemo = (data: Uint8Array) => {
    const [create, transfer] = honestInstructions(chain);
    return compileHex(chain, [create!, transfer!, { ...memoInstruction(), data }]);
  };
  const utf8 = (text: string) => new TextEncoder().encode(text);

  it("refuses a memo with a byte-order mark before any key is used", async () => {
    const hex = withMemo(Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8(expected())]));
    expect(codeOf(() => verifyCosignTransaction(params(hex)))).toBe("SOL_MEMO_UNSAFE_TEXT");
    expect(await signRefusal(hex)).toEqual({ code: "SOL_MEMO_UNSAFE_TEXT", signerCalls: 0 });
  });

  it("refuses a memo that differs only in case or a trailing space (no folding)", () => {
    for (const text of [
      expected().toUpperCase(),
      `${expected()} `,
      expected().replace("swapintent", "SwapIntent"),
    ]) {
      expect(codeOf(() => verifyCosignTransaction(params(withMemo(utf8(text)))))).toBe("SOL_MEMO_MISMATCH");
    }
    expect(verifyCosignTransaction(params(withMemo(utf8(expected())))).memos).toEqual([expected()]);
  });

  it("refuses invalid UTF-8 (no replacement characters) with SOL_MEMO_NOT_UTF8", async () => {
    const hex = withMemo(Uint8Array.from([...utf8(expected()), 0xff]));
    expect(codeOf(() => verifyCosignTransaction(params(hex)))).toBe("SOL_MEMO_NOT_UTF8");
    const overlong = withMemo(Uint8Array.from([...utf8(expected()), 0xc0, 0xaf]));
    expect(codeOf(() => verifyCosignTransaction(params(overlong)))).toBe("SOL_MEMO_NOT_UTF8");
    expect(await signRefusal(hex)).toEqual({ code: "SOL_MEMO_NOT_UTF8", signerCalls: 0 });
  });

  it("refuses a second memo with a line break, a bidi override or a zero-width space (it is a displayed field)", () => {
    const [create, transfer, memo] = honestInstructions(chain);
    for (const text of [
      "ok\nValid until 2099",
      "pay \u202Eevil",
      "zero\u200Bwidth",
      "nul\u0000",
      "sep\u2028",
    ]) {
      const hex = compileHex(chain, [create!, transfer!, memo!, memoInstruction(text)]);
      expect(
        codeOf(() => verifyCosignTransaction(params(hex))),
        JSON.stringify(text),
      ).toBe("SOL_MEMO_UNSAFE_TEXT");
    }
  });
});

describe("programs reached through an instruction's accounts are checked and reported", () => {
  const createWith = (slot: 4 | 5, program: Address) => {
    const [create, transfer, memo] = honestInstructions(chain);
    const accounts = [...create!.accounts!];
    accounts[slot] = { ...accounts[slot]!, address: program };
    return compileHex(chain, [{ ...create!, accounts }, transfer!, memo!]);
  };

  it("reports the System Program the associated-account create invokes, besides the top-level programs", () => {
    const { programs } = verifyCosignTransaction(params(compileHex(chain, honestInstructions(chain))));
    expect(programs).toEqual([
      "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL",
      SYSTEM_PROGRAM,
      TOKEN_PROGRAM,
      "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr",
    ]);
  });

  it("refuses a resolver-paid create whose 'token program' is another program, unless allowed; then it is reported", async () => {
    const hex = createWith(5, STAKE_PROGRAM);
    expect(codeOf(() => verifyCosignTransaction(params(hex)))).toBe("SOL_PROGRAM_NOT_ALLOWED");
    expect(await signRefusal(hex)).toEqual({ code: "SOL_PROGRAM_NOT_ALLOWED", signerCalls: 0 });
    expect(verifyCosignTransaction(params(hex, { allowedPrograms: [STAKE_PROGRAM] })).programs).toContain(
      STAKE_PROGRAM,
    );
  });

  it("refuses a create whose System Program slot names another program", () => {
    expect(codeOf(() => verifyCosignTransaction(params(createWith(4, STAKE_PROGRAM))))).toBe(
      "SOL_PROGRAM_NOT_ALLOWED",
    );
  });
});

describe("service strings repeated in error details are escaped and bounded", () => {
  const unsafe = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
  const detailsOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      if (isSwapIntentError(error)) return { code: error.code, details: error.details };
    }
    throw new Error("not refused with a swapintent error");
  };

  it("a source token, an approval mechanism and an intent id with a line break, a bidi override or a zero-width space", () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const token = detailsOf(() =>
      verifyCosignTransaction(
        params(hex, { quote: { sourceToken: "USDC\nValid until 2099\u202E", sourceAmountLots: 1n } }),
      ),
    );
    expect(token.code).toBe("SOL_INVALID_ADDRESS");
    // not even escaped: an address field's value is never printed, only its type (see secretLeak.test.ts)
    expect(token.details).toEqual({ parameter: "sourceToken", value: "string" });
    const mechanism = detailsOf(() =>
      verifyCosignTransaction({
        ...params(hex),
        intent: { ...intentFor(hex), approvalMechanism: "cosign\u200B" } as unknown as Intent,
      }),
    );
    expect(mechanism.code).toBe("SOL_MECHANISM_MISMATCH");
    expect(mechanism.details.approvalMechanism).toBe("cosign\\u{200B}");
    const memo = detailsOf(() =>
      verifyCosignTransaction({
        ...params(hex),
        intent: { ...intentFor(hex), intentId: `x\n${"y".repeat(500)}` },
      }),
    );
    expect(memo.code).toBe("SOL_MEMO_MISMATCH");
    expect(String(memo.details.expected).length).toBeLessThanOrEqual(121);
    for (const result of [token, mechanism, memo]) {
      for (const value of Object.values(result.details))
        expect(unsafe.test(JSON.stringify(value) ?? "")).toBe(false);
    }
  });
});
