import type { ChainLeg, LegContext } from "../types.js";
import { formatTronAddress } from "./formatTronAddress.js";
import { parseTronAddress } from "./parseTronAddress.js";
import { createPermit2Leg } from "./permit2Leg/createPermit2Leg.js";

/** Sandbox Tron chain id: `0x53414e44` ("SAND"). */
export const TRON_SANDBOX_CHAIN_ID = 1_396_788_804;

/** TRX's `contract_address`: the base58check form of the zero address, as Tron APIs commonly show the native coin. */
export const TRX_NATIVE_ADDRESS = "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb";

/** Engine wei per sun: the engine's native unit has 18 decimals, TRX has 6. */
export const TRX_WEI_PER_SUN = 10n ** 12n;

/**
 * The Tron leg: the same anvil engine with chain id 1396788804, the real Permit2 and the sandbox escrow,
 * tokens TRX (native, wraps to WTRX), WTRX and USDT. Every address it shows or accepts is base58check `T…`
 * (the 20-byte EVM address behind the `0x41` prefix, which is what TIP-712 hashes). One native TRX lot (sun,
 * 10^-6 TRX) is {@link TRX_WEI_PER_SUN} engine wei, so gas paid in wei at EVM prices costs a Tron-like amount of
 * TRX; WTRX wraps at the same scale (1 TRX in, 1,000,000 WTRX lots out).
 */
export function createTronLeg(ctx: LegContext): ChainLeg {
  return createPermit2Leg({
    ctx,
    type: "TRON",
    chainId: TRON_SANDBOX_CHAIN_ID,
    parseAddress: parseTronAddress,
    formatAddress: formatTronAddress,
    native: {
      symbol: "TRX",
      name: "Tronix",
      decimals: 6,
      contractAddress: TRX_NATIVE_ADDRESS,
      wrappedSymbol: "WTRX",
      weiPerLot: TRX_WEI_PER_SUN,
    },
    erc20s: [
      { symbol: "WTRX", name: "Wrapped TRX", decimals: 6, wrapsNative: true },
      { symbol: "USDT", name: "Tether USD", decimals: 6, wrapsNative: false },
    ],
  });
}
