import type { Hex } from "viem";
import type { Json } from "../../types.js";
import type { Permit2Engine } from "./Permit2Engine.js";
import { createSmartAccount, getSmartAccountFactory } from "./smartAccounts.js";
import { parseUserAddress } from "./tokens.js";

/** The smart-account part of `GET /sandbox/chains`: the factory (its `createAccount(owner, salt)` is CREATE2). */
export function getSmartAccountInfo(engine: Permit2Engine): Record<string, Json> {
  const factory = getSmartAccountFactory(engine);
  if (factory === undefined) return {};
  return {
    smartAccountFactory: engine.setup.options.formatAddress(factory),
    smartAccountKind:
      "SandboxSmartAccount (ERC-1271; owner signs EIP-712 SandboxSmartAccountMessage(bytes32 hash))",
  };
}

/** `ChainLeg.smartAccount` of a permit2 leg, in the network's address form. */
export async function describeSmartAccount({
  engine,
  request,
}: {
  engine: Permit2Engine;
  request: { owner: string; salt: string; deploy: boolean };
}): Promise<Record<string, Json>> {
  const { options } = engine.setup;
  const owner = parseUserAddress({ options, address: request.owner, what: "owner" });
  if (!/^0x[0-9a-fA-F]{64}$/.test(request.salt))
    throw new Error("salt must be 32 bytes of 0x hex (the route checks it first)");
  const account = await createSmartAccount({
    engine,
    owner,
    salt: request.salt.toLowerCase() as Hex,
    deploy: request.deploy,
  });
  return {
    address: options.formatAddress(account.address),
    owner: options.formatAddress(owner),
    salt: request.salt.toLowerCase(),
    factory: options.formatAddress(account.factory),
    factory_data: account.factoryData,
    deployed: account.deployed,
    tx_hash: account.txHash ?? null,
  };
}
