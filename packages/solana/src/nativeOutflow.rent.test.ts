/**
 * The rent a user-paid associated account create is counted at: at least what the chain charges, for the largest
 * account a Token-2022 mint can require.
 */
import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  compileTransaction,
  createTransactionMessage,
  generateKeyPairSigner,
  type Instruction,
  lamports,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransaction,
} from "@solana/kit";
import { getCreateAccountInstruction } from "@solana-program/system";
import { getInitializeMint2Instruction } from "@solana-program/token";
import { FailedTransactionMetadata } from "litesvm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Chain, DECIMALS, send } from "../test/fixture.js";
import { createDelegatedChain, role, transactionTools } from "../test/transactionTools.js";
import { verifyCosignTransaction } from "./verifyCosignTransaction.js";

const TOKEN_2022 = address("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb");
const ATA = address("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL");
const SYSTEM = address("11111111111111111111111111111111");

let chain: Chain;
beforeAll(async () => {
  chain = await createDelegatedChain();
});
beforeEach(() => chain.svm.expireBlockhash());

const { quotedParams: params, withExtra } = transactionTools(() => chain);

const { READONLY: R, WRITABLE: W, WRITABLE_SIGNER: WS } = AccountRole;

describe("a user-paid Token-2022 associated account create counts at least the rent the chain charges", () => {
  it("the bound covers the largest account a mint can require (Token-2022's GetAccountDataSize on litesvm)", async () => {
    const mint = await generateKeyPairSigner();
    const message = (instructions: Instruction[]) =>
      pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayer(chain.resolver.address, m),
        (m) =>
          setTransactionMessageLifetimeUsingBlockhash(
            { blockhash: chain.svm.latestBlockhash(), lastValidBlockHeight: 0n },
            m,
          ),
        (m) => appendTransactionMessageInstructions(instructions, m),
      );
    const setup = message([
      getCreateAccountInstruction({
        payer: chain.resolver,
        newAccount: mint,
        lamports: lamports(chain.svm.minimumBalanceForRentExemption(82n)),
        space: 82n,
        programAddress: TOKEN_2022,
      }),
      getInitializeMint2Instruction(
        { mint: mint.address, decimals: DECIMALS, mintAuthority: chain.resolver.address },
        { programAddress: TOKEN_2022 },
      ),
    ]);
    send(chain.svm, await signTransaction([chain.resolver.keyPair, mint.keyPair], compileTransaction(setup)));
    // GetAccountDataSize (21) with the account extensions (u16 each) an associated create can be made to add: the
    // immutable owner (7) every associated account has, and those a mint requires: transfer-fee amount (2),
    // non-transferable account (13), transfer-hook account (15), confidential transfer-fee amount (17), pausable
    // account (27).
    const types = [7, 2, 13, 15, 17, 27];
    const ask = message([
      {
        programAddress: TOKEN_2022,
        accounts: [role(mint.address, R)],
        data: Uint8Array.from([21, ...types.flatMap((t) => [t, 0])]),
      },
    ]);
    const result = chain.svm.simulateTransaction(
      await signTransaction([chain.resolver.keyPair], compileTransaction(ask)),
    );
    if (result instanceof FailedTransactionMetadata) throw new Error(result.toString());
    const answer = result.meta().returnData().data();
    const size = BigInt(answer[0]! + answer[1]! * 256);
    expect(size).toBeGreaterThan(256n); // more than the 256 bytes of a plain Token-2022 account
    const rent = chain.svm.minimumBalanceForRentExemption(size);

    const owner = (await generateKeyPairSigner()).address;
    const create: Instruction = {
      programAddress: ATA,
      accounts: [
        role(chain.userAddress, WS),
        role(chain.strangerAta, W),
        role(owner, R),
        role(mint.address, R),
        role(SYSTEM, R),
        role(TOKEN_2022, R),
      ],
      data: Uint8Array.from([1]),
    };
    const shown = verifyCosignTransaction(params(withExtra(create), { maxNativeOutflowLamports: 10n ** 9n }));
    expect(shown.nativeOutflowLamports).toBeGreaterThanOrEqual(rent);
  });
});
