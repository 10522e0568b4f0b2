import type { Redactor } from "../redact.js";
import { createBitcoinWallet } from "./bitcoin.js";
import { createPermit2Wallet } from "./evm.js";
import { createSolanaWallet } from "./solana.js";
import type { ChainInfo, DemoWallet } from "./types.js";

/** Secrets for wallets that already hold funds (a real deployment); fresh keys are made when absent. */
export interface WalletKeys {
  evmPrivateKey?: string;
  tronPrivateKey?: string;
  bitcoinWif?: string;
  solanaSecretKey?: Uint8Array;
}

/** Reads wallet keys from the environment (never printed). */
export function walletKeysFromEnv(env: NodeJS.ProcessEnv): WalletKeys {
  const solana = env.SWAPINTENT_SOLANA_SECRET_KEY;
  return {
    evmPrivateKey: env.SWAPINTENT_EVM_PRIVATE_KEY || undefined,
    tronPrivateKey: env.SWAPINTENT_TRON_PRIVATE_KEY || undefined,
    bitcoinWif: env.SWAPINTENT_BTC_WIF || undefined,
    solanaSecretKey: solana ? Uint8Array.from(JSON.parse(solana) as number[]) : undefined,
  };
}

/** Creates the wallet for a network type from its chain facts. */
export function createWallet(params: {
  type: string;
  info: ChainInfo;
  redactor: Redactor;
  keys?: WalletKeys;
}): DemoWallet {
  const { type, info, redactor, keys = {} } = params;
  switch (type) {
    case "EVM":
      return createPermit2Wallet({ info, tron: false, redactor, privateKey: keys.evmPrivateKey });
    case "TRON":
      return createPermit2Wallet({ info, tron: true, redactor, privateKey: keys.tronPrivateKey });
    case "BITCOIN":
      return createBitcoinWallet({ info, redactor, wif: keys.bitcoinWif });
    case "SOLANA":
      return createSolanaWallet({ info, redactor, secretKey: keys.solanaSecretKey });
    default:
      throw new Error(`no demo wallet for network type ${type}`);
  }
}
