import { sameDestinationAddress } from "../address/sameDestinationAddress.js";
import { assertDisplayText } from "../internal/assertDisplayText.js";
import { createPermit2Error } from "../internal/fail.js";
import type { Permit2DestinationExpectation, VerifyPermit2ApprovalParameters } from "../types.js";

/**
 * The quote's destination (already equal to the witness) against the wallet's own facts: network, token, decimals,
 * and a signed minimum no smaller than the least the user accepts. Catches a service that lowers the destination
 * decimals and the min/max lots together (the formatted amounts read the same, the signed minimum is smaller).
 */
export function assertDestination(input: {
  destination: Permit2DestinationExpectation;
  quote: VerifyPermit2ApprovalParameters["quote"];
}): void {
  const { destination, quote } = input;
  assertSameDestination({
    actual: { chain: quote.destChain, token: quote.destToken, of: "The quote's" },
    expected: { chain: destination.network, token: destination.token, of: "the one the wallet expects" },
    networkType: destination.networkType,
  });
  if (quote.destAmountDecimals !== destination.decimals)
    throw createPermit2Error(
      "PERMIT2_DEST_DECIMALS_MISMATCH",
      "The quote's destination decimals are not the token's decimals the wallet knows.",
      { expected: destination.decimals, actual: quote.destAmountDecimals },
    );
  if (quote.minDestAmountLots < destination.minAmountLots)
    throw createPermit2Error(
      "PERMIT2_MIN_AMOUNT_TOO_LOW",
      "The signed minimum destination amount is below the least the user accepts.",
      { expected: destination.minAmountLots, actual: quote.minDestAmountLots },
    );
}

/** One end's destination chain and token, and how a message names it. */
interface DestinationEnd {
  chain: unknown;
  token: unknown;
  of: string;
}

/**
 * A destination (chain, then token) equals the one it is checked against: the witness against the quote, the
 * quote against the wallet's own `expected.destination`. Chains compare as integers (the witness holds a uint256).
 */
export function assertSameDestination(input: {
  actual: DestinationEnd;
  expected: DestinationEnd;
  checkExpectedToken?: boolean;
  /** The destination network's `type` in the wallet's catalogue: how its strings compare (see sameDestinationAddress). */
  networkType: string | undefined;
}): void {
  const { actual, expected } = input;
  const chainOf = (value: unknown) =>
    typeof value === "bigint" ? value : Number.isSafeInteger(value) ? BigInt(value as number) : null;
  // The side checked against is a network id (a JSON number); the checked side may be the witness's uint256.
  const chain = Number.isSafeInteger(expected.chain) ? BigInt(expected.chain as number) : null;
  if (chain === null || chainOf(actual.chain) !== chain)
    throw createPermit2Error(
      "PERMIT2_DEST_CHAIN_MISMATCH",
      `${actual.of} destination chain is not ${expected.of}.`,
      { expected: expected.chain, actual: actual.chain },
    );
  if (input.checkExpectedToken && typeof expected.token === "string")
    assertDisplayText(expected.token, "quote.destToken");
  if (
    typeof actual.token !== "string" ||
    !sameDestinationAddress({
      actual: actual.token,
      expected: expected.token,
      networkType: input.networkType,
    })
  )
    throw createPermit2Error(
      "PERMIT2_DEST_TOKEN_MISMATCH",
      `${actual.of} destination token is not ${expected.of}.`,
      { expected: expected.token, actual: actual.token },
    );
}
