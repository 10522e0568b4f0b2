import * as Address from "ox/Address";
import * as Secp256k1 from "ox/Secp256k1";
import * as Signature from "ox/Signature";
import { formatTronAddress } from "../address/formatTronAddress.js";
import type { Permit2Error, Permit2SigningErrorCode, Permit2VerifyErrorCode } from "../errors.js";
import { createPermit2Error } from "../internal/fail.js";
import {
  type SignedPermit2Approval,
  type VerifiedSigning,
  verifyThenSign,
} from "../internal/signVerified.js";
import { snapshotInput } from "../internal/snapshotInput.js";
import type {
  Permit2TypedData,
  VerifyPermit2ApprovalParameters,
  VerifyPermit2ApprovalReturnType,
} from "../types.js";

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

/** TronWeb's TIP-712 signing call: `(domain, types, value, privateKey?)`, the wallet's key when none is given. */
export type TronSignTypedData = (
  domain: Permit2TypedData["domain"],
  types: Permit2TypedData["types"],
  value: Permit2TypedData["message"],
  privateKey?: string,
) => Promise<string> | string;

/**
 * The part of the `tronWeb` object TronLink injects (`window.tronWeb`) that signs: its connected account
 * (`defaultAddress.base58`, `false` until the user connects) and `trx.signTypedData` or its older name
 * `trx._signTypedData`, called without a private key so the wallet signs with the user's.
 */
export interface TronLinkTronWeb {
  defaultAddress: { base58: string | false; hex?: string | false };
  trx: { signTypedData?: TronSignTypedData | undefined; _signTypedData?: TronSignTypedData | undefined };
}

/** The part of the `tronweb` module this package uses (pass the module or let it be imported lazily). */
export interface TronWebModule {
  Trx: {
    /** tronweb's TIP-712 signing with a private key (hex): returns the 65-byte signature (hex). */
    signTypedData: (
      domain: Permit2TypedData["domain"],
      types: Permit2TypedData["types"],
      message: Permit2TypedData["message"],
      privateKey: string,
    ) => string;
  };
}

/** Parameters of {@link signTronPermit2Approval}: the verification parameters plus one way to sign. */
export type SignTronPermit2ApprovalParameters = VerifyPermit2ApprovalParameters & {
  /**
   * Stops waiting for the wallet: when it aborts, signing rejects at once with `PERMIT2_SIGNING_ABORTED` (`cause`:
   * `signal.reason`) and never returns an approval, even if the wallet answers later. An already aborted signal is
   * refused before any wallet or key is asked. For a per-call wallet timeout pass `AbortSignal.timeout(ms)` (or
   * `AbortSignal.any([userCancel, AbortSignal.timeout(ms)])`).
   */
  signal?: AbortSignal | undefined;
} & (
    | {
        /** A hex private key (with or without `0x`); signs offline with TronWeb's TIP-712 implementation. */
        privateKey: string;
        /** The `tronweb` module (`import * as tronweb from "tronweb"`); default: imported on first use. */
        tronWeb?: TronWebModule | undefined;
        signer?: undefined;
        tronLink?: undefined;
      }
    | { signer: TronTypedDataSigner; privateKey?: undefined; tronWeb?: undefined; tronLink?: undefined }
    | {
        /** TronLink's injected `window.tronWeb`: signs with `trx.signTypedData` (or `trx._signTypedData`). */
        tronLink: TronLinkTronWeb;
        privateKey?: undefined;
        tronWeb?: undefined;
        signer?: undefined;
      }
  );

/** What {@link signTronPermit2Approval} returns (`owner`: the signer's base58 address). */
export interface SignTronPermit2ApprovalReturnType extends SignedPermit2Approval<string> {}

/** The error {@link signTronPermit2Approval} throws: any verification code, or a signing one. */
export type SignTronPermit2ApprovalErrorType = Permit2Error<
  Permit2VerifyErrorCode | Permit2SigningErrorCode | "PERMIT2_TRONWEB_UNAVAILABLE"
>;

/**
 * Verifies a `permit2` intent on Tron (base58 addresses, chain id masked to 32 bits; see `verifyPermit2Approval`,
 * which cannot be skipped), signs the TIP-712 typed data with a private key through TronWeb, with TronLink's
 * injected `window.tronWeb`, or with a TronLink-style signer, normalizes `v` to 27/28 and RECOVERS the signer from
 * the signature: it must be the owner's hex form, or the approval is refused.
 *
 * tronweb is an optional peer dependency loaded only here, and only for the private-key path.
 *
 * @throws `Permit2Error`: any verification code, `PERMIT2_OWNER_MISMATCH`, `PERMIT2_TRONWEB_UNAVAILABLE`,
 * `PERMIT2_SIGNING_FAILED`, `PERMIT2_SIGNATURE_INVALID`, `PERMIT2_SIGNER_MISMATCH`, `PERMIT2_SIGNING_ABORTED`
 * (`signal` aborted).
 *
 * @example
 * ```ts
 * import { signTronPermit2Approval } from "@swapintent/permit2/tron";
 *
 * const { approval } = await signTronPermit2Approval({
 *   intent,
 *   quote,
 *   expected: { chainId: 728126428, recipient, spender: escrowBase58FromWalletConfig, destination },
 *   tronLink: window.tronWeb, // TronLink, once the user connected (tron_requestAccounts)
 * });
 * ```
 */
export async function signTronPermit2Approval(
  parameters: SignTronPermit2ApprovalParameters,
): Promise<SignTronPermit2ApprovalReturnType> {
  // Each key read once, before anything runs: the wallet's objects as given, the rest a plain-data copy.
  const { signer, privateKey, tronWeb, tronLink, signal, ...verifyParameters } = Object(
    snapshotInput(parameters, ["signer", "privateKey", "tronWeb", "tronLink", "signal"]),
  ) as SignTronPermit2ApprovalParameters;
  return verifyThenSign<string>({
    parameters: verifyParameters,
    signal,
    family: "tron",
    recoverAddress: ({ hash, signature }) =>
      Secp256k1.recoverAddress({ payload: hash, signature: Signature.fromHex(signature) }),
    signing: (verified) => {
      if (tronLink !== undefined) return tronLinkSigning(tronLink, verified);
      if (signer !== undefined)
        return { owner: signer.address, sign: () => signer.signTypedData(verified.typedData) };
      return privateKeySigning(privateKey, tronWeb, verified);
    },
  });
}

/** TronLink's injected `tronWeb`: its connected account, and `trx.signTypedData` (or `_signTypedData`) with no key. */
function tronLinkSigning(
  tronLink: TronLinkTronWeb,
  verified: VerifyPermit2ApprovalReturnType,
): VerifiedSigning {
  const { domain, types, message } = verified.typedData;
  return {
    owner: tronLink.defaultAddress?.base58,
    sign: () => {
      const trx = tronLink.trx;
      if (typeof trx.signTypedData === "function") return trx.signTypedData(domain, types, message);
      if (typeof trx._signTypedData === "function") return trx._signTypedData(domain, types, message);
      throw new Error("window.tronWeb.trx has neither signTypedData nor _signTypedData");
    },
  };
}

/**
 * A private key through TronWeb's own TIP-712 implementation (imported on first use). The import is awaited here,
 * in the account step the signal races, never inside `sign`: `sign` uses the key at once, so an abort while tronweb
 * loads ends the call before the key signs (awaiting it inside `sign` let the key sign after the abort).
 */
async function privateKeySigning(
  privateKey: string,
  tronWeb: TronWebModule | undefined,
  verified: VerifyPermit2ApprovalReturnType,
): Promise<VerifiedSigning> {
  const { domain, types, message } = verified.typedData;
  const owner = formatTronAddress({ address: addressOfPrivateKey(privateKey) });
  const { Trx } = tronWeb ?? (await loadTronWeb());
  return { owner, sign: () => Trx.signTypedData(domain, types, message, privateKey) };
}

function addressOfPrivateKey(privateKey: string): string {
  const body = typeof privateKey === "string" ? privateKey.replace(/^0x/, "") : "";
  if (!/^[0-9a-fA-F]{64}$/.test(body))
    throw createPermit2Error("PERMIT2_SIGNING_FAILED", "The private key is not 32 bytes of hex.", {
      step: "privateKey",
    });
  try {
    return Address.fromPublicKey(Secp256k1.getPublicKey({ privateKey: `0x${body}` })).toLowerCase();
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
