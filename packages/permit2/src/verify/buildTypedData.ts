import type { HexString, TypedDataField } from "@swapintent/client";
import * as AbiParameters from "ox/AbiParameters";
import * as Address from "ox/Address";
import * as Hash from "ox/Hash";
import * as OxHex from "ox/Hex";
import type { ChainKind } from "../address/addresses.js";
import { PERMIT2_PRIMARY_TYPE, PERMIT2_WITNESS_TYPE_STUB } from "../constants.js";
import type { Permit2Domain, Permit2Message, Permit2TypedData } from "../types.js";
import { hashPermit2Domain, hashTokenPermissions, hashTypeString } from "./hashParts.js";
import { copyTypes } from "./verifyWitness.js";

/** The typed data in the chain's form (for the wallet) and in the hashed form, and the digest of the latter. */
export function buildTypedData(input: {
  kind: ChainKind;
  chainId: number;
  /** Each address as [20 bytes, the form the service sent]. */
  permit2: [HexString, unknown];
  token: [HexString, unknown];
  escrow: [HexString, unknown];
  amount: bigint;
  nonce: bigint;
  deadlineSecs: number;
  witness: Record<string, bigint | string>;
  types: Record<string, TypedDataField[]>;
  witnessTypeString: string;
  witnessHash: HexString;
}): { typedData: Permit2TypedData; hashedTypedData: Permit2TypedData; digest: HexString } {
  const { kind, chainId, amount, nonce, deadlineSecs, witness, types, witnessTypeString, witnessHash } =
    input;
  const [permit2, permit2AsSent] = input.permit2;
  const [token, tokenAsSent] = input.token;
  const [escrow, escrowAsSent] = input.escrow;
  const display = (address20: HexString, original: unknown): string =>
    kind === "evm" ? Address.checksum(address20) : (original as string);
  const build = (form: "display" | "hashed"): Permit2TypedData => {
    const addr = (a20: HexString, original: unknown) =>
      form === "hashed" ? Address.checksum(a20) : display(a20, original);
    const domainOut: Permit2Domain = {
      name: "Permit2",
      chainId,
      verifyingContract: addr(permit2, permit2AsSent),
    };
    const message: Permit2Message = {
      permitted: { token: addr(token, tokenAsSent), amount },
      spender: addr(escrow, escrowAsSent),
      nonce,
      deadline: BigInt(deadlineSecs),
      witness: { ...witness },
    };
    return { domain: domainOut, types: copyTypes(types), primaryType: PERMIT2_PRIMARY_TYPE, message };
  };
  const typedData = build("display");
  const hashedTypedData = build("hashed");
  const digest = hashPermit2Digest({
    typedData: hashedTypedData,
    typeString: PERMIT2_WITNESS_TYPE_STUB + witnessTypeString,
    witnessHash,
  });
  return { typedData, hashedTypedData, digest };
}

/**
 * The EIP-712 digest `keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(permit))`, with the permit's struct hash
 * composed the way Permit2 computes it on chain: the type hash of `stub + witnessTypeString` and the already
 * verified witness hash (so the witness is hashed once). Tests check it equals ethers' and viem's full encoders.
 */
function hashPermit2Digest(input: {
  typedData: Permit2TypedData;
  typeString: string;
  witnessHash: HexString;
}): HexString {
  const { domain, message } = input.typedData;
  const permitted = hashTokenPermissions({
    token: message.permitted.token as HexString,
    amount: message.permitted.amount,
  });
  const permitHash = Hash.keccak256(
    AbiParameters.encode(
      [
        { type: "bytes32" },
        { type: "bytes32" },
        { type: "address" },
        { type: "uint256" },
        { type: "uint256" },
        { type: "bytes32" },
      ],
      [
        hashTypeString(input.typeString),
        permitted,
        message.spender as HexString,
        message.nonce,
        message.deadline,
        input.witnessHash,
      ],
    ),
  );
  const domainSeparator = hashPermit2Domain({
    ...domain,
    verifyingContract: domain.verifyingContract as HexString,
  });
  return Hash.keccak256(OxHex.concat("0x1901", domainSeparator, permitHash));
}
