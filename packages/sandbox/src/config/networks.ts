import type { NetworkConfig } from "../legs/types.js";

const icon = (name: string) => `https://sandbox.swapintent.invalid/icons/${name}.svg`;

/** The sandbox catalogue (apps/docs/pages/reference/approvals.md): the service's own network ids 1..5. */
export const SANDBOX_NETWORKS: readonly NetworkConfig[] = Object.freeze([
  {
    id: 1,
    name: "Sandbox Ethereum",
    type: "EVM",
    supportsOptimizedSwap: false,
    supportsCustomTokens: false,
    iconUrl: icon("ethereum"),
  },
  {
    id: 2,
    name: "Sandbox L2",
    type: "EVM",
    supportsOptimizedSwap: false,
    supportsCustomTokens: true,
    iconUrl: icon("l2"),
  },
  {
    id: 3,
    name: "Sandbox Tron",
    type: "TRON",
    supportsOptimizedSwap: false,
    supportsCustomTokens: false,
    iconUrl: icon("tron"),
  },
  {
    id: 4,
    name: "Sandbox Bitcoin",
    type: "BITCOIN",
    supportsOptimizedSwap: false,
    supportsCustomTokens: false,
    iconUrl: icon("bitcoin"),
  },
  {
    id: 5,
    name: "Sandbox Solana",
    type: "SOLANA",
    supportsOptimizedSwap: false,
    supportsCustomTokens: false,
    iconUrl: icon("solana"),
  },
] satisfies NetworkConfig[]);
