import { type SolanaCosignError, solanaError } from "./errors.js";
import { type ParsedAddress, parseSignerAddress } from "./internal/address.js";
import { type CosignResult, checkReturnedTransaction, readAnswer, readSigner } from "./internal/cosign.js";
import { bytesEqual, ownBytes } from "./internal/hex.js";
import { signWithAdapter } from "./internal/signWithAdapter.js";
import type { ReadonlyBytes } from "./signCosignTransactionWithKit.js";
import type { VerifyCosignTransactionParameters } from "./verifyCosignTransaction.js";

/** The wallet-standard feature name of Solana transaction signing. */
export const SOLANA_SIGN_TRANSACTION_FEATURE = "solana:signTransaction";

/** A wallet-standard account (`WalletAccount` of `@wallet-standard/base`): the fields this package reads. */
export interface WalletStandardAccount {
  /** Base58 address of the account. */
  readonly address: string;
  /** The account's 32-byte public key (at run time a `Uint8Array`). */
  readonly publicKey: ReadonlyBytes;
  /** Chains the account supports, e.g. `solana:mainnet`. */
  readonly chains: readonly string[];
  /** Features the account supports. */
  readonly features: readonly string[];
}

/** One input of `solana:signTransaction` (`SolanaSignTransactionInput` of `@solana/wallet-standard-features`). */
export interface WalletStandardSignTransactionInput {
  readonly account: WalletStandardAccount;
  /** The serialized transaction, wire format. */
  readonly transaction: Uint8Array;
  /** The chain to sign for, e.g. `solana:devnet`. */
  readonly chain?: string;
}

/** One output of `solana:signTransaction`: the signed transaction, wire format. */
export interface WalletStandardSignTransactionOutput {
  readonly signedTransaction: Uint8Array;
}

/** The `solana:signTransaction` feature of a wallet-standard wallet (`SolanaSignTransactionFeature`'s value). */
export interface WalletStandardSignTransactionFeature {
  readonly version: string;
  /** Transaction versions the wallet signs (`"legacy"`, `0`, …); this package sends legacy and v0 only. */
  readonly supportedTransactionVersions: readonly ("legacy" | number)[];
  /** Signs each input's serialized transaction with its account and returns the signed transactions, in order. */
  signTransaction(
    ...inputs: readonly WalletStandardSignTransactionInput[]
  ): Promise<readonly WalletStandardSignTransactionOutput[]>;
}

/** A wallet-standard wallet (`Wallet` of `@wallet-standard/base`): its features are looked up by name. */
export interface WalletStandardWallet {
  /** The wallet's authorized accounts (set once `standard:connect` succeeded). */
  readonly accounts: readonly WalletStandardAccount[];
  readonly features: Readonly<Record<string, unknown>>;
}

/** Parameters of {@link signCosignTransactionWithWalletStandard}: everything {@link verifyCosignTransaction} takes, plus the wallet and its account. */
export interface SignCosignTransactionWithWalletStandardParameters
  extends Omit<VerifyCosignTransactionParameters, "userAddress"> {
  /** The wallet (from `getWallets().get()` of `@wallet-standard/app`); it must have `solana:signTransaction`. */
  wallet: WalletStandardWallet;
  /** The connected account that signs (from `standard:connect`); its address is the user address that is verified. */
  account: WalletStandardAccount;
  /** The chain passed to the wallet, e.g. `solana:mainnet`; when given, the account must list it. */
  chain?: `solana:${string}` | undefined;
  /**
   * Stops waiting for the wallet: when it aborts, signing rejects at once with `SOL_SIGNING_ABORTED` (`cause`:
   * `signal.reason`) and never returns an approval, even if the wallet answers later. An already aborted signal is
   * refused before any wallet or key is touched. A per-call timeout is `AbortSignal.timeout(ms)`.
   */
  signal?: AbortSignal | undefined;
}

/** The signed transaction and the approval body to submit. */
export interface SignCosignTransactionWithWalletStandardReturnType extends CosignResult {}

/** The error {@link signCosignTransactionWithWalletStandard} rejects with: a `SwapIntentError` whose code is a `SolanaCosignErrorCode`. */
export type SignCosignTransactionWithWalletStandardErrorType = SolanaCosignError;

const SOURCE = "wallet-standard wallet";

/**
 * Verify the intent's cosign transaction (the same checks as {@link verifyCosignTransaction}, over the bytes) and
 * have a wallet-standard wallet sign it through its `solana:signTransaction` feature. The wallet is asked only
 * after every check passed. What it returns is parsed again and refused unless only the user's signature changed:
 * other message bytes (`SOL_WALLET_MESSAGE_CHANGED`), another signer's slot (`SOL_WALLET_SIGNATURES_CHANGED`), a
 * missing or invalid user signature (`SOL_SIGNATURE_INVALID`, ed25519 checked here), an answer of another shape or
 * bytes that are not a transaction (`SOL_WALLET_RESPONSE_INVALID`); a wallet that refuses or fails is
 * `SOL_SIGNING_FAILED` (`cause`: what it threw). `signal` aborts a wait on the wallet
 * (`SOL_SIGNING_ABORTED`).
 *
 * @example
 * ```ts
 * import { getWallets } from "@wallet-standard/app";
 * import { signCosignTransactionWithWalletStandard } from "@swapintent/solana/kit";
 *
 * const wallet = getWallets().get().find((w) => "solana:signTransaction" in w.features)!;
 * const account = wallet.accounts[0]!; // after standard:connect
 * const { approval } = await signCosignTransactionWithWalletStandard({
 *   intent,
 *   quote,
 *   escrow: { owner: escrowOwner },
 *   wallet,
 *   account,
 *   chain: "solana:mainnet",
 * });
 * ```
 */
export async function signCosignTransactionWithWalletStandard(
  parameters: SignCosignTransactionWithWalletStandardParameters,
): Promise<SignCosignTransactionWithWalletStandardReturnType> {
  return signWithAdapter(parameters, ["wallet", "account", "chain"], (fields) => {
    const account = fields.account as WalletStandardAccount;
    const chain = fields.chain as string | undefined;
    const feature = readSigner("wallet", () =>
      signTransactionFeatureOf(fields.wallet as WalletStandardWallet),
    );
    const user = readSigner("wallet account", () => accountAddress(account, chain));
    return {
      kind: "ask",
      address: user.address,
      source: SOURCE,
      prepare: (verified) => checkVersion(feature, verified.decoded.version, user.address),
      ask: (verified) =>
        feature.signTransaction({
          account,
          transaction: verified.decoded.bytes.slice(),
          ...(chain === undefined ? {} : { chain }),
        }),
      read: (outputs, verified) => {
        const read = readAnswer(SOURCE, "the outputs", () => signedTransactionOf(outputs));
        if (read === undefined) {
          throw solanaError(
            "SOL_WALLET_RESPONSE_INVALID",
            "The wallet did not return one signed transaction.",
            {
              source: SOURCE,
              reason: "not one output per input",
            },
          );
        }
        return checkReturnedTransaction(read.value, verified, SOURCE);
      },
    };
  });
}

/** The wallet signs the transaction's version (legacy or v0), as its feature declares. */
function checkVersion(
  feature: WalletStandardSignTransactionFeature,
  version: number | "legacy",
  address: string,
) {
  const unsupported = readSigner("wallet", () => {
    const versions: unknown = feature.supportedTransactionVersions;
    return Array.isArray(versions) && !versions.includes(version);
  });
  if (unsupported) {
    throw solanaError("SOL_SIGNER_INVALID", "The wallet does not sign this transaction version.", {
      reason: `wallet does not sign ${version === 0 ? "v0" : "legacy"} transactions`,
      address,
    });
  }
}

/** The `signedTransaction` of the one output a wallet returned, or undefined when the answer has another shape. */
function signedTransactionOf(outputs: unknown): { value: unknown } | undefined {
  if (!Array.isArray(outputs) || outputs.length !== 1) return undefined;
  const output: unknown = outputs[0];
  if (typeof output !== "object" || output === null) return undefined;
  return { value: (output as { signedTransaction?: unknown }).signedTransaction };
}

function signTransactionFeatureOf(
  wallet: WalletStandardWallet | undefined,
): WalletStandardSignTransactionFeature {
  const feature: unknown =
    typeof wallet === "object" &&
    wallet !== null &&
    typeof wallet.features === "object" &&
    wallet.features !== null
      ? wallet.features[SOLANA_SIGN_TRANSACTION_FEATURE]
      : undefined;
  if (
    typeof feature !== "object" ||
    feature === null ||
    typeof (feature as { signTransaction?: unknown }).signTransaction !== "function"
  ) {
    throw solanaError("SOL_SIGNER_INVALID", "The wallet has no solana:signTransaction feature.", {
      reason: "wallet lacks solana:signTransaction",
    });
  }
  return feature as WalletStandardSignTransactionFeature;
}

/** The account's address, checked: base58 of 32 bytes, equal to its public key, on the chain asked for. */
function accountAddress(
  account: WalletStandardAccount | undefined,
  chain: string | undefined,
): ParsedAddress {
  const user = parseSignerAddress(account?.address, "account.address");
  const publicKey = ownBytes(account?.publicKey);
  if (publicKey === undefined || !bytesEqual(publicKey, user.bytes)) {
    throw solanaError("SOL_SIGNER_INVALID", "The wallet account's public key is not its address.", {
      reason: "account publicKey differs from its address",
      address: user.address,
    });
  }
  const chains: unknown = account?.chains;
  if (chain !== undefined && Array.isArray(chains) && !chains.includes(chain)) {
    throw solanaError("SOL_SIGNER_INVALID", "The wallet account does not support the chain asked for.", {
      reason: `account does not list ${chain}`,
      address: user.address,
    });
  }
  return user;
}
