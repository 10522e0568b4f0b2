import { createPermit2Error } from "../internal/fail.js";
import type { VerifyPermit2ApprovalParameters, VerifyPermit2ApprovalReturnType } from "../types.js";
import { assertDestination } from "./assertDestination.js";
import { assertDomain } from "./assertDomain.js";
import { assertSentMessage } from "./assertSentMessage.js";
import { assertNonceAndDeadline, assertSourceSide } from "./assertSourceSide.js";
import { assertTypes } from "./assertTypes.js";
import { assertWitnessContents } from "./assertWitnessContents.js";
import { buildSummary, factSources } from "./buildSummary.js";
import { buildTypedData } from "./buildTypedData.js";
import { readAddresses, readParameters } from "./readParameters.js";
import { verifyWitness } from "./verifyWitness.js";

/**
 * Checks a `permit2` intent's `params_to_sign` against the quote the user accepted and the wallet's own state,
 * and returns the exact typed data to sign plus a summary for the confirmation screen. Pure: needs neither
 * viem nor tronweb, never mutates its inputs, makes no network call.
 *
 * Verified (each failure is a `SwapIntentError` with its own code, see {@link Permit2ErrorCode}): mechanism; address
 * forms (EVM checksum, Tron base58check); `types` (exactly Permit2's primary type, `TokenPermissions` and a
 * witness type with the fields intentId, secretHash, destChain, destToken, recipient, minDestAmount, maxDestAmount);
 * domain (only name `Permit2`, the wallet's chain id, `verifyingContract == permit2_contract_address`, canonical
 * (EVM only) or allowed); `witness_hash` recomputed; `witness_type_string` rebuilt; spender = escrow; token and amount = quote;
 * deadline = `deadline_secs`, in the future, not too far; the user's own `expected.sourceToken`,
 * `expected.sourceAmountLots` and `expected.sourceDecimals` when given (the quote comes from the service); witness amounts, recipient, destination chain and token,
 * intent id and secret hash = quote and intent; maximum not below minimum; `expected.destination` when given
 * (network, token, decimals, and a signed minimum of at least `minAmountLots`); every service string that is
 * signed as text or shown (witness strings, the quote's destination token) free of control, bidi and invisible
 * characters (`PERMIT2_TEXT_UNSAFE`). The summary marks which facts the wallet confirmed (`summary.sources`).
 *
 * A malformed `expected` or option (the wallet's own input: a caller bug) is `PERMIT2_EXPECTED_INVALID`; malformed
 * service data is `PERMIT2_PARAMS_INVALID`; a well-formed fact that differs has its own mismatch code.
 *
 * @throws `Permit2Error` ({@link VerifyPermit2ApprovalErrorType}) on the first check that fails.
 *
 * @example
 * ```ts
 * import { verifyPermit2Approval } from "@swapintent/permit2";
 *
 * // Before the wallet prompt: check the intent, show `summary.lines`, then sign `typedData` (or use a signer).
 * const verified = verifyPermit2Approval({
 *   intent, // from client.createIntent
 *   quote, // the quote the user accepted
 *   expected: {
 *     chainId: 1,
 *     recipient: userDestinationAddress,
 *     spender: escrowFromWalletConfig,
 *     sourceToken: usdcAddress,
 *     sourceAmountLots: 2_500_000n,
 *     sourceDecimals: 6,
 *     destination: { network: 5, token: solUsdcMint, decimals: 6, minAmountLots: 2_480_000n },
 *   },
 * });
 * console.log(verified.summary.lines.join("\n"));
 * ```
 */
export function verifyPermit2Approval(
  parameters: VerifyPermit2ApprovalParameters,
): VerifyPermit2ApprovalReturnType {
  const input = readParameters(parameters);
  const { intent, quote, expected, params, additional, destination } = input;
  const { kind, permit2, escrow, token } = readAddresses(input);

  const witnessTypeName = assertTypes(additional.types as Record<string, unknown>);
  const signedChainId = assertDomain({
    domain: additional.domain as Record<string, unknown>,
    kind,
    expectedChainId: expected.chainId,
    permit2,
    permit2ContractAddress: params.permit2ContractAddress,
    allowed: input.allowed,
  });
  const { types, witness, witnessHash, witnessTypeString } = verifyWitness(witnessTypeName, additional);

  const { amount, spenderUnchecked } = assertSourceSide({
    escrow,
    permit2,
    token,
    expected,
    quote,
    escrowContractAddress: params.escrowContractAddress,
  });
  const { nonce, deadlineSecs } = assertNonceAndDeadline({
    nonce: params.nonce,
    deadlineSecs: intent.deadlineSecs,
    nowMs: input.nowMs,
    maxDeadlineSecs: input.maxDeadlineSecs,
  });
  assertSentMessage(additional, kind, {
    token,
    amount,
    escrow,
    nonce,
    deadline: BigInt(deadlineSecs),
    witness,
  });

  // Witness contents against intent, quote and the wallet's own destination facts.
  assertWitnessContents({
    witness,
    intent,
    quote,
    additional,
    recipient: expected.recipient,
    networkType: destination?.networkType,
  });
  if (destination !== null) assertDestination({ destination, quote });

  const chainId = Number(signedChainId);
  const { typedData, hashedTypedData, digest } = buildTypedData({
    kind,
    chainId,
    permit2: [permit2, params.permit2ContractAddress],
    token: [token, quote.sourceToken],
    escrow: [escrow, params.escrowContractAddress],
    amount,
    nonce,
    deadlineSecs,
    witness,
    types,
    witnessTypeString,
    witnessHash,
  });
  if (expected.digest !== undefined && expected.digest.toLowerCase() !== digest)
    throw createPermit2Error("PERMIT2_DIGEST_MISMATCH", "The permit is not the one the user confirmed.", {
      expected: expected.digest,
      actual: digest,
    });
  const summary = buildSummary({
    kind,
    chainId,
    typedData,
    deadlineSecs,
    quote,
    intentId: intent.intentId,
    owner: expected.owner ?? null,
    witness,
    sources: factSources(expected, spenderUnchecked, destination !== null),
  });
  return { chainType: kind, typedData, hashedTypedData, digest, witnessHash, witnessTypeString, summary };
}
