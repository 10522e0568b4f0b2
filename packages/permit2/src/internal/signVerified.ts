import type { Approval, HexString } from "@swapintent/client";
import { isAbortSignalLike, raceAbortSignal, readAbortSignal } from "@swapintent/client/internal";
import { anyAddressTo20, detectChainKind } from "../address/addresses.js";
import type { VerifyPermit2ApprovalParameters, VerifyPermit2ApprovalReturnType } from "../types.js";
import { verifyPermit2Approval } from "../verify/verifyPermit2Approval.js";
import { assertSignedByOwner, type RecoverAddress } from "./assertSignedByOwner.js";
import { createPermit2Error, ownErrors } from "./fail.js";

/** What every signer of the package returns (the Tron one with a base58 owner). */
export interface SignedPermit2Approval<TOwner extends string> {
  /**
   * 65-byte `r ‖ s ‖ v` signature, v = 27/28, low `s`; for a contract owner (a smart account), the signature its
   * wallet returned (lowercase hex of any bounded length, an ERC-6492 wrapper kept), as Permit2 accepted it.
   */
  signature: HexString;
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
  /** Checks of the wallet's state (its chain) that run after the owner check and before it is asked to sign. */
  beforeSigning?: (() => Promise<void>) | undefined;
  /**
   * Asks the wallet; its refusal becomes `PERMIT2_SIGNING_FAILED` (only an error this package raised passes as is).
   * It asks the wallet (or uses the key) before its first `await`: whatever must be awaited first (a module import,
   * an account or chain read) belongs in `signing` or `beforeSigning`, steps the signal races and re-reads after,
   * so nothing awaited can let the key sign after an abort.
   */
  sign: () => Promise<unknown> | unknown;
  /**
   * A contract owner's check (EVM: ERC-1271 / ERC-6492 against the chain), when the wallet gave a way to read the
   * chain: run when the ECDSA check refuses the answer (with that refusal, to rethrow for a key-held owner), or
   * instead of it when `asserted` (the wallet said the owner is a contract). Returns the signature to submit.
   */
  contractSignature?:
    | {
        asserted: boolean;
        check: (input: {
          signature: unknown;
          ecdsaRefusal: unknown;
          owner20: HexString;
          digest: HexString;
        }) => Promise<HexString>;
      }
    | undefined;
}

/**
 * What every signer of the package does: verify the permit for the chain family (nothing else runs when it fails:
 * no wallet request, no key), then let `signing` say how the wallet signs the verified permit, check that the owner
 * is an address of the family and the owner the summary shows (when `expected.owner` was given), let the wallet's
 * state pass, ask the wallet, and check the signature recovers to the owner over the verified digest
 * (`assertSignedByOwner`). With a `signal`: refused before any wallet question when already aborted, each wallet
 * question raced against it, and no approval returned once it aborted (`PERMIT2_SIGNING_ABORTED`).
 */
export async function verifyThenSign<TOwner extends string>(input: {
  parameters: VerifyPermit2ApprovalParameters;
  family: "evm" | "tron";
  signing: (verified: VerifyPermit2ApprovalReturnType) => Promise<VerifiedSigning> | VerifiedSigning;
  /** The entry's secp256k1 recovery (see {@link RecoverAddress}). */
  recoverAddress: RecoverAddress;
  /** The caller's signal (see `PERMIT2_SIGNING_ABORTED`). */
  signal?: AbortSignal | undefined;
  /**
   * `signing` makes the wallet's deep copy itself, before handing it any of the verified permit (so a key held in
   * this process, which gets only the digest, costs no copy); without it, `signing` gets the copy.
   */
  copiesVerified?: boolean | undefined;
}): Promise<SignedPermit2Approval<TOwner>> {
  const { parameters, family, signal } = input;
  if (signal !== undefined && !isAbortSignalLike({ signal }))
    throw createPermit2Error("PERMIT2_EXPECTED_INVALID", "signal is not an AbortSignal.", {
      field: "signal",
    });
  const verified = verifyPermit2Approval({
    ...parameters,
    expected: { ...parameters.expected, chainType: family },
  });
  // Reading the wallet (its account getter, `eth_accounts`) and asking it about its chain are wallet calls too:
  // whatever the wallet object throws becomes a typed error, like its refusal to sign.
  // The wallet gets its own deep copy: one that writes into the typed data it is handed cannot change the
  // `verified` this returns (what the app shows and stores), only what it signs, which the recovery then refuses.
  throwIfAborted(signal, "beforeSigning");
  const progress = { asked: false };
  const askWallet = <T>(step: WalletStep, run: () => Promise<T> | T) =>
    askWalletUntilAborted({ signal, step, run, progress });
  const signing = await askWallet("accounts", () =>
    input.signing(input.copiesVerified === true ? verified : structuredClone(verified)),
  );
  const { owner } = signing;
  const owner20 = detectChainKind(owner) === family ? anyAddressTo20(owner as string) : null;
  if (owner20 === null)
    throw createPermit2Error(
      "PERMIT2_OWNER_MISMATCH",
      `The signer has no valid ${familyName[family]} address.`,
      // Only its type: what a wallet or caller put where an address belongs may be a key.
      { actualType: typeof owner },
    );
  // The owner the summary shows ("Signed by …"), as verification read it: one read, one value.
  const expectedOwner = verified.summary.owner;
  if (expectedOwner !== null && anyAddressTo20(expectedOwner) !== owner20)
    throw createPermit2Error("PERMIT2_OWNER_MISMATCH", "The signing account is not the expected owner.", {
      expected: expectedOwner,
      actual: owner,
    });
  if (signing.beforeSigning) await askWallet("chainId", signing.beforeSigning);
  const answer = await askWallet("sign", signing.sign);
  const ecdsa = () =>
    assertSignedByOwner({
      signature: answer,
      digest: verified.digest,
      owner20,
      recoverAddress: input.recoverAddress,
    });
  const contract = signing.contractSignature;
  // Without a chain reader (every key-held path): exactly the ECDSA check. With one, the contract owner's check
  // reads the chain, a wallet step the signal can abandon.
  const signature =
    contract === undefined
      ? await ecdsa()
      : await askWallet("sign", async () => {
          const checked = { signature: answer, owner20, digest: verified.digest };
          if (contract.asserted) return contract.check({ ...checked, ecdsaRefusal: undefined });
          try {
            return await ecdsa();
          } catch (ecdsaRefusal) {
            if (!ownErrors.has(ecdsaRefusal as object)) throw ecdsaRefusal;
            return contract.check({ ...checked, ecdsaRefusal });
          }
        });
  // An abort while the answer was checked (the recovery may await) still wins: no approval after an abort.
  throwIfAborted(signal, "whileSigning");
  return {
    signature,
    approval: { type: "permit2", signedData: signature },
    owner: owner as TOwner,
    verified,
  };
}

type WalletStep = "accounts" | "chainId" | "sign";

/**
 * One step of talking to the wallet, raced against `signal` (`PERMIT2_SIGNING_ABORTED`: stage `beforeSigning`, no
 * step, while no wallet question of this signing was asked, as with a signal that cannot be listened to or aborts
 * while it is; else `whileSigning` with the step; the answer after the abort never used); anything but an error this package raised becomes `PERMIT2_SIGNING_FAILED` with the step.
 */
async function askWalletUntilAborted<T>(input: {
  signal: AbortSignal | undefined;
  step: WalletStep;
  run: () => Promise<T> | T;
  /** Whether a wallet question of this signing was asked before this one (set here once this one settles). */
  progress: { asked: boolean };
}): Promise<T> {
  const { signal, step, run, progress } = input;
  try {
    // Without a signal there is nothing to race: the step simply runs.
    if (signal === undefined) return await run();
    return await raceAbortSignal({
      signal,
      run,
      abortError: ({ reason, asked }) =>
        asked || progress.asked
          ? abortedError("whileSigning", reason, step)
          : abortedError("beforeSigning", reason),
    });
  } catch (cause) {
    // Only an error of this package passes (its own checks inside the step, the abort); whatever the wallet threw,
    // even an object shaped like a permit2 error, is the wallet's refusal.
    if (ownErrors.has(cause as object)) throw cause;
    throw createPermit2Error("PERMIT2_SIGNING_FAILED", stepMessage[step], { step }, cause);
  } finally {
    progress.asked = true;
  }
}

function throwIfAborted(signal: AbortSignal | undefined, stage: "beforeSigning" | "whileSigning"): void {
  const state = readAbortSignal({ signal });
  if (state.aborted) throw abortedError(stage, state.reason);
}

function abortedError(stage: "beforeSigning" | "whileSigning", reason: unknown, step?: WalletStep) {
  return createPermit2Error(
    "PERMIT2_SIGNING_ABORTED",
    "Signing was aborted by the caller's signal.",
    step === undefined ? { stage } : { stage, step },
    reason,
  );
}

const stepMessage = {
  accounts: "The wallet failed to say which account signs.",
  chainId: "The wallet failed to say which chain it is on.",
  sign: "The wallet refused or failed to sign the permit.",
} as const;

const familyName = { evm: "EVM", tron: "Tron" } as const;
