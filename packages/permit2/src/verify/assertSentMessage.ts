import type { HexString } from "@swapintent/client";
import { anyAddressTo20, type ChainKind, toAddress20 } from "../address/addresses.js";
import { createPermit2Error } from "../internal/fail.js";
import { WITNESS_FIELDS } from "./assertTypes.js";
import { isObject, parseUint } from "./values.js";

/**
 * A message some deployments send along (`additional_data.message`): never signed (the signed message is built
 * from what was verified), but when sent it must be that message, all of it: permitted token and amount, spender,
 * nonce, deadline (each with its own mismatch code), then no member the permit does not declare and the witness
 * equal, field by field, to the verified one (`PERMIT2_MESSAGE_MISMATCH`).
 */
export function assertSentMessage(
  additional: Record<string, unknown>,
  kind: ChainKind,
  built: {
    token: HexString;
    amount: bigint;
    escrow: HexString;
    nonce: bigint;
    deadline: bigint;
    witness: Readonly<Record<string, bigint | string>>;
  },
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
  assertSentMembers(sent, built.witness);
}

const MESSAGE_MEMBERS = ["permitted", "spender", "nonce", "deadline", "witness"];
const PERMITTED_MEMBERS = ["token", "amount"];

/** The sent message declares exactly the permit's members, and its witness is the verified one. */
function assertSentMembers(
  sent: Record<string, unknown>,
  witness: Readonly<Record<string, bigint | string>>,
): void {
  const mismatch = (field: string, actual: unknown, expected?: unknown) =>
    createPermit2Error(
      "PERMIT2_MESSAGE_MISMATCH",
      `additional_data.${field} is not the message that is signed.`,
      expected === undefined ? { field, actual } : { field, expected, actual },
    );
  const extra = (value: Record<string, unknown>, known: readonly string[]) =>
    Object.keys(value).filter((key) => !known.includes(key));
  const extraMembers = extra(sent, MESSAGE_MEMBERS);
  if (extraMembers.length > 0) throw mismatch("message", extraMembers);
  const extraPermitted = extra(sent.permitted as Record<string, unknown>, PERMITTED_MEMBERS);
  if (extraPermitted.length > 0) throw mismatch("message.permitted", extraPermitted);
  const sentWitness = sent.witness;
  if (!isObject(sentWitness)) throw mismatch("message.witness", typeof sentWitness);
  const extraWitness = extra(sentWitness, Object.keys(WITNESS_FIELDS));
  if (extraWitness.length > 0) throw mismatch("message.witness", extraWitness);
  for (const [name, type] of Object.entries(WITNESS_FIELDS)) {
    const value = sentWitness[name];
    const same =
      type === "uint256"
        ? parseUint(value) === witness[name]
        : type === "bytes32"
          ? typeof value === "string" && value.toLowerCase() === witness[name]
          : value === witness[name];
    if (!same) throw mismatch(`message.witness.${name}`, value, witness[name]);
  }
}
