import { maxUint256 } from "viem";
import type { ChainLeg } from "../../types.js";
import { getIntentIdBytes32 } from "../buildPermit2ParamsToSign.js";
import { EVM_NATIVE_TOKEN } from "../permit2Types.js";
import type { Permit2Engine } from "./Permit2Engine.js";
import { parsePermit2Token, parseUserAddress } from "./tokens.js";

/**
 * `ChainLeg.deliver` of a permit2 leg: the resolver pays the recipient through the escrow's `deliver` (native coin
 * as value, scaled to engine wei; an ERC-20 from its inventory, approving the escrow when its allowance ran low).
 * The escrow marks the intent delivered, so a retry after a crash answers with the `Delivered` event's transaction.
 */
export function deliverPermit2({
  engine,
  request,
}: {
  engine: Permit2Engine;
  request: Parameters<ChainLeg["deliver"]>[0];
}): Promise<{ txHash: string }> {
  return engine.serialize(async () => {
    const { client, contracts, setup } = engine;
    const { escrow, abis } = contracts;
    const { options, resolver } = setup;
    const intentId = getIntentIdBytes32(request.intentId);
    const recipient = parseUserAddress({ options, address: request.recipient, what: "recipient" });
    const token = parsePermit2Token({ options, token: request.token });
    const done = await client.readContract({
      address: escrow,
      abi: abis.escrow,
      functionName: "delivered",
      args: [intentId],
    });
    if (done === true) {
      const txHash = await engine.findEventTx({ eventName: "Delivered", intentId });
      if (txHash) return { txHash };
    }
    const deliver = { account: resolver, to: escrow, abi: abis.escrow, functionName: "deliver" } as const;
    if (token === "native") {
      const wei = request.amountLots * options.native.weiPerLot;
      return {
        txHash: await engine.write({
          ...deliver,
          args: [intentId, EVM_NATIVE_TOKEN, recipient, wei],
          value: wei,
        }),
      };
    }
    const allowance = (await client.readContract({
      address: token,
      abi: abis.token,
      functionName: "allowance",
      args: [resolver.address, escrow],
    })) as bigint;
    if (allowance < request.amountLots)
      await engine.write({
        account: resolver,
        to: token,
        abi: abis.token,
        functionName: "approve",
        args: [escrow, maxUint256],
      });
    return {
      txHash: await engine.write({ ...deliver, args: [intentId, token, recipient, request.amountLots] }),
    };
  });
}
