import type { Approval, Hex } from "@swapintent/client";
import { type LocalAccount, recoverAddress, type TypedDataDefinition, type WalletClient } from "viem";
import type { Permit2Error } from "../errors.js";
import { anyAddressTo20 } from "../internal/addresses.js";
import { assertSignedByOwner } from "../internal/assertSignedByOwner.js";
import { createPermit2Error } from "../internal/fail.js";
import { normalizeSignature } from "../normalizeSignature.js";
import type {
  Permit2TypedData,
  VerifyPermit2ApprovalParameters,
  VerifyPermit2ApprovalReturnType,
} from "../types.js";
import { verifyPermit2Approval } from "../verifyPermit2Approval.js";

/**
 * Anything that can sign EIP-712 typed data for one address: a viem local account (`privateKeyToAccount`,
 * `mnemonicToAccount`), or a custom signer such as a hardware-wallet adapter that only has `signTypedData`.
 */
export interface Permit2EvmSigner {
  address: Hex;
  signTypedData: (typedData: Permit2TypedData) => Promise<Hex | string>;
}

/** Parameters of {@link signPermit2Approval}: the verification parameters plus who signs. */
export interface SignPermit2ApprovalParameters extends VerifyPermit2ApprovalParameters {
  /**
   * A viem `LocalAccount`, a custom {@link Permit2EvmSigner}, or a viem `WalletClient` (for example over an
   * injected EIP-1193 wallet, `createWalletClient({ transport: custom(window.ethereum) })`).
   */
  signer: Permit2EvmSigner | LocalAccount | WalletClient;
  /** With a `WalletClient` that has no account attached: the address to sign with. */
  account?: Hex | undefined;
}

/** What {@link signPermit2Approval} returns. */
export interface SignPermit2ApprovalReturnType {
  /** 65-byte `r ‖ s ‖ v` signature, v = 27/28. */
  signature: Hex;
  /** The body to submit with the client's approval call. */
  approval: Extract<Approval, { type: "permit2" }>;
  /** The address that signed (the Permit2 `owner`). */
  owner: Hex;
  /** What was verified and signed, with the summary shown to the user. */
  verified: VerifyPermit2ApprovalReturnType;
}

/** The error {@link signPermit2Approval} throws: any verification code, or a signing one. */
export type SignPermit2ApprovalErrorType = Permit2Error;

function isWalletClient(signer: SignPermit2ApprovalParameters["signer"]): signer is WalletClient {
  return (
    typeof (signer as WalletClient).request === "function" &&
    typeof (signer as WalletClient).getChainId === "function"
  );
}

/**
 * Verifies a `permit2` intent against the quote and the wallet's state (see `verifyPermit2Approval`; there is no
 * way to skip it), then signs the Permit2 `PermitWitnessTransferFrom` typed data on an EVM chain and checks that
 * the returned signature recovers to the signing address.
 *
 * @throws `Permit2Error`: any verification code, `PERMIT2_OWNER_MISMATCH` (signer is not
 * `expected.owner`), `PERMIT2_CHAIN_ID_MISMATCH` (a wallet client on another chain), `PERMIT2_SIGNING_FAILED`
 * (the wallet refused or failed, original error as `cause`), `PERMIT2_SIGNATURE_INVALID`.
 *
 * @example
 * ```ts
 * import { signPermit2Approval } from "@swapintent/permit2/evm";
 * import { privateKeyToAccount } from "viem/accounts";
 *
 * const { approval, verified } = await signPermit2Approval({
 *   intent,
 *   quote,
 *   expected: { chainId: 1, recipient, spender: escrowFromWalletConfig, destination },
 *   allowedPermit2Addresses: [], // the canonical Permit2 needs no entry
 *   signer: privateKeyToAccount(privateKey), // or a WalletClient, or { address, signTypedData }
 * });
 * await client.submitApproval({ intentId: intent.intentId, approval });
 * ```
 */
export async function signPermit2Approval(
  parameters: SignPermit2ApprovalParameters,
): Promise<SignPermit2ApprovalReturnType> {
  const { signer, account, ...verifyParameters } = parameters;
  const verified = verifyPermit2Approval({
    ...verifyParameters,
    expected: { ...verifyParameters.expected, chainType: "evm" },
  });

  const walletClient = isWalletClient(signer) ? signer : null;
  // With a wallet client: the account that signs is the one whose address is checked (the `account` parameter
  // first, then the attached account), read once, so the key of another account is never asked to sign.
  const signingAccount = walletClient
    ? (account ?? walletClient.account ?? (await firstAddress(walletClient)))
    : undefined;
  const ownerAddress: string | undefined = walletClient
    ? typeof signingAccount === "string"
      ? signingAccount
      : signingAccount?.address
    : (signer as Permit2EvmSigner).address;
  const owner20 = typeof ownerAddress === "string" ? anyAddressTo20(ownerAddress) : null;
  if (owner20 === null)
    throw createPermit2Error("PERMIT2_OWNER_MISMATCH", "The signer has no valid EVM address.", {
      actual: ownerAddress,
    });
  // The owner the summary shows ("Signed by …"), as verification read it: one read, one value.
  const expectedOwner = verified.summary.owner;
  if (expectedOwner !== null && anyAddressTo20(expectedOwner) !== owner20)
    throw createPermit2Error("PERMIT2_OWNER_MISMATCH", "The signing account is not the expected owner.", {
      expected: expectedOwner,
      actual: ownerAddress,
    });

  const typedData = verified.typedData;
  let raw: unknown;
  if (walletClient) {
    const walletChainId = await walletClient.getChainId();
    if (BigInt(walletChainId) !== BigInt(typedData.domain.chainId))
      throw createPermit2Error("PERMIT2_CHAIN_ID_MISMATCH", "The wallet is connected to another chain.", {
        expected: typedData.domain.chainId,
        actual: walletChainId,
      });
    raw = await callSigner(() =>
      walletClient.signTypedData({
        account: signingAccount as NonNullable<WalletClient["account"]> | Hex,
        ...(typedData as unknown as TypedDataDefinition),
      }),
    );
  } else if (isLocalKeyAccount(signer)) {
    // An in-process key: sign exactly the digest we verified (no second typed-data hashing). The signature
    // is over our digest by construction, so the recovery check below is skipped (it costs ~5x a signature).
    const signed = await callSigner(() => signer.sign({ hash: verified.digest }));
    const signature = normalizeSignature({ signature: signed as string });
    return {
      signature,
      approval: { type: "permit2", signedData: signature },
      owner: ownerAddress as Hex,
      verified,
    };
  } else {
    raw = await callSigner(() => (signer as Permit2EvmSigner).signTypedData(typedData));
  }
  // A wallet or custom signer hashed the typed data itself: check it signed what we verified, as the owner.
  const signature = await assertSignedByOwner({
    signature: raw,
    digest: verified.digest,
    owner20,
    recoverAddress,
  });
  return {
    signature,
    approval: { type: "permit2", signedData: signature },
    owner: ownerAddress as Hex,
    verified,
  };
}

/** A viem local account backed by a key in this process (`privateKeyToAccount`, `mnemonicToAccount`, `hdKeyToAccount`). */
function isLocalKeyAccount(
  signer: SignPermit2ApprovalParameters["signer"],
): signer is LocalAccount & { sign: NonNullable<LocalAccount["sign"]> } {
  const candidate = signer as Partial<LocalAccount>;
  return (
    candidate.type === "local" &&
    typeof candidate.sign === "function" &&
    ["privateKey", "hd"].includes(candidate.source as string)
  );
}

async function firstAddress(walletClient: WalletClient): Promise<string | undefined> {
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

async function callSigner(sign: () => Promise<unknown>): Promise<unknown> {
  try {
    return await sign();
  } catch (cause) {
    throw createPermit2Error(
      "PERMIT2_SIGNING_FAILED",
      "The wallet refused or failed to sign the permit.",
      { step: "sign" },
      cause,
    );
  }
}
