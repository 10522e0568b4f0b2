import {
  checkMemos,
  checkNativeOutflow,
  checkOtherAuthority,
  checkTokenOutflow,
} from "./internal/checkTally.js";
import { decodeTransaction } from "./internal/decodeTransaction.js";
import { readVerifyParameters } from "./internal/readVerifyParameters.js";
import { accountKeysOf, tallyInstructions, userSignerIndexOf } from "./internal/resolveInstructions.js";
import type {
  VerifiedTransaction,
  VerifyCosignTransactionParameters,
  VerifyCosignTransactionReturnType,
} from "./types.js";

export type {
  ExpectedEscrow,
  LookupTableContents,
  Token2022MintFacts,
  VerifiedTransaction,
  VerifyCosignTransactionErrorType,
  VerifyCosignTransactionParameters,
  VerifyCosignTransactionReturnType,
} from "./types.js";

/**
 * Verify a `cosign` transaction before anyone signs it, and describe it. Refuses, each with its own `SwapIntentError`
 * code: an intent of another approval mechanism; bytes that are not the one canonical serialization; the user not a
 * required signer or the fee payer; an
 * unresolved lookup table; a program outside the allowed set, called directly or through an instruction's accounts;
 * a durable nonce (`AdvanceNonceAccount`); an instruction touching the user that cannot be decoded; the user in a
 * role it did not agree to (a seed base, a nonce authority, a token account, its key inside instruction data); any
 * delegate approval or revoke, authority change, close or reassignment of the user's accounts; another authority
 * (a delegate, a permanent delegate, a close or freeze authority) acting on the user's token account; tokens of
 * another mint, to another destination, or more than one outflow; decimals other than the quote's (when given); an
 * amount received by the escrow other than `sourceAmountLots` (lamports wrapped into the escrow's wSOL account
 * count); a Token-2022 transfer whose mint's extensions the wallet did not state, or whose hook program is not
 * allowed; lamports leaving the user beyond the cap (wrapping into the user's own wSOL account, up to the amount
 * paid, is the payment itself); a missing or foreign memo (compared byte for byte), any memo besides the intent's
 * one, a memo that is not UTF-8 or holds a control, bidi or zero-width character; an `escrow` naming more than one
 * of `owner`, `tokenAccount`, `unchecked: true`; a parameter of the wrong shape, or whose reading throws
 * (`SOL_INVALID_PARAMETERS`: no other throw escapes).
 *
 * @example
 * ```ts
 * import { verifyCosignTransaction } from "@swapintent/solana";
 *
 * const shown = verifyCosignTransaction({
 *   intent, // from client.createIntent, approvalMechanism "cosign"
 *   quote, // the quote the user accepted
 *   userAddress, // the user's address: base58 text or a PublicKey (a wallet adapter's, once connected: not null)
 *   escrow: { owner: escrowOwner }, // from the wallet's own chain facts
 * });
 * console.log(`${shown.amountLots} lots of ${shown.mint} to ${shown.destination}`);
 * ```
 */
export function verifyCosignTransaction(
  parameters: VerifyCosignTransactionParameters,
): VerifyCosignTransactionReturnType {
  const { decoded: _decoded, ...verification } = verifyAndDecode(parameters);
  return verification;
}

/** Internal: {@link verifyCosignTransaction} also returning the decoded transaction. */
export function verifyAndDecode(parameters: VerifyCosignTransactionParameters): VerifiedTransaction {
  const checked = readVerifyParameters(parameters);
  const decoded = decodeTransaction(checked.transaction);
  const staticKeys = decoded.staticAccountKeys;
  const userSignerIndex = userSignerIndexOf(staticKeys, checked.user, decoded.header.numRequiredSignatures);
  const keys = accountKeysOf(staticKeys, decoded.addressTableLookups, checked.tables);
  const tally = tallyInstructions(keys, decoded.instructions, checked);
  checkOtherAuthority(tally, checked.user, checked.expectedMint);
  checkTokenOutflow(tally, checked.expectedAmount, checked.escrow);
  const native = checkNativeOutflow(tally, checked);
  checkMemos(checked, tally.memos);
  return {
    userAddress: checked.user,
    userSignerIndex,
    feePayer: staticKeys[0]!,
    mint: checked.expectedMint,
    amountLots: tally.toEscrow,
    transferFeeLots: tally.transferFee,
    destination: tally.destination!,
    nativeOutflowLamports: native.outflow,
    wrappedLamports: native.wrapped,
    programs: tally.programs,
    memos: tally.memos,
    messageBytes: decoded.messageBytes,
    decoded,
  };
}
