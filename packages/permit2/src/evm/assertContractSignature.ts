import type { HexString } from "@swapintent/client";
import {
  concat,
  decodeAbiParameters,
  encodeDeployData,
  isErc6492Signature,
  keccak256,
  parseErc6492Signature,
  stringToHex,
  zeroAddress,
} from "viem";
import { createPermit2Error } from "../internal/fail.js";
import { CONTRACT_SIGNATURE_PROBE_ABI, CONTRACT_SIGNATURE_PROBE_BYTECODE } from "./contractSignatureProbe.js";

/**
 * What reads the chain for a contract owner's signature: a viem `PublicClient` (or any viem client), or an
 * EIP-1193 provider. Only `eth_chainId`, `eth_getCode` and one `eth_call` without a target are sent.
 */
export interface Permit2ChainReader {
  /** An EIP-1193 request (`eth_getCode`, `eth_call`, `eth_chainId`): a viem PublicClient's or a provider's. */
  // biome-ignore lint/suspicious/noExplicitAny: a client's request type narrows method and params per method
  request(arguments_: { method: any; params?: any }): Promise<unknown>;
}

/** The most bytes a contract owner's signature may have (a WebAuthn signature wrapped in ERC-6492 fits well). */
export const MAX_CONTRACT_SIGNATURE_BYTES = 16_384;

/** ERC-1271's magic value: `isValidSignature(bytes32,bytes)`'s selector. */
const ERC1271_MAGIC_VALUE = "0x1626ba7e";

/** The code an EIP-7702 delegated EOA has: `0xef0100 ‖ delegate`. */
const DELEGATION_PREFIX = "0xef0100";

/** What the probe returns, in order. */
const PROBE_RESULT = [
  { type: "uint256" },
  { type: "bool" },
  { type: "bool" },
  { type: "uint256" },
  { type: "bytes4" },
  { type: "bytes4" },
] as const;

/** A fixed hash unrelated to any permit: a contract that says yes to it for this signature says yes to anything. */
export function getControlHash(digest: HexString): HexString {
  return keccak256(concat([stringToHex("swapintent/permit2/erc1271-control/"), digest]));
}

/**
 * What Permit2 does with a contract owner, checked against the chain before submission: the owner's ERC-1271
 * `isValidSignature(digest, signature)` must return the magic value (after the ERC-6492 factory call when the
 * owner is not deployed yet, and only when that call deploys exactly the owner), and must NOT return it for an
 * unrelated control hash. Returns the signature as the wallet gave it (lowercase hex; an ERC-6492 wrapper stays
 * wrapped: the service deploys the account before Permit2 runs). When the owner turns out to be an EOA (no code,
 * or an EIP-7702 delegation) and no contract was asserted, `ecdsaRefusal` is thrown: a key-held owner keeps the
 * ECDSA check.
 */
export async function assertContractSignature(input: {
  reader: Permit2ChainReader;
  owner20: HexString;
  digest: HexString;
  chainId: number;
  signature: unknown;
  /** The wallet said the owner is a contract: no code is then `no-code`, not the ECDSA refusal. */
  contractAsserted: boolean;
  /** The ECDSA check's refusal, thrown when the owner is a key-held account. */
  ecdsaRefusal: unknown;
}): Promise<HexString> {
  const { reader, owner20: owner, digest } = input;
  // Not even bounded hex: an EOA's refusal stands as it was; no chain is asked about garbage.
  if (!isBoundedHex(input.signature) && !input.contractAsserted) throw input.ecdsaRefusal;
  const signature = readBoundedHex(input.signature, owner);
  const ask = async (method: "eth_chainId" | "eth_getCode" | "eth_call", params?: unknown[]) => {
    try {
      return await reader.request(params === undefined ? { method } : { method, params });
    } catch (cause) {
      throw createPermit2Error(
        "PERMIT2_CONTRACT_CHECK_FAILED",
        `The chain could not be asked (${method}).`,
        { owner, method },
        cause,
      );
    }
  };
  const chainId = await ask("eth_chainId");
  if (typeof chainId !== "string" || !/^0x[0-9a-fA-F]{1,64}$/.test(chainId))
    throw createPermit2Error("PERMIT2_CONTRACT_CHECK_FAILED", "eth_chainId is not a hex quantity.", {
      owner,
      method: "eth_chainId",
    });
  if (BigInt(chainId) !== BigInt(input.chainId))
    throw createPermit2Error("PERMIT2_CHAIN_ID_MISMATCH", "The chain reader is connected to another chain.", {
      expected: input.chainId,
      actual: chainId,
    });
  const code = await ask("eth_getCode", [owner, "latest"]);
  if (typeof code !== "string")
    throw createPermit2Error("PERMIT2_CONTRACT_CHECK_FAILED", "eth_getCode returned no hex.", {
      owner,
      method: "eth_getCode",
    });
  // An EIP-7702 delegated EOA signs with its own key: the ECDSA check stands.
  if (code.toLowerCase().startsWith(DELEGATION_PREFIX) && !input.contractAsserted) throw input.ecdsaRefusal;
  const wrapped = isErc6492Signature(signature);
  if ((code === "0x" || code === "") && !wrapped) {
    if (!input.contractAsserted) throw input.ecdsaRefusal;
    throw createPermit2Error("PERMIT2_CONTRACT_SIGNATURE_INVALID", "The owner has no contract code.", {
      owner,
      reason: "no-code",
    });
  }
  const result = await probe({ ask, owner, digest, signature, wrapped });
  return judgeProbe({ result, owner, signature });
}

/** One `eth_call` of the probe's creation code: the factory call (if any), then both `isValidSignature` questions. */
async function probe(input: {
  ask: (method: "eth_call", params: unknown[]) => Promise<unknown>;
  owner: HexString;
  digest: HexString;
  signature: HexString;
  wrapped: boolean;
}): Promise<ProbeResult> {
  const { owner, digest } = input;
  const parts = input.wrapped
    ? parseErc6492Signature(input.signature)
    : { address: undefined, data: undefined, signature: input.signature };
  const factory = (parts.address ?? zeroAddress).toLowerCase() as HexString;
  const data = encodeDeployData({
    abi: CONTRACT_SIGNATURE_PROBE_ABI,
    bytecode: CONTRACT_SIGNATURE_PROBE_BYTECODE,
    args: [owner, digest, getControlHash(digest), parts.signature, factory, parts.data ?? "0x"],
  });
  const answer = await input.ask("eth_call", [{ data }, "latest"]);
  try {
    const [codeBefore, factoryCalled, factorySucceeded, codeAfter, forDigest, forControl] =
      decodeAbiParameters(PROBE_RESULT, answer as HexString);
    return { codeBefore, factoryCalled, factorySucceeded, codeAfter, forDigest, forControl, factory };
  } catch (cause) {
    throw createPermit2Error(
      "PERMIT2_CONTRACT_CHECK_FAILED",
      "The chain's answer is not the probe's result.",
      { owner, method: "eth_call" },
      cause,
    );
  }
}

interface ProbeResult {
  codeBefore: bigint;
  factoryCalled: boolean;
  factorySucceeded: boolean;
  codeAfter: bigint;
  forDigest: HexString;
  forControl: HexString;
  factory: HexString;
}

function judgeProbe({
  result,
  owner,
  signature,
}: {
  result: ProbeResult;
  owner: HexString;
  signature: HexString;
}): HexString {
  if (result.codeAfter === 0n) {
    if (result.factoryCalled)
      throw createPermit2Error(
        "PERMIT2_CONTRACT_DEPLOYMENT_MISMATCH",
        "The ERC-6492 factory call does not deploy the owner's account.",
        { owner, factory: result.factory, factorySucceeded: result.factorySucceeded },
      );
    throw createPermit2Error("PERMIT2_CONTRACT_SIGNATURE_INVALID", "The owner has no contract code.", {
      owner,
      reason: "no-code",
    });
  }
  if (result.forDigest.toLowerCase() !== ERC1271_MAGIC_VALUE)
    throw createPermit2Error(
      "PERMIT2_CONTRACT_SIGNATURE_INVALID",
      "The owner's contract refuses this signature for the permit.",
      { owner, reason: "rejected" },
    );
  if (result.forControl.toLowerCase() === ERC1271_MAGIC_VALUE)
    throw createPermit2Error(
      "PERMIT2_CONTRACT_SIGNATURE_INVALID",
      "The owner's contract accepts this signature for any hash: it does not commit to this permit.",
      { owner, reason: "accepts-any-hash" },
    );
  return signature;
}

function isBoundedHex(signature: unknown): signature is HexString {
  return (
    typeof signature === "string" &&
    signature.length <= 2 + 2 * MAX_CONTRACT_SIGNATURE_BYTES &&
    /^0x(?:[0-9a-fA-F]{2})+$/.test(signature)
  );
}

/** 0x hex of an even length, 1 to {@link MAX_CONTRACT_SIGNATURE_BYTES} bytes, lowercased. */
function readBoundedHex(signature: unknown, owner: HexString): HexString {
  if (!isBoundedHex(signature))
    throw createPermit2Error(
      "PERMIT2_CONTRACT_SIGNATURE_INVALID",
      `A contract signature is 1 to ${MAX_CONTRACT_SIGNATURE_BYTES} bytes of 0x hex.`,
      {
        owner,
        reason: "malformed",
        ...(typeof signature === "string" ? { length: Math.max(0, signature.length - 2) / 2 } : {}),
      },
    );
  return signature.toLowerCase() as HexString;
}
