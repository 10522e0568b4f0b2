import type { HexString } from "@swapintent/client";
import { anyAddressTo20 } from "../address/addresses.js";
import { createPermit2Error } from "../internal/fail.js";
import type { VerifyPermit2ApprovalParameters } from "../types.js";
import { MAX_UINT256 } from "./values.js";

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";
const NATIVE_PLACEHOLDER = "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee";

/** Spender = escrow (and the wallet's), token and amount = quote (and the wallet's), source decimals = wallet's. */
export function assertSourceSide(input: {
  escrow: HexString;
  permit2: HexString;
  token: HexString;
  expected: VerifyPermit2ApprovalParameters["expected"];
  quote: VerifyPermit2ApprovalParameters["quote"];
  escrowContractAddress: unknown;
}): { amount: bigint; spenderUnchecked: boolean } {
  const { escrow, permit2, token, expected, quote } = input;
  const { escrowContractAddress } = input;
  if (escrow === ZERO_ADDRESS || escrow === permit2)
    throw createPermit2Error(
      "PERMIT2_SPENDER_MISMATCH",
      "The spender is the zero address or the Permit2 contract itself.",
      { actual: escrowContractAddress },
    );
  // Its shape was checked with the rest of `expected` (readExpectation): an address, or `{ unchecked: true }`.
  const expectedSpender: unknown = expected.spender;
  const spenderUnchecked = typeof expectedSpender !== "string";
  if (typeof expectedSpender === "string" && anyAddressTo20(expectedSpender) !== escrow)
    throw createPermit2Error(
      "PERMIT2_SPENDER_MISMATCH",
      "The spender is not the escrow the wallet expects.",
      {
        expected: expectedSpender,
        actual: escrowContractAddress,
      },
    );
  if (token === NATIVE_PLACEHOLDER || token === ZERO_ADDRESS)
    throw createPermit2Error(
      "PERMIT2_TOKEN_MISMATCH",
      "Permit2 moves ERC-20 tokens only; the quote's source token is a native-token placeholder.",
      { actual: quote.sourceToken },
    );
  // No token is the escrow or Permit2 itself: such a permit names a contract of the swap as what it moves.
  if (token === escrow || token === permit2)
    throw createPermit2Error(
      "PERMIT2_TOKEN_MISMATCH",
      "The quote's source token is the escrow or the Permit2 contract, not a token.",
      { actual: quote.sourceToken },
    );
  if (expected.sourceToken !== undefined && anyAddressTo20(expected.sourceToken) !== token)
    throw createPermit2Error(
      "PERMIT2_TOKEN_MISMATCH",
      "The quote's source token is not the token the user chose.",
      { expected: expected.sourceToken, actual: quote.sourceToken },
    );
  const amount = quote.sourceAmountLots;
  if (typeof amount !== "bigint" || amount <= 0n || amount > MAX_UINT256)
    throw createPermit2Error(
      "PERMIT2_AMOUNT_MISMATCH",
      "The quote's source amount is not a positive uint256.",
      { actual: amount },
    );
  if (expected.sourceAmountLots !== undefined && expected.sourceAmountLots !== amount)
    throw createPermit2Error(
      "PERMIT2_AMOUNT_MISMATCH",
      "The quote's source amount is not the amount the user asked for.",
      { expected: expected.sourceAmountLots, actual: amount },
    );
  if (expected.sourceDecimals !== undefined && expected.sourceDecimals !== quote.sourceAmountDecimals)
    throw createPermit2Error(
      "PERMIT2_DECIMALS_MISMATCH",
      "The quote's source decimals are not the token's decimals the wallet knows.",
      { expected: expected.sourceDecimals, actual: quote.sourceAmountDecimals },
    );
  return { amount, spenderUnchecked };
}

/** The nonce is a uint256; the deadline a positive integer, in the future, at most `maxDeadlineSecs` away. */
export function assertNonceAndDeadline(input: {
  nonce: unknown;
  deadlineSecs: unknown;
  nowMs: number;
  maxDeadlineSecs: number;
}): { nonce: bigint; deadlineSecs: number } {
  const { nonce, deadlineSecs, nowMs, maxDeadlineSecs } = input;
  if (typeof nonce !== "bigint" || nonce < 0n || nonce > MAX_UINT256)
    throw createPermit2Error("PERMIT2_NONCE_MISMATCH", "The nonce is not a uint256.", { actual: nonce });
  if (typeof deadlineSecs !== "number" || !Number.isSafeInteger(deadlineSecs) || deadlineSecs <= 0)
    throw createPermit2Error(
      "PERMIT2_DEADLINE_MISMATCH",
      "The intent's deadline is not a positive integer.",
      { actual: deadlineSecs },
    );
  if (deadlineSecs * 1000 <= nowMs)
    throw createPermit2Error("PERMIT2_DEADLINE_PASSED", "The permit deadline has passed.", {
      deadlineSecs,
      nowMs,
    });
  // Also past the last instant a Date holds (8.64e15 ms), whatever the bound: the summary could not show it.
  if (deadlineSecs * 1000 - nowMs > maxDeadlineSecs * 1000 || deadlineSecs > 8.64e12)
    throw createPermit2Error("PERMIT2_DEADLINE_TOO_FAR", "The permit deadline lies too far in the future.", {
      deadlineSecs,
      nowMs,
      maxDeadlineSecs,
    });
  return { nonce, deadlineSecs };
}
