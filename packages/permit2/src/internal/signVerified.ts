import type { Approval, Hex } from "@swapintent/client";
import { isPermit2Error } from "../errors.js";
import type { VerifyPermit2ApprovalReturnType } from "../types.js";
import { anyAddressTo20, detectChainKind } from "./addresses.js";
import { assertSignedByOwner, type RecoverAddress } from "./assertSignedByOwner.js";
import { createPermit2Error } from "./fail.js";

/** What every signer of the package returns (the Tron one with a base58 owner). */
export interface SignedPermit2Approval<TOwner extends string> {
  /** 65-byte `r ‖ s ‖ v` signature, v = 27/28, low `s`. */
  signature: Hex;
  /** The body to submit with the client's approval call. */
  approval: Extract<Approval, { type: "permit2" }>;
  /** The address that signed (the Permit2 `owner`), in the chain's own form. */
  owner: TOwner;
  /** What was verified and signed, with the summary shown to the user. */
  verified: VerifyPermit2ApprovalReturnType;
}

/** How one wallet signs, once the permit is verified: who it is, what to check first, and the request itself. */
export interface VerifiedSigning {
  /** The signing address as the wallet spells it (0x hex, or base58 on Tron); anything else is refused. */
  owner: unknown;
  /** The address family the owner must belong to. */
  family: "evm" | "tron";
  /** Checks of the wallet's state (its chain) that run after the owner check and before it is asked to sign. */
  beforeSigning?: (() => Promise<void>) | undefined;
  /** Asks the wallet; its refusal becomes `PERMIT2_SIGNING_FAILED` (a permit2 error passes through as is). */
  sign: () => Promise<unknown> | unknown;
}

/**
 * The part every signer shares after verification: the owner is an address of the family and the owner the
 * summary shows (when `expected.owner` was given), the wallet's state passes, the wallet signs, and the signature
 * recovers to the owner over the verified digest (`assertSignedByOwner`).
 */
export async function signVerified<TOwner extends string>(
  verified: VerifyPermit2ApprovalReturnType,
  signing: VerifiedSigning,
  /** The entry's secp256k1 recovery (see {@link RecoverAddress}). */
  recoverAddress: RecoverAddress,
): Promise<SignedPermit2Approval<TOwner>> {
  const { owner } = signing;
  const owner20 = detectChainKind(owner) === signing.family ? anyAddressTo20(owner as string) : null;
  if (owner20 === null)
    throw createPermit2Error(
      "PERMIT2_OWNER_MISMATCH",
      `The signer has no valid ${familyName[signing.family]} address.`,
      {
        actual: owner,
      },
    );
  // The owner the summary shows ("Signed by …"), as verification read it: one read, one value.
  const expectedOwner = verified.summary.owner;
  if (expectedOwner !== null && anyAddressTo20(expectedOwner) !== owner20)
    throw createPermit2Error("PERMIT2_OWNER_MISMATCH", "The signing account is not the expected owner.", {
      expected: expectedOwner,
      actual: owner,
    });
  await signing.beforeSigning?.();
  let raw: unknown;
  try {
    raw = await signing.sign();
  } catch (cause) {
    if (isPermit2Error(cause)) throw cause;
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
    recoverAddress,
  });
  return {
    signature,
    approval: { type: "permit2", signedData: signature },
    owner: owner as TOwner,
    verified,
  };
}

const familyName = { evm: "EVM", tron: "Tron" } as const;
