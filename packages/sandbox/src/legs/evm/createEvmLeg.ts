import { type Address, getAddress } from "viem";
import type { ChainLeg, LegContext } from "../types.js";
import { createPermit2Leg } from "./permit2Leg/createPermit2Leg.js";
import { EVM_NATIVE_TOKEN } from "./permit2Types.js";

/** Sandbox-only EVM chain ids per network id (apps/docs/pages/reference/approvals.md). */
const EVM_CHAIN_IDS: Record<number, number> = { 1: 1337001, 2: 1337002 };

/**
 * The EVM leg: anvil with the network's sandbox chain id (1337001 for network 1, 1337002 for network 2,
 * 1337000 + id otherwise), the real Permit2, the sandbox escrow and the tokens ETH (native, wraps to WETH),
 * WETH, USDC and USDT. Addresses are EIP-55 checksummed hex.
 */
export function createEvmLeg(ctx: LegContext): ChainLeg {
  return createPermit2Leg({
    ctx,
    type: "EVM",
    chainId: EVM_CHAIN_IDS[ctx.network.id] ?? 1_337_000 + ctx.network.id,
    parseAddress: parseEvmAddress,
    formatAddress: (address: Address) => getAddress(address),
    native: {
      symbol: "ETH",
      name: "Ether",
      decimals: 18,
      contractAddress: EVM_NATIVE_TOKEN,
      wrappedSymbol: "WETH",
      weiPerLot: 1n,
    },
    erc20s: [
      { symbol: "WETH", name: "Wrapped Ether", decimals: 18, wrapsNative: true },
      { symbol: "USDC", name: "USD Coin", decimals: 6, wrapsNative: false },
      { symbol: "USDT", name: "Tether USD", decimals: 6, wrapsNative: false },
    ],
  });
}

/** A 0x address: all lower or all upper case hex, or mixed case with a valid EIP-55 checksum. */
function parseEvmAddress(address: string): Address | undefined {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return undefined;
  const body = address.slice(2);
  const checksummed = getAddress(address);
  if (body === body.toLowerCase() || body === body.toUpperCase()) return checksummed;
  return checksummed === address ? checksummed : undefined;
}
