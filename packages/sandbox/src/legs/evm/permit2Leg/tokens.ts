import type { Address } from "viem";
import type { LegToken } from "../../types.js";
import { LegRejection } from "../../types.js";
import type { Permit2LegOptions } from "./types.js";

const ICON_BASE = "https://icons.swapintent.invalid";

/** A network token address (API form) to its 20-byte address, or "native". Unparseable: `INVALID_TOKEN`. */
export function parsePermit2Token({
  options,
  token,
}: {
  options: Permit2LegOptions;
  token: string;
}): Address | "native" {
  if (
    token === options.native.contractAddress ||
    token.toLowerCase() === options.native.contractAddress.toLowerCase()
  )
    return "native";
  const parsed = options.parseAddress(token);
  if (!parsed) throw new LegRejection("INVALID_TOKEN", `not a ${options.type} token address`);
  return parsed;
}

/** An ERC-20 source token; the native coin is refused (`NATIVE_SOURCE_UNSUPPORTED`): Permit2 moves only ERC-20s. */
export function parseSourceToken({ options, token }: { options: Permit2LegOptions; token: string }): Address {
  const parsed = parsePermit2Token({ options, token });
  if (parsed === "native")
    throw new LegRejection(
      "NATIVE_SOURCE_UNSUPPORTED",
      `wrap ${options.native.symbol} to ${options.native.wrappedSymbol} first`,
    );
  return parsed;
}

/** A user's address (API form) to its 20-byte address; invalid: `INVALID_ADDRESS` naming the field `what`. */
export function parseUserAddress({
  options,
  address,
  what,
}: {
  options: Permit2LegOptions;
  address: string;
  what: string;
}): Address {
  const parsed = options.parseAddress(address);
  if (!parsed) throw new LegRejection("INVALID_ADDRESS", `${what} is not a valid ${options.type} address`);
  return parsed;
}

/** The leg's catalogue: the native coin (wrapping to its ERC-20) first, then every deployed ERC-20. */
export function listPermit2LegTokens({
  options,
  tokens,
}: {
  options: Permit2LegOptions;
  tokens: ReadonlyMap<string, Address>;
}): LegToken[] {
  const addressOf = (symbol: string) => options.formatAddress(tokens.get(symbol) as Address);
  const native: LegToken = {
    symbol: options.native.symbol,
    name: options.native.name,
    decimals: options.native.decimals,
    contractAddress: options.native.contractAddress,
    wrappedTokenAddress: addressOf(options.native.wrappedSymbol),
    iconUrl: `${ICON_BASE}/${options.native.symbol.toLowerCase()}.svg`,
  };
  return [
    native,
    ...options.erc20s.map((spec) => ({
      symbol: spec.symbol,
      name: spec.name,
      decimals: spec.decimals,
      contractAddress: addressOf(spec.symbol),
      wrappedTokenAddress: null,
      iconUrl: `${ICON_BASE}/${spec.symbol.toLowerCase()}.svg`,
    })),
  ];
}
