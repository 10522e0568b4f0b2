import { sameDestinationAddress } from "../address/sameDestinationAddress.js";
import { createPermit2Error } from "../internal/fail.js";
import type { VerifyPermit2ApprovalParameters } from "../types.js";
import { assertSameDestination } from "./assertDestination.js";

/** The witness's intent id, secret hash, destination chain and token, recipient and amounts = intent and quote. */
export function assertWitnessContents(input: {
  witness: Record<string, bigint | string>;
  intent: VerifyPermit2ApprovalParameters["intent"];
  quote: VerifyPermit2ApprovalParameters["quote"];
  additional: Record<string, unknown>;
  recipient: string;
  /** The destination network's `type` from the wallet's catalogue (`expected.destination.networkType`), if given. */
  networkType: string | undefined;
}): void {
  const { witness, intent, quote, additional } = input;
  const { recipient } = input;
  const intentIdBytes32 = uuidToBytes32(intent.intentId);
  if (intentIdBytes32 === null || witness.intentId !== intentIdBytes32)
    throw createPermit2Error("PERMIT2_INTENT_ID_MISMATCH", "The witness intent id is not this intent's id.", {
      expected: intentIdBytes32 ?? intent.intentId,
      actual: witness.intentId,
    });
  const secretHash = typeof intent.secretHash === "string" ? intent.secretHash.toLowerCase() : null;
  if (witness.secretHash !== secretHash)
    throw createPermit2Error("PERMIT2_SECRET_HASH_MISMATCH", "The witness secret hash is not the intent's.", {
      expected: intent.secretHash,
      actual: witness.secretHash,
    });
  if (
    additional.secretHash !== undefined &&
    (typeof additional.secretHash !== "string" || additional.secretHash.toLowerCase() !== secretHash)
  )
    throw createPermit2Error(
      "PERMIT2_SECRET_HASH_MISMATCH",
      "additional_data.secretHash is not the intent's secret hash.",
      { expected: intent.secretHash, actual: additional.secretHash, field: "additional_data.secretHash" },
    );
  assertSameDestination({
    actual: { chain: witness.destChain, token: witness.destToken, of: "The witness" },
    expected: { chain: quote.destChain, token: quote.destToken, of: "the quote's" },
    // The quote's token is shown and signed as text: it must be safe to show before it is compared.
    checkExpectedToken: true,
    networkType: input.networkType,
  });
  if (
    !sameDestinationAddress({
      actual: witness.recipient as string,
      expected: recipient,
      networkType: input.networkType,
    })
  )
    throw createPermit2Error(
      "PERMIT2_RECIPIENT_MISMATCH",
      "The witness recipient is not the destination address the user entered.",
      { expected: recipient, actual: witness.recipient },
    );
  if (witness.minDestAmount !== quote.minDestAmountLots)
    throw createPermit2Error(
      "PERMIT2_MIN_AMOUNT_MISMATCH",
      "The witness minimum destination amount is not the quote's.",
      { expected: quote.minDestAmountLots, actual: witness.minDestAmount },
    );
  if (witness.maxDestAmount !== quote.maxDestAmountLots)
    throw createPermit2Error(
      "PERMIT2_MAX_AMOUNT_MISMATCH",
      "The witness maximum destination amount is not the quote's.",
      { expected: quote.maxDestAmountLots, actual: witness.maxDestAmount },
    );
  if (quote.maxDestAmountLots < quote.minDestAmountLots)
    throw createPermit2Error(
      "PERMIT2_MAX_AMOUNT_MISMATCH",
      "The maximum destination amount is below the minimum: no delivery can satisfy the permit.",
      { min: quote.minDestAmountLots, actual: quote.maxDestAmountLots },
    );
}

/** The intent UUID's 16 bytes left-padded to 32, lowercase; null when the id is not a UUID. */
function uuidToBytes32(intentId: unknown): string | null {
  if (typeof intentId !== "string") return null;
  if (!/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(intentId))
    return null;
  return `0x${"0".repeat(32)}${intentId.replaceAll("-", "").toLowerCase()}`;
}
