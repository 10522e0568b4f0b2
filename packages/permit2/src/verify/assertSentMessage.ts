import type { HexString } from "@swapintent/client";
import { anyAddressTo20, type ChainKind, toAddress20 } from "../address/addresses.js";
import { createPermit2Error } from "../internal/fail.js";
import { isObject, parseUint } from "./values.js";

/** A message some deployments send along (`additional_data.message`): tolerated, but it must match what we build. */
export function assertSentMessage(
  additional: Record<string, unknown>,
  kind: ChainKind,
  built: { token: HexString; amount: bigint; escrow: HexString; nonce: bigint; deadline: bigint },
): void {
  const sent = additional.message;
  if (sent === undefined) return;
  if (!isObject(sent) || !isObject(sent.permitted))
    throw createPermit2Error("PERMIT2_PARAMS_INVALID", "additional_data.message is not a permit message.", {
      field: "additional_data.message",
    });
  const tokenMatches = (() => {
    try {
      return toAddress20(kind, sent.permitted.token, "message.permitted.token") === built.token;
    } catch {
      return false;
    }
  })();
  if (!tokenMatches)
    throw createPermit2Error(
      "PERMIT2_TOKEN_MISMATCH",
      "The permitted token is not the quote's source token.",
      {
        actual: sent.permitted.token,
      },
    );
  if (parseUint(sent.permitted.amount) !== built.amount)
    throw createPermit2Error(
      "PERMIT2_AMOUNT_MISMATCH",
      "The permitted amount is not the quote's source amount.",
      {
        expected: built.amount,
        actual: sent.permitted.amount,
      },
    );
  if (anyAddressTo20(String(sent.spender)) !== built.escrow)
    throw createPermit2Error("PERMIT2_SPENDER_MISMATCH", "The message spender is not the escrow contract.", {
      actual: sent.spender,
    });
  if (parseUint(sent.nonce) !== built.nonce)
    throw createPermit2Error("PERMIT2_NONCE_MISMATCH", "The message nonce is not params_to_sign.nonce.", {
      expected: built.nonce,
      actual: sent.nonce,
    });
  if (parseUint(sent.deadline) !== built.deadline)
    throw createPermit2Error(
      "PERMIT2_DEADLINE_MISMATCH",
      "The message deadline is not the intent's deadline.",
      {
        expected: built.deadline,
        actual: sent.deadline,
      },
    );
}
