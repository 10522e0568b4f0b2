import { type Address, type Hex, hashStruct, pad } from "viem";
import type { Json, LegIntent } from "../types.js";
import { LegRejection } from "../types.js";
import { PERMIT2_DOMAIN_FIELDS, PERMIT2_WITNESS_TYPES, SWAP_WITNESS_TYPE_STRING } from "./permit2Types.js";

/** The SwapWitness as EIP-712 data (bigints for uint256). */
export interface SwapWitnessData {
  intentId: Hex;
  secretHash: Hex;
  destChain: bigint;
  destToken: string;
  recipient: string;
  minDestAmount: bigint;
  maxDestAmount: bigint;
}

/** The intent's 16 UUID bytes, left-padded with zeros to 32 bytes. */
export function getIntentIdBytes32(intentId: string): Hex {
  if (!/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(intentId)) {
    throw new LegRejection("INVALID_INTENT_ID", "the intent id is not a UUID");
  }
  return pad(`0x${intentId.replaceAll("-", "").toLowerCase()}`, { size: 32 });
}

/** The SwapWitness an intent commits to. */
export function getSwapWitness(intent: LegIntent): SwapWitnessData {
  if (!/^0x[0-9a-fA-F]{64}$/.test(intent.secretHash))
    throw new LegRejection("INVALID_SECRET_HASH", "secret hash is not 32 bytes of hex");
  return {
    intentId: getIntentIdBytes32(intent.intentId),
    secretHash: intent.secretHash.toLowerCase() as Hex,
    destChain: BigInt(intent.destChain),
    destToken: intent.destToken,
    recipient: intent.userDestinationAddress,
    minDestAmount: intent.minDestAmountLots,
    maxDestAmount: intent.maxDestAmountLots,
  };
}

/**
 * Build the wire `params_to_sign` of a permit2 approval exactly as apps/docs/pages/reference/approvals.md describes it.
 * `formatAddress` renders addresses for the network (checksummed hex on EVM, base58 `T…` on Tron).
 */
export function buildPermit2ParamsToSign(request: {
  intent: LegIntent;
  chainId: number;
  permit2: Address;
  escrow: Address;
  resolverDeposit: Address;
  nonce: bigint;
  formatAddress: (address: Address) => string;
}): Json {
  const { intent, formatAddress } = request;
  const witness = getSwapWitness(intent);
  const witnessHash = hashStruct({ data: witness, primaryType: "SwapWitness", types: PERMIT2_WITNESS_TYPES });
  const permit2 = formatAddress(request.permit2);
  const types: Record<string, Json> = {
    EIP712Domain: PERMIT2_DOMAIN_FIELDS.map((f) => ({ ...f })),
  };
  for (const [name, fields] of Object.entries(PERMIT2_WITNESS_TYPES))
    types[name] = fields.map((f) => ({ ...f }));
  return {
    escrow_contract_address: formatAddress(request.escrow),
    permit2_contract_address: permit2,
    resolver_deposit_address: formatAddress(request.resolverDeposit),
    nonce: Number(request.nonce),
    additional_data: {
      domain: { name: "Permit2", chainId: request.chainId, verifyingContract: permit2 },
      types,
      witness: {
        intentId: witness.intentId,
        secretHash: witness.secretHash,
        destChain: witness.destChain.toString(),
        destToken: witness.destToken,
        recipient: witness.recipient,
        minDestAmount: witness.minDestAmount.toString(),
        maxDestAmount: witness.maxDestAmount.toString(),
      },
      secretHash: witness.secretHash,
      witness_type_string: SWAP_WITNESS_TYPE_STRING,
      witness_hash: witnessHash,
    },
  };
}
