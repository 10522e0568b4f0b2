import type { HexString } from "@swapintent/client";
import { type ChainKind, toAddress20 } from "../address/addresses.js";
import { CANONICAL_PERMIT2_ADDRESS, TRON_CHAIN_ID_MASK } from "../constants.js";
import { createPermit2Error } from "../internal/fail.js";
import { DOMAIN_FIELDS } from "./assertTypes.js";
import { parseUint } from "./values.js";

/**
 * The domain holds exactly name `Permit2`, the wallet's chain id (Tron: masked) and the Permit2 contract, which is
 * canonical (EVM only) or allowed. Returns the chain id as signed.
 */
export function assertDomain(input: {
  domain: Record<string, unknown>;
  kind: ChainKind;
  expectedChainId: unknown;
  permit2: HexString;
  permit2ContractAddress: unknown;
  allowed: ReadonlySet<HexString>;
}): bigint {
  const { domain, kind, permit2, allowed } = input;
  const { expectedChainId: expectedChainIdInput, permit2ContractAddress } = input;
  const extraDomainKeys = Object.keys(domain).filter((key) => !DOMAIN_FIELDS.some((f) => f.name === key));
  if (
    extraDomainKeys.length > 0 ||
    !Object.hasOwn(domain, "chainId") ||
    !Object.hasOwn(domain, "verifyingContract")
  )
    throw createPermit2Error(
      "PERMIT2_DOMAIN_INVALID",
      "The domain must hold exactly name, chainId and verifyingContract.",
      { keys: Object.keys(domain) },
    );
  if (domain.name !== "Permit2")
    throw createPermit2Error("PERMIT2_DOMAIN_NAME_MISMATCH", 'The domain name is not "Permit2".', {
      expected: "Permit2",
      actual: domain.name,
    });
  const domainChainId = parseUint(domain.chainId);
  const expectedChainId = parseUint(expectedChainIdInput);
  if (domainChainId === null || domainChainId === 0n)
    throw createPermit2Error("PERMIT2_DOMAIN_INVALID", "The domain chainId is not a positive integer.", {
      chainId: domain.chainId,
    });
  const signedChainId = kind === "tron" ? domainChainId & TRON_CHAIN_ID_MASK : domainChainId;
  const walletChainId =
    expectedChainId === null
      ? null
      : kind === "tron"
        ? expectedChainId & TRON_CHAIN_ID_MASK
        : expectedChainId;
  if (walletChainId !== signedChainId)
    throw createPermit2Error(
      "PERMIT2_CHAIN_ID_MISMATCH",
      "The permit is for another chain than the wallet's.",
      {
        expected: expectedChainIdInput,
        actual: domain.chainId,
      },
    );
  if (signedChainId > BigInt(Number.MAX_SAFE_INTEGER))
    throw createPermit2Error("PERMIT2_DOMAIN_INVALID", "The domain chainId is too large.", {
      chainId: domain.chainId,
    });
  const verifyingContract = toAddress20(kind, domain.verifyingContract, "domain.verifyingContract");
  if (verifyingContract !== permit2)
    throw createPermit2Error(
      "PERMIT2_VERIFYING_CONTRACT_MISMATCH",
      "domain.verifyingContract differs from permit2_contract_address.",
      { verifyingContract: domain.verifyingContract, permit2ContractAddress },
    );
  // Canonical on EVM only: on Tron (a 0x41 address prefix) no Permit2 lives at those 20 bytes.
  if ((kind === "tron" || permit2 !== CANONICAL_PERMIT2_ADDRESS.toLowerCase()) && !allowed.has(permit2))
    throw createPermit2Error(
      "PERMIT2_CONTRACT_NOT_ALLOWED",
      "The Permit2 contract is neither the canonical deployment nor one the caller allowed.",
      { permit2ContractAddress },
    );
  return signedChainId;
}
