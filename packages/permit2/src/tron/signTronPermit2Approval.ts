import type { Approval, Hex } from "@swapintent/client";
import * as Address from "ox/Address";
import * as Secp256k1 from "ox/Secp256k1";
import * as Signature from "ox/Signature";
import { isPermit2Error, type Permit2Error } from "../errors.js";
import { formatTronAddress } from "../formatTronAddress.js";
import { anyAddressTo20 } from "../internal/addresses.js";
import { assertSignedByOwner } from "../internal/assertSignedByOwner.js";
import { createPermit2Error } from "../internal/fail.js";
import type {
  Permit2TypedData,
  VerifyPermit2ApprovalParameters,
  VerifyPermit2ApprovalReturnType,
} from "../types.js";
import { verifyPermit2Approval } from "../verifyPermit2Approval.js";

/**
 * A TronLink-style signer: the wallet's base58 address and a `signTypedData(typedData)` that takes one object
 * (for TronLink: `({ domain, types, message }) => window.tronWeb.trx._signTypedData(domain, types, message)`).
 */
export interface TronTypedDataSigner {
  /** The signer's base58 address (`T…`). */
  address: string;
  /** Signs the TIP-712 typed data (base58 addresses; `types` without `EIP712Domain`). */
  signTypedData: (typedData: Permit2TypedData) => Promise<string> | string;
}

/** The part of the `tronweb` module this package uses (pass the module or let it be imported lazily). */
export interface TronWebModule {
  Trx: {
    signTypedData: (
      domain: Permit2TypedData["domain"],
      types: Permit2TypedData["types"],
      message: Permit2TypedData["message"],
      privateKey: string,
    ) => string;
  };
}

/** Parameters of {@link signTronPermit2Approval}: the verification parameters plus one way to sign. */
export type SignTronPermit2ApprovalParameters = VerifyPermit2ApprovalParameters &
  (
    | {
        /** A hex private key (with or without `0x`); signs offline with TronWeb's TIP-712 implementation. */
        privateKey: string;
        /** The `tronweb` module (`import * as tronweb from "tronweb"`); default: imported on first use. */
        tronWeb?: TronWebModule | undefined;
        signer?: undefined;
      }
    | { signer: TronTypedDataSigner; privateKey?: undefined; tronWeb?: undefined }
  );

/** What {@link signTronPermit2Approval} returns. */
export interface SignTronPermit2ApprovalReturnType {
  /** 65-byte `r ‖ s ‖ v` signature, v normalized to 27/28. */
  signature: Hex;
  approval: Extract<Approval, { type: "permit2" }>;
  /** The signer's base58 address (the Permit2 `owner`). */
  owner: string;
  verified: VerifyPermit2ApprovalReturnType;
}

/** The error {@link signTronPermit2Approval} throws: any verification code, or a signing one. */
export type SignTronPermit2ApprovalErrorType = Permit2Error;

/**
 * Verifies a `permit2` intent on Tron (base58 addresses, chain id masked to 32 bits; see `verifyPermit2Approval`,
 * which cannot be skipped), signs the TIP-712 typed data with a private key through TronWeb or with a
 * TronLink-style signer, normalizes `v` to 27/28 and checks the signature recovers to the signer.
 *
 * tronweb is an optional peer dependency loaded only here, and only for the private-key path.
 *
 * @throws `Permit2Error`: any verification code, `PERMIT2_OWNER_MISMATCH`, `PERMIT2_TRONWEB_UNAVAILABLE`,
 * `PERMIT2_SIGNING_FAILED`, `PERMIT2_SIGNATURE_INVALID`.
 *
 * @example
 * ```ts
 * import { signTronPermit2Approval } from "@swapintent/permit2/tron";
 *
 * const { approval } = await signTronPermit2Approval({
 *   intent,
 *   quote,
 *   expected: { chainId: 728126428, recipient, spender: escrowBase58FromWalletConfig, destination },
 *   signer: {
 *     address: window.tronWeb.defaultAddress.base58,
 *     signTypedData: ({ domain, types, message }) =>
 *       window.tronWeb.trx._signTypedData(domain, types, message),
 *   },
 * });
 * ```
 */
export async function signTronPermit2Approval(
  parameters: SignTronPermit2ApprovalParameters,
): Promise<SignTronPermit2ApprovalReturnType> {
  const { signer, privateKey, tronWeb, ...verifyParameters } = parameters;
  const verified = verifyPermit2Approval({
    ...verifyParameters,
    expected: { ...verifyParameters.expected, chainType: "tron" },
  });

  let owner20: Hex | null;
  let owner: string;
  if (signer) {
    owner = signer.address;
    owner20 = typeof owner === "string" && owner.startsWith("T") ? anyAddressTo20(owner) : null;
  } else {
    owner20 = addressOfPrivateKey(privateKey);
    owner = formatTronAddress({ address: owner20 });
  }
  if (owner20 === null)
    throw createPermit2Error("PERMIT2_OWNER_MISMATCH", "The signer has no valid Tron address.", {
      actual: owner,
    });
  // The owner the summary shows ("Signed by …"), as verification read it: one read, one value.
  const expectedOwner = verified.summary.owner;
  if (expectedOwner !== null && anyAddressTo20(expectedOwner) !== owner20)
    throw createPermit2Error("PERMIT2_OWNER_MISMATCH", "The signing account is not the expected owner.", {
      expected: expectedOwner,
      actual: owner,
    });

  const { domain, types, message } = verified.typedData;
  let raw: unknown;
  try {
    if (signer) raw = await signer.signTypedData(verified.typedData);
    else {
      const module = tronWeb ?? (await loadTronWeb());
      raw = module.Trx.signTypedData(domain, types, message, privateKey);
    }
  } catch (cause) {
    if (isPermit2Error(cause, "PERMIT2_TRONWEB_UNAVAILABLE")) throw cause;
    throw createPermit2Error(
      "PERMIT2_SIGNING_FAILED",
      "The wallet refused or failed to sign the permit.",
      { step: "sign" },
      cause,
    );
  }
  const signature = await assertSignedByOwner({
    signature: raw,
    digest: verified.digest,
    owner20,
    recoverAddress: ({ hash, signature }) =>
      Secp256k1.recoverAddress({ payload: hash, signature: Signature.fromHex(signature) }),
  });
  return { signature, approval: { type: "permit2", signedData: signature }, owner, verified };
}

function addressOfPrivateKey(privateKey: string): Hex {
  const body = typeof privateKey === "string" ? privateKey.replace(/^0x/, "") : "";
  if (!/^[0-9a-fA-F]{64}$/.test(body))
    throw createPermit2Error("PERMIT2_SIGNING_FAILED", "The private key is not 32 bytes of hex.", {
      step: "privateKey",
    });
  try {
    return Address.fromPublicKey(Secp256k1.getPublicKey({ privateKey: `0x${body}` })).toLowerCase() as Hex;
  } catch {
    // Never echo the key.
    throw createPermit2Error("PERMIT2_SIGNING_FAILED", "The private key is not a valid secp256k1 key.", {
      step: "privateKey",
    });
  }
}

async function loadTronWeb(): Promise<TronWebModule> {
  try {
    const module = (await import("tronweb")) as unknown as TronWebModule & { default?: TronWebModule };
    const resolved = module.Trx ? module : module.default;
    if (!resolved?.Trx) throw new Error("tronweb has no Trx export");
    return resolved;
  } catch (cause) {
    throw createPermit2Error(
      "PERMIT2_TRONWEB_UNAVAILABLE",
      "tronweb (an optional peer dependency) could not be loaded; install it or pass a signer.",
      { module: "tronweb" },
      cause,
    );
  }
}
