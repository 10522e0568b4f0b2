// What the Permit2 stand-ins share: their configuration, which the test injects before the stand-in script
// (`window.__permit2Standins[name]`): the wallet's own key (made by the test, which gives the one-time Permit2 allowance
// with it; never seen by the page), its chain, and the tamper the test asks for.
import type { Hex } from "viem";

/** How a stand-in misbehaves: sign with another key, for another chain, or return junk. */
export type Permit2Tamper = "none" | "otherKey" | "otherChain" | "junk";

export interface Permit2StandinConfig {
  privateKey: Hex;
  /** A second key, for `otherKey`. */
  otherPrivateKey: Hex;
  chainId: number;
  tamper: Permit2Tamper;
}

/** The names of the Permit2 stand-ins. */
export type Permit2StandinName = "ethereum" | "tronLink";

/** The configuration the test injected for the stand-in `name`. */
export function standinConfig(name: Permit2StandinName): Permit2StandinConfig {
  const all = (
    window as unknown as { __permit2Standins?: Partial<Record<Permit2StandinName, Permit2StandinConfig>> }
  ).__permit2Standins;
  const config = all?.[name];
  if (!config) throw new Error(`the ${name} stand-in has no configuration`);
  return config;
}

/** An EIP-1193 `ProviderRpcError`: an Error with a numeric `code`. */
export function rpcError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}
