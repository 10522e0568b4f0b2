/**
 * One rule on every signing path: a wallet or signer whose promise never settles is abandoned when the caller's
 * `signal` aborts (`SOL_SIGNING_ABORTED`, stage `whileSigning`, the signal's reason as `cause`), and nothing it
 * answers afterwards is used.
 */
import { PublicKey } from "@solana/web3.js";
import { beforeAll, describe, expect, it } from "vitest";
import { type Chain, compileHex, createChain, honestInstructions, verifyParams } from "../test/fixture.js";
import { standardAccount } from "../test/paths.js";
import { isSolanaCosignError } from "./isSolanaCosignError.js";
import { signCosignTransaction } from "./signCosignTransaction.js";
import { signCosignTransactionWithKit } from "./signCosignTransactionWithKit.js";
import { signCosignTransactionWithWalletStandard } from "./signCosignTransactionWithWalletStandard.js";

let chain: Chain;
let hex: string;
beforeAll(async () => {
  chain = await createChain();
  hex = compileHex(chain, honestInstructions(chain));
});

/** A promise that never settles, and a promise that resolves once it was handed out (the wallet was asked). */
function neverAnswering() {
  let asked!: () => void;
  const wasAsked = new Promise<void>((resolve) => {
    asked = resolve;
  });
  const answer = () => {
    asked();
    return new Promise<never>(() => {});
  };
  return { wasAsked, answer };
}

type Sign = (signal: AbortSignal, answer: () => Promise<never>) => Promise<unknown>;

const paths: [string, Sign][] = [
  [
    "web3.js external signMessage signer",
    (signal, answer) => {
      const { userAddress: _user, ...rest } = verifyParams(chain, hex);
      const userAddress = chain.userAddress as string;
      return signCosignTransaction({
        ...rest,
        signal,
        signer: { publicKey: userAddress, signMessage: answer },
      });
    },
  ],
  [
    "web3.js wallet adapter",
    (signal, answer) => {
      const { userAddress: _user, ...rest } = verifyParams(chain, hex);
      const userAddress = chain.userAddress as string;
      return signCosignTransaction({
        ...rest,
        signal,
        signer: { publicKey: new PublicKey(userAddress), signTransaction: answer },
      });
    },
  ],
  [
    "Kit TransactionPartialSigner",
    (signal, answer) => {
      const { userAddress: _user, ...rest } = verifyParams(chain, hex);
      const userAddress = chain.userAddress as string;
      return signCosignTransactionWithKit({
        ...rest,
        signal,
        signer: { address: userAddress, signTransactions: answer },
      });
    },
  ],
  [
    "wallet-standard wallet",
    (signal, answer) => {
      const { userAddress: _user, ...rest } = verifyParams(chain, hex);
      const userAddress = chain.userAddress as string;
      const feature = {
        version: "1.0.0",
        supportedTransactionVersions: ["legacy", 0] as const,
        signTransaction: answer,
      };
      return signCosignTransactionWithWalletStandard({
        ...rest,
        signal,
        wallet: { accounts: [], features: { "solana:signTransaction": feature } },
        account: standardAccount(userAddress),
      });
    },
  ],
];

describe("a wallet promise that never settles is abandoned with signal, on every path", () => {
  it.each(paths)("%s", async (_name, sign) => {
    const controller = new AbortController();
    const wallet = neverAnswering();
    const pending = sign(controller.signal, wallet.answer);
    await wallet.wasAsked;
    const reason = new Error("the user closed the dialog");
    controller.abort(reason);
    const error = await pending.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isSolanaCosignError(error, "SOL_SIGNING_ABORTED")).toBe(true);
    expect(error).toMatchObject({ details: { stage: "whileSigning" }, cause: reason });
  });
});
