/**
 * Test support: the four wallet paths of this package (web3.js `signCosignTransaction` with an external
 * `signMessage` signer and with a wallet adapter, Kit `signCosignTransactionWithKit`, wallet-standard
 * `signCosignTransactionWithWalletStandard`), each with a spy signer,
 * so one table of tampered transactions runs through every path and shows the signer was never asked.
 */
import { address, getAddressEncoder } from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import { isSwapIntentError } from "@swapintent/client";
import { vi } from "vitest";
import { signCosignTransaction } from "../src/signCosignTransaction.js";
import { signCosignTransactionWithKit } from "../src/signCosignTransactionWithKit.js";
import { signCosignTransactionWithWalletStandard } from "../src/signCosignTransactionWithWalletStandard.js";
import type { VerifyCosignTransactionParameters } from "../src/verifyCosignTransaction.js";

/** The wallet paths: `web3` (an external `signMessage` signer), `adapter` (a web3.js wallet adapter), `kit`, `walletStandard`. */
export type Path = "web3" | "adapter" | "kit" | "walletStandard";

/** What one path did: the code it refused with (undefined when it signed) and how often its signer was asked. */
export interface PathOutcome {
  code: string | undefined;
  signerCalls: number;
}

async function outcome(run: () => Promise<unknown>, calls: () => number): Promise<PathOutcome> {
  let code: string | undefined;
  try {
    await run();
  } catch (error) {
    code = isSwapIntentError(error) ? error.code : `not a SwapIntentError: ${String(error)}`;
  }
  return { code, signerCalls: calls() };
}

/** The user address of `parameters` as base58 text (given as text or a `PublicKey`). */
function userOf(parameters: VerifyCosignTransactionParameters): string {
  const user = parameters.userAddress;
  return typeof user === "string" ? user : user.toBase58();
}

/** A wallet-standard account for `user` (its public key the decoded address). */
export function standardAccount(user: string) {
  return {
    address: user,
    publicKey: new Uint8Array(getAddressEncoder().encode(address(user))),
    chains: ["solana:localnet"] as const,
    features: ["solana:signTransaction"] as const,
  };
}

/** Run `parameters` through every signing path with a spy signer for its user; one outcome per path. */
export async function everyPathRefusal(
  parameters: VerifyCosignTransactionParameters,
): Promise<Record<Path, PathOutcome>> {
  const { userAddress: _user, ...rest } = parameters;
  const user = userOf(parameters);
  const signMessage = vi.fn(async (_message: Uint8Array) => new Uint8Array(64));
  const signTransactions = vi.fn(async () => [{}]);
  const adapterSignTransaction = vi.fn(async (tx: unknown) => tx);
  const signTransaction = vi.fn(async () => [{ signedTransaction: new Uint8Array(0) }]);
  const wallet = {
    accounts: [],
    features: {
      "solana:signTransaction": {
        version: "1.0.0",
        supportedTransactionVersions: ["legacy", 0] as const,
        signTransaction,
      },
    },
  };
  return {
    web3: await outcome(
      () => signCosignTransaction({ ...rest, signer: { publicKey: user, signMessage } }),
      () => signMessage.mock.calls.length,
    ),
    adapter: await outcome(
      () =>
        signCosignTransaction({
          ...rest,
          signer: { publicKey: new PublicKey(user), signTransaction: adapterSignTransaction as never },
        }),
      () => adapterSignTransaction.mock.calls.length,
    ),
    kit: await outcome(
      () => signCosignTransactionWithKit({ ...rest, signer: { address: user, signTransactions } }),
      () => signTransactions.mock.calls.length,
    ),
    walletStandard: await outcome(
      () => signCosignTransactionWithWalletStandard({ ...rest, wallet, account: standardAccount(user) }),
      () => signTransaction.mock.calls.length,
    ),
  };
}

/** The outcome every path must have for a refused transaction: `code`, the signer never asked. */
export function refusedEverywhere(code: string): Record<Path, PathOutcome> {
  const refused = { code, signerCalls: 0 };
  return { web3: refused, adapter: refused, kit: refused, walletStandard: refused };
}
