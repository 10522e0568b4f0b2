import { toLegDataJson } from "../../readLegData.js";
import type { ChainLeg, LegIntent } from "../../types.js";
import { LegRejection } from "../../types.js";
import { buildPermit2ParamsToSign } from "../buildPermit2ParamsToSign.js";
import type { Permit2Engine } from "./Permit2Engine.js";
import { parseSourceToken, parseUserAddress } from "./tokens.js";
import type { Permit2LegData } from "./types.js";

/**
 * `ChainLeg.buildApproval` of a permit2 leg: refuse a native or unknown source token and an invalid user address,
 * then the `params_to_sign` of apps/docs/pages/reference/approvals.md with a fresh random Permit2 nonce, which `legData` keeps.
 */
export async function buildPermit2Approval({
  engine,
  intent,
}: {
  engine: Permit2Engine;
  intent: LegIntent;
}): ReturnType<ChainLeg["buildApproval"]> {
  const { options, resolver } = engine.setup;
  const { permit2, escrow } = engine.contracts;
  const token = parseSourceToken({ options, token: intent.sourceToken });
  const code = await engine.client.getCode({ address: token });
  if (!code || code === "0x")
    throw new LegRejection("UNKNOWN_TOKEN", "the source token has no contract on this network");
  parseUserAddress({ options, address: intent.userSourceAddress, what: "user_source_address" });
  const nonce = randomNonce();
  const paramsToSign = buildPermit2ParamsToSign({
    intent,
    chainId: options.chainId,
    permit2,
    escrow,
    resolverDeposit: resolver.address,
    nonce,
    formatAddress: options.formatAddress,
  });
  const legData: Permit2LegData = { nonce: nonce.toString() };
  return { paramsToSign, legData: toLegDataJson(legData), proxyAddress: options.formatAddress(escrow) };
}

/** A random Permit2 nonce below 2^53 (it travels as a JSON number in `params_to_sign`). */
function randomNonce(): bigint {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  let value = 0n;
  for (const b of bytes) value = (value << 8n) | BigInt(b);
  return value & ((1n << 53n) - 1n);
}
