import type { Permit2Engine } from "./Permit2Engine.js";
import { parsePermit2Token, parseUserAddress } from "./tokens.js";

/** `ChainLeg.balanceOf` of a permit2 leg: native coin in whole lots (engine wei rounded down), an ERC-20 in its lots. */
export async function getPermit2Balance({
  engine,
  address,
  token,
}: {
  engine: Permit2Engine;
  address: string;
  token: string;
}): Promise<bigint> {
  const { options } = engine.setup;
  const owner = parseUserAddress({ options, address, what: "address" });
  const parsed = parsePermit2Token({ options, token });
  if (parsed === "native")
    return (await engine.client.getBalance({ address: owner })) / options.native.weiPerLot;
  return (await engine.client.readContract({
    address: parsed,
    abi: engine.contracts.abis.token,
    functionName: "balanceOf",
    args: [owner],
  })) as bigint;
}
