import type { Address, Hex } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import type { LegContext, NetworkType } from "../../types.js";

/** An ERC-20 the leg deploys (a `SandboxToken`). */
export interface Permit2LegTokenSpec {
  symbol: string;
  name: string;
  decimals: number;
  /** Wraps the native coin (WETH, WTRX): one lot of the token per `native.weiPerLot` engine wei. */
  wrapsNative: boolean;
}

/** How an EVM-engine leg differs per network type. */
export interface Permit2LegOptions {
  ctx: LegContext;
  type: Extract<NetworkType, "EVM" | "TRON">;
  /** The sandbox-only chain id of the anvil engine. */
  chainId: number;
  /** Network address (API form) to a 20-byte address, or undefined when invalid. */
  parseAddress: (address: string) => Address | undefined;
  /** 20-byte address to the network's API form. */
  formatAddress: (address: Address) => string;
  native: {
    symbol: string;
    name: string;
    decimals: number;
    contractAddress: string;
    wrappedSymbol: string;
    /**
     * Engine wei per lot of the native coin (the engine's native unit has 18 decimals): 1 for ETH, 10^12 for
     * TRX (6 decimals). Gas is paid in wei at EVM gas prices, so this keeps fees in the network's own scale.
     */
    weiPerLot: bigint;
  };
  erc20s: Permit2LegTokenSpec[];
}

/** What stays fixed for a permit2 leg across starts: its options, its two accounts and its state files. */
export interface Permit2LegSetup {
  options: Permit2LegOptions;
  /** Deploys Permit2, the tokens and the escrow (nonces 0..n+1), mints, and pays the native faucet. */
  deployer: PrivateKeyAccount;
  /** The escrow's operator: sends deposits, claims, refunds and deliveries; holds the inventory. */
  resolver: PrivateKeyAccount;
  /** The leg's own state file (saved after every write), or undefined for an in-memory engine. */
  statePath: string | undefined;
  /** anvil's periodic dump (a second line of defence), or undefined for an in-memory engine. */
  intervalStatePath: string | undefined;
  /** A prefix for log lines and errors: `EVM leg 1`. */
  label: string;
}

/** What a permit2 leg keeps per intent (stored by the core). */
export interface Permit2LegData {
  nonce: string;
  signature?: Hex;
  depositTxHash?: Hex;
}
