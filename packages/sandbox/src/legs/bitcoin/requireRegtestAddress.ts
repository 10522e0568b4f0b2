import { LegRejection } from "../types.js";
import { scriptOfAddress } from "./scriptOfAddress.js";

/** The output script of a regtest P2WPKH or P2TR address; anything else: `ADDRESS_INVALID`. */
export function requireRegtestAddress(address: string): Uint8Array {
  const script = scriptOfAddress(address);
  if (!script)
    throw new LegRejection("ADDRESS_INVALID", "not a regtest P2WPKH (bcrt1q) or P2TR (bcrt1p) address");
  return script;
}
