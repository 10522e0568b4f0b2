import type { HexString } from "@swapintent/client";
import { recoverAddress } from "viem";
import { anyAddressTo20, detectChainKind } from "../address/addresses.js";
import type {
  Permit2ContractSignatureErrorCode,
  Permit2Error,
  Permit2SigningErrorCode,
  Permit2VerifyErrorCode,
} from "../errors.js";
import { createPermit2Error } from "../internal/fail.js";
import {
  type SignedPermit2Approval,
  type VerifiedSigning,
  verifyThenSign,
} from "../internal/signVerified.js";
import { snapshotInput } from "../internal/snapshotInput.js";
import type {
  Permit2Domain,
  Permit2Message,
  Permit2TypedData,
  VerifyPermit2ApprovalParameters,
  VerifyPermit2ApprovalReturnType,
} from "../types.js";
import { assertContractSignature, type Permit2ChainReader } from "./assertContractSignature.js";
import {
  assertProviderChain,
  assertWalletChainId,
  type Permit2Eip1193Provider,
  readProviderAccount,
  requestTypedDataSignature,
} from "./eip1193.js";

/**
 * {@link Permit2TypedData} as an EVM signer gets it, in the shape viem's `signTypedData` takes: the Permit2 contract
 * as `0x` hex, the message a record.
 */
export interface Permit2EvmTypedData extends Permit2TypedData {
  domain: Permit2Domain & { verifyingContract: HexString };
  message: Permit2Message & Readonly<Record<string, unknown>>;
}

/**
 * Anything that can sign EIP-712 typed data for one address: a viem local account (`privateKeyToAccount`,
 * `mnemonicToAccount`), or a custom signer such as a hardware-wallet adapter that only has `signTypedData`.
 * Typed by shape, so an account of any viem 2.x copy fits (the app's own, a second version beside the one this
 * package resolves).
 */
export interface Permit2EvmSigner {
  address: HexString;
  /** Signs the verified EIP-712 typed data as `address` and returns the signature (hex). */
  signTypedData(typedData: Permit2EvmTypedData): Promise<HexString | string>;
  /**
   * A viem account backed by a key in this process (`type: "local"`, `source` `privateKey` or `hd`) signs the
   * verified digest with this instead of `signTypedData`.
   */
  sign?: ((parameters: { hash: HexString }) => Promise<HexString>) | undefined;
}

/**
 * What signing uses of a viem `WalletClient`, by shape: a client of any viem 2.x copy fits (wagmi's
 * `getWalletClient(config)`, `createWalletClient(...)` of the app's own viem, even another version than the one
 * this package resolves).
 */
export interface Permit2WalletClient {
  /** The account attached to the client, if any. */
  account?: { address: HexString } | undefined;
  /** The client's EIP-1193 request function: asked `eth_chainId` (the raw answer) before signing. */
  request(...parameters: never[]): Promise<unknown>;
  /** Tells a client from an account (the chain itself is read with `request({ method: "eth_chainId" })`). */
  getChainId(): Promise<number>;
  /** The wallet's accounts: the first signs when neither `account` nor an attached account is given. */
  getAddresses(): Promise<readonly HexString[]>;
  /** Called with `account` set: the address given, or the client's own account object when one is attached. */
  signTypedData(parameters: Permit2EvmTypedData & { account: HexString }): Promise<HexString>;
}

/**
 * Parameters of {@link signPermit2Approval}: the verification parameters plus who signs, either a `signer` (a viem
 * account, a custom signer or a viem `WalletClient`) or a bare EIP-1193 `provider` (`window.ethereum`).
 */
export type SignPermit2ApprovalParameters = VerifyPermit2ApprovalParameters & {
  /**
   * Reads the chain when the owner is a contract (a smart account): a viem `PublicClient` on the permit's chain,
   * or any EIP-1193 reader. When the signature does not ECDSA-recover to the owner, its ERC-1271
   * `isValidSignature` (after the ERC-6492 factory call for an account not deployed yet) is asked what Permit2
   * will ask. Without it every signature must ECDSA-recover to the owner, as before (a browser wallet may pass its
   * own `provider` here too). A key-held account (`privateKeyToAccount`) never reads the chain, even with it.
   */
  publicClient?: Permit2ChainReader | undefined;
  /**
   * The wallet knows the owner is a contract (a smart account): its signature is checked against the chain only
   * (ERC-1271 / ERC-6492), never as an ECDSA signature; `publicClient` is then required.
   */
  contractOwner?: boolean | undefined;
  /**
   * Stops waiting for the wallet: when it aborts, signing rejects at once with `PERMIT2_SIGNING_ABORTED` (`cause`:
   * `signal.reason`) and never returns an approval, even if the wallet answers later. An already aborted signal is
   * refused before any wallet or key is asked. For a per-call wallet timeout pass `AbortSignal.timeout(ms)` (or
   * `AbortSignal.any([userCancel, AbortSignal.timeout(ms)])`).
   */
  signal?: AbortSignal | undefined;
} & (
    | {
        /**
         * A viem `LocalAccount`, a custom {@link Permit2EvmSigner}, or a viem `WalletClient` (for example wagmi's
         * `getWalletClient(config)`, or `createWalletClient({ transport: custom(window.ethereum) })`).
         */
        signer: Permit2EvmSigner | Permit2WalletClient;
        /** With a `WalletClient` that has no account attached: the address to sign with. */
        account?: HexString | undefined;
        provider?: undefined;
      }
    | {
        /** A bare EIP-1193 provider: asked for `eth_accounts`, `eth_chainId` and `eth_signTypedData_v4`, in that order. */
        provider: Permit2Eip1193Provider;
        /** The address to sign with; default: the provider's first `eth_accounts` entry. */
        account?: HexString | undefined;
        signer?: undefined;
      }
  );

/** What {@link signPermit2Approval} returns. */
export interface SignPermit2ApprovalReturnType extends SignedPermit2Approval<HexString> {}

/** The error {@link signPermit2Approval} throws: any verification code, or a signing one. */
export type SignPermit2ApprovalErrorType = Permit2Error<
  | Permit2VerifyErrorCode
  | Permit2SigningErrorCode
  | Permit2ContractSignatureErrorCode
  | "PERMIT2_WALLET_RESPONSE_INVALID"
>;

/**
 * Verifies a `permit2` intent against the quote and the wallet's state (see `verifyPermit2Approval`; there is no
 * way to skip it), then signs the Permit2 `PermitWitnessTransferFrom` typed data on an EVM chain and RECOVERS the
 * signer's address from the signature over the verified digest, whatever signed: a wallet that signs with another
 * account, or other data, is refused before anything is submitted. With a wallet client or a provider, the wallet's
 * chain is checked against the verified domain before it is asked to sign.
 *
 * @throws `Permit2Error`: any verification code, `PERMIT2_OWNER_MISMATCH` (signer is not `expected.owner`),
 * `PERMIT2_CHAIN_ID_MISMATCH` (a wallet on another chain), `PERMIT2_WALLET_RESPONSE_INVALID` (a provider's malformed
 * `eth_chainId` or empty `eth_accounts`), `PERMIT2_SIGNING_FAILED` (the wallet refused or failed, original error as
 * `cause`), `PERMIT2_SIGNATURE_INVALID` (malformed or high-`s` signature), `PERMIT2_SIGNER_MISMATCH` (it recovers
 * to another address), `PERMIT2_SIGNING_ABORTED` (`signal` aborted; see `signal`); for a contract owner
 * (`publicClient`), `PERMIT2_CONTRACT_SIGNATURE_INVALID` (its `isValidSignature` refuses the permit's digest, or
 * accepts an unrelated hash too), `PERMIT2_CONTRACT_DEPLOYMENT_MISMATCH` (an ERC-6492 factory call that does not
 * deploy the owner), `PERMIT2_CONTRACT_CHECK_FAILED` (the chain could not be read), `PERMIT2_CHAIN_ID_MISMATCH`
 * (the reader is on another chain).
 *
 * @example
 * ```ts
 * import { signPermit2Approval } from "@swapintent/permit2/evm";
 * import { createPublicClient, http } from "viem";
 * import { privateKeyToAccount } from "viem/accounts";
 * import { mainnet } from "viem/chains";
 *
 * const { approval, verified } = await signPermit2Approval({
 *   intent,
 *   quote,
 *   expected: { chainId: 1, recipient, spender: escrowFromWalletConfig, destination },
 *   allowedPermit2Addresses: [], // the canonical Permit2 needs no entry
 *   signer: privateKeyToAccount(privateKey), // or a WalletClient, or { address, signTypedData }
 *   // or, with no viem client: provider: window.ethereum
 * });
 * await client.submitApproval({ intentId: intent.intentId, approval });
 *
 * // A smart account (ERC-1271, or ERC-6492 before it is deployed): its wallet signs, a reader of the permit's
 * // chain checks the signature the way Permit2 will.
 * const smart = await signPermit2Approval({
 *   intent,
 *   quote,
 *   expected: { chainId: 1, recipient, spender: escrowFromWalletConfig, destination },
 *   allowedPermit2Addresses: [],
 *   signer: walletClient,
 *   publicClient: createPublicClient({ chain: mainnet, transport: http() }),
 * });
 * await client.submitApproval({ intentId: intent.intentId, approval: smart.approval });
 * ```
 */
export async function signPermit2Approval(
  parameters: SignPermit2ApprovalParameters,
): Promise<SignPermit2ApprovalReturnType> {
  // Each key read once, before anything runs: the wallet's objects as given, the rest a plain-data copy (an
  // accessor or proxy that throws is PERMIT2_PARAMS_INVALID, not its own error).
  const { signer, provider, account, signal, publicClient, contractOwner, ...verifyParameters } = Object(
    snapshotInput(parameters, WALLET_KEYS),
  ) as SignPermit2ApprovalParameters;
  assertSigningOptions({ account, publicClient, contractOwner });
  return verifyThenSign<HexString>({
    parameters: verifyParameters,
    signal,
    family: "evm",
    recoverAddress,
    copiesVerified: true,
    signing: async (original) => {
      // Decided once: a key held in this process signs the digest alone (an immutable string) and needs no copy;
      // every other wallet gets its own deep copy of the verified permit.
      // The signer's shape is read once: an account whose `type` answers differently the next time cannot sign as a
      // key and then have its answer judged as a contract's.
      const localKey = provider === undefined && isLocalKeyAccount(signer);
      const keyHeld = localKey && !isWalletClient(signer);
      const verified = keyHeld ? original : structuredClone(original);
      const signing = await chooseSigning({ signer, provider, account, verified, keyHeld });
      // The account the caller named signs, whatever the signer: an account or custom signer of another address is
      // refused before it is asked.
      if (
        account !== undefined &&
        typeof signing.owner === "string" &&
        anyAddressTo20(signing.owner) !== anyAddressTo20(account)
      )
        throw createPermit2Error("PERMIT2_OWNER_MISMATCH", "The signing account is not the expected owner.", {
          expected: account,
          actual: signing.owner,
        });
      // An in-process key signs exactly the digest we verified (no second typed-data hashing), and never reads a chain.
      const reader = localKey ? undefined : publicClient;
      if (reader === undefined) return signing;
      const chainId = verified.typedData.domain.chainId;
      return {
        ...signing,
        contractSignature: {
          asserted: contractOwner === true,
          check: (input) =>
            assertContractSignature({ ...input, reader, chainId, contractAsserted: contractOwner === true }),
        },
      };
    },
  });
}

const WALLET_KEYS = ["signer", "provider", "account", "signal", "publicClient", "contractOwner"] as const;

/**
 * The caller's signing options, checked before anything is verified or any wallet asked (`PERMIT2_EXPECTED_INVALID`):
 * `account` an EVM address, `contractOwner` a boolean (true only with a `publicClient`), `publicClient` a reader
 * with a `request` function.
 */
function assertSigningOptions(input: {
  account: unknown;
  publicClient: unknown;
  contractOwner: unknown;
}): void {
  const { account, publicClient, contractOwner } = input;
  const field =
    account !== undefined && detectChainKind(account) !== "evm"
      ? "account"
      : ![undefined, true, false].includes(contractOwner as boolean)
        ? "contractOwner"
        : (publicClient === undefined
            ? contractOwner === true
            : typeof (Object(publicClient) as Partial<Permit2ChainReader>).request !== "function") &&
          "publicClient";
  if (field)
    throw createPermit2Error("PERMIT2_EXPECTED_INVALID", `${field} is not valid.`, {
      field,
    });
}

/** How the given wallet signs the verified permit. */
function chooseSigning(input: {
  signer: SignPermit2ApprovalParameters["signer"];
  provider: Permit2Eip1193Provider | undefined;
  account: HexString | undefined;
  verified: VerifyPermit2ApprovalReturnType;
  /** `signer` is a key held in this process (neither a provider nor a wallet client), read once by the caller. */
  keyHeld: boolean;
}): Promise<VerifiedSigning> | VerifiedSigning {
  const { signer, provider, account, verified, keyHeld } = input;
  if (provider !== undefined) return providerSigning(provider, account, verified);
  if (keyHeld) {
    const key = signer as Permit2EvmSigner & {
      sign: (parameters: { hash: HexString }) => Promise<HexString>;
    };
    return { owner: key.address, sign: () => key.sign({ hash: verified.digest }) };
  }
  if (isWalletClient(signer)) return walletClientSigning(signer, account, verified);
  const custom = signer as Permit2EvmSigner;
  // on EVM the verified domain's verifyingContract is 0x hex (verifyPermit2Approval checked the address)
  return {
    owner: custom.address,
    sign: () => custom.signTypedData(verified.typedData as Permit2EvmTypedData),
  };
}

function isWalletClient(signer: SignPermit2ApprovalParameters["signer"]): signer is Permit2WalletClient {
  return (
    typeof (signer as Permit2WalletClient).request === "function" &&
    typeof (signer as Permit2WalletClient).getChainId === "function"
  );
}

/** A viem local account backed by a key in this process (`privateKeyToAccount`, `mnemonicToAccount`, `hdKeyToAccount`). */
function isLocalKeyAccount(
  signer: SignPermit2ApprovalParameters["signer"],
): signer is Permit2EvmSigner & { sign: (parameters: { hash: HexString }) => Promise<HexString> } {
  const candidate = signer as { type?: unknown; sign?: unknown; source?: unknown };
  return (
    candidate.type === "local" &&
    typeof candidate.sign === "function" &&
    ["privateKey", "hd"].includes(candidate.source as string)
  );
}

/** A bare EIP-1193 provider: its account, its chain (before asking), then `eth_signTypedData_v4`. */
async function providerSigning(
  provider: Permit2Eip1193Provider,
  account: HexString | undefined,
  verified: VerifyPermit2ApprovalReturnType,
): Promise<VerifiedSigning> {
  const owner = await readProviderAccount(provider, account);
  return {
    owner,
    beforeSigning: () => assertProviderChain(provider, verified.typedData.domain.chainId),
    sign: () => requestTypedDataSignature(provider, owner as string, verified.typedData),
  };
}

/**
 * A viem wallet client: the account that signs is the one whose address is checked (the `account` parameter first,
 * then the attached account, then the wallet's first address), read once, so another account is never asked.
 */
async function walletClientSigning(
  walletClient: Permit2WalletClient,
  account: HexString | undefined,
  verified: VerifyPermit2ApprovalReturnType,
): Promise<VerifiedSigning> {
  const signingAccount = account ?? walletClient.account ?? (await firstAddress(walletClient));
  const typedData = verified.typedData;
  return {
    owner: typeof signingAccount === "string" ? signingAccount : signingAccount?.address,
    // The raw eth_chainId answer, read by the same rule as a bare provider's (viem's getChainId would turn a
    // decimal "1337001" into a number).
    beforeSigning: async () =>
      assertWalletChainId(
        await (walletClient.request as (arguments_: { method: "eth_chainId" }) => Promise<unknown>)({
          method: "eth_chainId",
        }),
        typedData.domain.chainId,
      ),
    sign: () =>
      walletClient.signTypedData({
        // the client's own account object when one is attached (viem signs locally with a local one), else the
        // address: typed as the address, which every viem signTypedData takes
        account: signingAccount as HexString,
        ...(typedData as Permit2EvmTypedData),
      }),
  };
}

async function firstAddress(walletClient: Permit2WalletClient): Promise<string | undefined> {
  try {
    return (await walletClient.getAddresses())[0];
  } catch (cause) {
    throw createPermit2Error(
      "PERMIT2_SIGNING_FAILED",
      "The wallet did not share an address.",
      { step: "accounts" },
      cause,
    );
  }
}
