import { anyAddressTo20 } from "../address/addresses.js";
import { createPermit2Error } from "../internal/fail.js";
import type { Permit2DestinationExpectation } from "../types.js";
import { isDecimals, isObject, isUint256, parseUint } from "./values.js";

/**
 * The wallet's own `expected` (a caller bug when wrong, so `PERMIT2_EXPECTED_INVALID`, never a mismatch code):
 * every given fact has the type and range its check compares with. Returns the parsed destination (null when
 * the wallet gave none).
 */
export function readExpectation(expected: unknown): { destination: Permit2DestinationExpectation | null } {
  // The wallet's own value is never echoed: a key pasted into the wrong field must not reach a log.
  const invalid = (field: string, shortMessage: string) =>
    createPermit2Error("PERMIT2_EXPECTED_INVALID", `expected${field}${shortMessage}`, {
      field: `expected${field}`,
    });
  if (!isObject(expected)) throw invalid("", " is required (an object).");
  const { chainId, recipient, spender, owner, chainType } = expected;
  const { sourceToken, sourceAmountLots, sourceDecimals } = expected;
  const chainIdValue = parseUint(chainId);
  if (chainIdValue === null || chainIdValue === 0n) throw invalid(".chainId", " is not a positive integer.");
  if (typeof recipient !== "string" || recipient.length === 0)
    throw invalid(".recipient", " is not a non-empty string.");
  const unchecked = isObject(spender) && spender.unchecked === true;
  if (!unchecked && (typeof spender !== "string" || anyAddressTo20(spender) === null))
    throw invalid(
      ".spender",
      " is required: pass the escrow contract the wallet trusts, or { unchecked: true } to skip the check.",
    );
  if (owner !== undefined && (typeof owner !== "string" || anyAddressTo20(owner) === null))
    throw invalid(".owner", " is not an address.");
  if (chainType !== undefined && chainType !== "evm" && chainType !== "tron")
    throw invalid(".chainType", ' is not "evm" or "tron".');
  if (sourceToken !== undefined && (typeof sourceToken !== "string" || anyAddressTo20(sourceToken) === null))
    throw invalid(".sourceToken", " is not an address.");
  if (sourceAmountLots !== undefined && !isUint256(sourceAmountLots, 1n))
    throw invalid(".sourceAmountLots", " is not a positive uint256 bigint.");
  if (sourceDecimals !== undefined && !isDecimals(sourceDecimals))
    throw invalid(".sourceDecimals", " is not an integer 0..255.");
  if (expected.digest !== undefined && !/^0x[0-9a-fA-F]{64}$/.test(expected.digest as string))
    throw invalid(".digest", " is not 32 bytes of 0x hex.");
  return { destination: readDestinationExpectation(expected.destination) };
}

/** Validates the wallet's `expected.destination` (its own facts); null when the wallet gave none. */
function readDestinationExpectation(value: unknown): Permit2DestinationExpectation | null {
  if (value === undefined) return null;
  const invalid = (field: string, shortMessage: string) =>
    createPermit2Error("PERMIT2_EXPECTED_INVALID", `expected.destination${field}${shortMessage}`, {
      field: `expected.destination${field}`,
    });
  if (!isObject(value)) throw invalid("", " is not an object.");
  const { network, networkType, token, decimals, minAmountLots } = value;
  if (!Number.isSafeInteger(network) || (network as number) < 0)
    throw invalid(".network", " is not a non-negative integer.");
  if (typeof token !== "string" || token.length === 0) throw invalid(".token", " is not a non-empty string.");
  if (!isDecimals(decimals)) throw invalid(".decimals", " is not an integer 0..255.");
  if (!isUint256(minAmountLots, 0n)) throw invalid(".minAmountLots", " is not a uint256 bigint.");
  if (
    networkType !== undefined &&
    (typeof networkType !== "string" || !/^[A-Z0-9_]{1,32}$/.test(networkType))
  )
    throw invalid(".networkType", ' is not a network type such as "EVM", "TRON", "BITCOIN" or "SOLANA".');
  return { network: network as number, networkType, token, decimals, minAmountLots };
}
