/**
 * The user in a role it did not agree to (a seed base, a nonce authority, a token account, its key inside instruction
 * data) is SOL_USER_ROLE_NOT_ALLOWED, checked through the signer: the key is never asked.
 */
import {
  address,
  createAddressWithSeed,
  createNoopSigner,
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
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Chain, codeOf, createChain, decodeHex, honestInstructions, send } from "../test/fixture.js";
import { transactionTools } from "../test/transactionTools.js";
import { bytesToHex, hexToBytes } from "./internal/hex.js";
import { verifyCosignTransaction } from "./verifyCosignTransaction.js";

const STAKE_PROGRAM = address("Stake11111111111111111111111111111111111111");
const SYSTEM_PROGRAM = address("11111111111111111111111111111111");

let chain: Chain;
beforeAll(async () => {
  chain = await createChain();
});
beforeEach(() => chain.svm.expireBlockhash());

const { params, signRefusalUnquoted, withExtra, user } = transactionTools(() => chain);

const resolverNoop = () => createNoopSigner(chain.resolver.address);

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
    expect(await signRefusalUnquoted(hex, extra)).toEqual({
      code: "SOL_USER_ROLE_NOT_ALLOWED",
      signerCalls: 0,
    });
  });

  it("the CreateAccountWithSeed under the user's base is real: signed blindly, litesvm creates the user's seed-derived stake address for the resolver", async () => {
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
