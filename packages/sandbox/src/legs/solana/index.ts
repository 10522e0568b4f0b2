import type { ChainLeg, LegContext } from "../types.js";
import { LegRejection } from "../types.js";

/**
 * Create the sandbox's Solana leg: litesvm in-process (signature verification on) with SPL Token,
 * USDC and wrapped SOL. (Work in progress: the methods below are being filled in.)
 */
export function createSolanaLeg(ctx: LegContext): ChainLeg {
  const notYet = async (): Promise<never> => {
    throw new LegRejection("NOT_IMPLEMENTED", "the Solana leg is still being built");
  };
  return {
    type: "SOLANA",
    approvalMechanism: "cosign",
    start: async () => {},
    stop: async () => {},
    tokens: () => [],
    info: () => ({ engine: "litesvm", network: ctx.network.name }),
    isValidAddress: () => false,
    publicKeyMatchesAddress: () => false,
    buildApproval: notYet,
    verifyApproval: notYet,
    deposit: notYet,
    claim: notYet,
    refund: notYet,
    deliver: notYet,
    inventory: async () => 0n,
    faucet: notYet,
    balanceOf: async () => 0n,
  };
}
