import type { Address, Hex } from "viem";
import type { LegIntent } from "../../types.js";
import { LegRejection } from "../../types.js";
import { getSwapWitness } from "../buildPermit2ParamsToSign.js";
import { getRevertName, mapRevertToRejection } from "../mapRevertToRejection.js";
import type { Permit2Engine } from "./Permit2Engine.js";
import { parseSourceToken, parseUserAddress } from "./tokens.js";
import type { Permit2LegData } from "./types.js";

/** The escrow `deposit` call for an intent and a signature: its token, the user, and its arguments. */
export function getPermit2DepositCall({
  engine,
  intent,
  data,
  signature,
}: {
  engine: Permit2Engine;
  intent: LegIntent;
  data: Permit2LegData;
  signature: Hex;
}) {
  const { options } = engine.setup;
  const token = parseSourceToken({ options, token: intent.sourceToken });
  const witness = getSwapWitness(intent);
  const owner = parseUserAddress({ options, address: intent.userSourceAddress, what: "user_source_address" });
  const permit = {
    permitted: { token, amount: intent.sourceAmountLots },
    nonce: BigInt(data.nonce),
    deadline: BigInt(intent.deadlineSecs),
  };
  return { token, owner, args: [permit, owner, witness, signature] as const };
}

/** Simulate the deposit at the sandbox clock's time; throws a LegRejection naming what would fail. */
export async function simulatePermit2Deposit(parameters: {
  engine: Permit2Engine;
  intent: LegIntent;
  data: Permit2LegData;
  signature: Hex;
}): Promise<void> {
  const { engine, intent } = parameters;
  const { client, contracts } = engine;
  const call = getPermit2DepositCall(parameters);
  try {
    await client.readContract({
      account: engine.setup.resolver.address,
      address: contracts.escrow,
      abi: contracts.abis.escrow,
      functionName: "deposit",
      args: call.args,
      blockOverrides: { time: await engine.simulationTime() },
    });
  } catch (error) {
    if (getRevertName(error) === "TRANSFER_FROM_FAILED")
      throw await explainTransferFailure({ engine, intent, token: call.token, owner: call.owner, error });
    throw mapRevertToRejection(error) ?? error;
  }
}

/** Why the token transfer into the escrow failed: the user's balance, their Permit2 allowance, or the token itself. */
async function explainTransferFailure({
  engine,
  intent,
  token,
  owner,
  error,
}: {
  engine: Permit2Engine;
  intent: LegIntent;
  token: Address;
  owner: Address;
  error: unknown;
}): Promise<LegRejection> {
  const { client, contracts } = engine;
  const abi = contracts.abis.token;
  const [balance, allowance] = (await Promise.all([
    client.readContract({ address: token, abi, functionName: "balanceOf", args: [owner] }),
    client.readContract({ address: token, abi, functionName: "allowance", args: [owner, contracts.permit2] }),
  ])) as [bigint, bigint];
  if (balance < intent.sourceAmountLots)
    return new LegRejection(
      "INSUFFICIENT_BALANCE",
      "the user's source balance is below the intent's amount",
      {
        cause: error,
      },
    );
  if (allowance < intent.sourceAmountLots)
    return new LegRejection(
      "INSUFFICIENT_ALLOWANCE",
      "the user has not approved Permit2 for the intent's amount",
      {
        cause: error,
      },
    );
  return new LegRejection("TRANSFER_FAILED", "the token transfer into the escrow failed", { cause: error });
}
