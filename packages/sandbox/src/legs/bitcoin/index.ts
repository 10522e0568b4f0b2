import type { ChainLeg, LegContext } from "../types.js";
import { LegRejection } from "../types.js";

/**
 * Create the sandbox's Bitcoin leg: a regtest UTXO ledger whose spends are checked by bitcore-lib's
 * script interpreter. (Work in progress: the methods below are being filled in.)
 */
export function createBitcoinLeg(ctx: LegContext): ChainLeg {
  const notYet = async (): Promise<never> => {
    throw new LegRejection("NOT_IMPLEMENTED", "the Bitcoin leg is still being built");
  };
  return {
    type: "BITCOIN",
    approvalMechanism: "htlc",
    start: async () => {},
    stop: async () => {},
    tokens: () => [
      {
        symbol: "BTC",
        name: "Bitcoin",
        decimals: 8,
        contractAddress: "btc",
        wrappedTokenAddress: null,
        iconUrl: "",
      },
    ],
    info: () => ({ engine: "bitcore-lib interpreter + sandbox UTXO ledger", network: ctx.network.name }),
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
