import { type ChainLeg, LegRejection } from "../../types.js";
import { OPERATOR_NATIVE_BALANCE } from "./deployPermit2Contracts.js";
import type { Permit2Engine } from "./Permit2Engine.js";
import { parsePermit2Token, parseUserAddress } from "./tokens.js";

/** The most native coin one faucet call sends, wei: 10^12 ETH, or 10^12 TRX at Tron's scale. */
const MAX_NATIVE_FAUCET_WEI = 10n ** 30n;

/** `ChainLeg.faucet` of a permit2 leg: the deployer sends native coin (topped up first) or mints an ERC-20. */
export function faucetPermit2({
  engine,
  request,
}: {
  engine: Permit2Engine;
  request: Parameters<ChainLeg["faucet"]>[0];
}): Promise<{ txHash: string }> {
  return engine.serialize(async () => {
    const { options, deployer } = engine.setup;
    const recipient = parseUserAddress({ options, address: request.address, what: "address" });
    const token = parsePermit2Token({ options, token: request.token });
    if (token === "native") {
      const wei = request.amountLots * options.native.weiPerLot;
      // The operator is topped up by the amount first: keep it far inside uint256 (2^256-1 wei failed in anvil).
      if (wei > MAX_NATIVE_FAUCET_WEI)
        throw new LegRejection("AMOUNT_INVALID", "more than 10^30 wei (10^12 coins) at once");
      await engine.ensureNativeBalance({ address: deployer.address, minimum: OPERATOR_NATIVE_BALANCE + wei });
      return { txHash: await engine.sendNative({ from: deployer, to: recipient, value: wei }) };
    }
    const txHash = await engine.write({
      account: deployer,
      to: token,
      abi: engine.contracts.abis.token,
      functionName: "mint",
      args: [recipient, request.amountLots],
    });
    return { txHash };
  });
}
