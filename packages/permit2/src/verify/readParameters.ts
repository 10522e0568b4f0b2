import type { HexString } from "@swapintent/client";
import { anyAddressTo20, detectChainKind, toAddress20 } from "../address/addresses.js";
import { DEFAULT_MAX_DEADLINE_SECS } from "../constants.js";
import { createPermit2Error } from "../internal/fail.js";
import { snapshotInput } from "../internal/snapshotInput.js";
import type { VerifyPermit2ApprovalParameters } from "../types.js";
import { readExpectation } from "./readExpectation.js";
import { isDecimals, isObject } from "./values.js";

export type ReadParameters = ReturnType<typeof readParameters>;

/**
 * The parameters with defaults, each checked for shape: what the service sent (`PERMIT2_MECHANISM_MISMATCH`,
 * `PERMIT2_PARAMS_INVALID`) and the wallet's own input (`PERMIT2_EXPECTED_INVALID`).
 */
export function readParameters(input: VerifyPermit2ApprovalParameters) {
  // Every check below and the typed data read one copy, each value read once: an accessor or proxy in the input
  // cannot answer a check one way and the signing (or the summary) another.
  const parameters = snapshotInput(input) as VerifyPermit2ApprovalParameters;
  if (!isObject(parameters))
    throw createPermit2Error("PERMIT2_EXPECTED_INVALID", "parameters is not an object.", {
      field: "parameters",
    });
  const { intent, quote, expected } = parameters;
  const { params, additional } = readIntent(intent);
  readQuote(quote);
  const { destination } = readExpectation(expected);
  const { nowMs, maxDeadlineSecs, allowed } = readOptions(parameters);
  return { intent, quote, expected, params, additional, destination, nowMs, maxDeadlineSecs, allowed };
}

/** The intent uses `permit2` and its `params_to_sign` holds every part (`PERMIT2_PARAMS_INVALID`). */
function readIntent(intent: VerifyPermit2ApprovalParameters["intent"]) {
  if (!isObject(intent) || intent.approvalMechanism !== "permit2")
    throw createPermit2Error("PERMIT2_MECHANISM_MISMATCH", "The intent does not use a permit2 approval.", {
      approvalMechanism: isObject(intent) ? intent.approvalMechanism : undefined,
    });
  const params = intent.paramsToSign;
  const additional = isObject(params) ? params.additionalData : undefined;
  if (
    !isObject(params) ||
    !isObject(additional) ||
    !isObject(additional.domain) ||
    !isObject(additional.types) ||
    !isObject(additional.witness) ||
    typeof additional.witnessTypeString !== "string" ||
    typeof additional.witnessHash !== "string"
  )
    throw createPermit2Error(
      "PERMIT2_PARAMS_INVALID",
      "params_to_sign lacks domain, types, witness, witness_type_string or witness_hash.",
      { field: "params_to_sign" },
    );
  return { params, additional };
}

/** The quote is an object whose decimals the summary can format with (`PERMIT2_PARAMS_INVALID`). */
function readQuote(quote: unknown): void {
  if (!isObject(quote))
    throw createPermit2Error("PERMIT2_PARAMS_INVALID", "quote is not an object.", {
      field: "quote",
    });
  // The summary formats amounts with these: garbage must not pass.
  for (const field of ["sourceAmountDecimals", "destAmountDecimals"] as const) {
    const decimals: unknown = quote[field];
    if (!isDecimals(decimals))
      throw createPermit2Error("PERMIT2_PARAMS_INVALID", `quote.${field} is not an integer 0..255.`, {
        field: `quote.${field}`,
        value: typeof decimals === "bigint" ? `${decimals}` : decimals,
      });
  }
}

/** The caller's options with defaults: clock, deadline bound, allow list (`PERMIT2_EXPECTED_INVALID`). */
function readOptions(parameters: VerifyPermit2ApprovalParameters) {
  const invalid = (field: string, shortMessage: string) =>
    createPermit2Error("PERMIT2_EXPECTED_INVALID", `${field}${shortMessage}`, { field });
  const {
    allowedPermit2Addresses = [],
    maxDeadlineSecs = DEFAULT_MAX_DEADLINE_SECS,
    nowMs = Date.now(),
  } = parameters;
  if (typeof nowMs !== "number" || !Number.isFinite(nowMs))
    throw invalid("nowMs", " is not a finite number of milliseconds.");
  if (typeof maxDeadlineSecs !== "number" || !Number.isFinite(maxDeadlineSecs) || maxDeadlineSecs < 0)
    throw invalid("maxDeadlineSecs", " is not a non-negative number.");
  if (!Array.isArray(allowedPermit2Addresses)) throw invalid("allowedPermit2Addresses", " is not an array.");
  const allowed = new Set<HexString>();
  for (const address of allowedPermit2Addresses as unknown[]) {
    const address20 = typeof address === "string" ? anyAddressTo20(address) : null;
    if (address20 === null)
      throw invalid("allowedPermit2Addresses", " holds a value that is not an address.");
    allowed.add(address20);
  }
  return { nowMs, maxDeadlineSecs, allowed };
}
/** The address family, and the Permit2, escrow and token addresses as 20 bytes. */
export function readAddresses(input: ReadParameters) {
  const { params, expected, quote } = input;
  const kind = detectChainKind(params.permit2ContractAddress);
  if (kind === null)
    throw createPermit2Error(
      "PERMIT2_ADDRESS_INVALID",
      "permit2_contract_address is neither an EVM nor a Tron address.",
      { field: "permit2_contract_address", value: params.permit2ContractAddress },
    );
  if (expected.chainType !== undefined && expected.chainType !== kind)
    throw createPermit2Error(
      "PERMIT2_CHAIN_TYPE_MISMATCH",
      `The permit is for a ${kind} chain, the wallet expects ${expected.chainType}.`,
      { expected: expected.chainType, actual: kind },
    );
  return {
    kind,
    permit2: toAddress20(kind, params.permit2ContractAddress, "permit2_contract_address"),
    escrow: toAddress20(kind, params.escrowContractAddress, "escrow_contract_address"),
    token: toAddress20(kind, quote.sourceToken, "quote.sourceToken"),
  };
}
