/**
 * The wallet shape the demo apps share (`apps/e2e` in Node, `apps/browser` in Chromium): one user's wallet on one
 * network. Each app adds its own `approve`, which goes through the network's signer package.
 */
export interface WalletBase {
  /** Network type: EVM, TRON, BITCOIN or SOLANA. */
  readonly type: string;
  readonly address: string;
  /** Hex without 0x, for sources that need `user_source_public_key` (Bitcoin, Solana). */
  readonly publicKeyHex: string | undefined;
  /** Native coin the wallet needs for its own transactions (e.g. gas for the Permit2 allowance), in human units. */
  readonly gasFunding: { token: string; amount: string } | null;
  /** Anything the wallet must do on chain before signing (EVM/Tron: the one-time Permit2 allowance). Returns a tx hash or null. */
  prepare(params: { token: string; amountLots: bigint }): Promise<string | null>;
}

/** Chain facts as `GET /sandbox/chains` lists them (`info`), or as a deployment's configuration gives them. */
export type ChainInfo = Record<string, unknown>;

/**
 * Reads a required fact (a string, or a number given as its decimal text) from chain facts.
 *
 * @throws Error naming the key when the fact is missing or of another type.
 */
export function readFact(info: ChainInfo, key: string): string {
  const value = info[key];
  if (typeof value !== "string" && typeof value !== "number") {
    throw new Error(`chain facts lack \`${key}\``);
  }
  return String(value);
}

/** Parameters of {@link createSignOnlyWalletBase}. */
export interface CreateSignOnlyWalletBaseParameters {
  /** Network type: BITCOIN or SOLANA. */
  type: string;
  address: string;
  /** Hex without 0x: the key the intent names as `user_source_public_key`. */
  publicKeyHex: string;
}

/**
 * The shared part of a wallet that does nothing on chain before signing (Bitcoin, Solana): no gas to fund,
 * nothing to prepare. The app adds its own `approve`.
 */
export function createSignOnlyWalletBase({
  type,
  address,
  publicKeyHex,
}: CreateSignOnlyWalletBaseParameters): WalletBase {
  return { type, address, publicKeyHex, gasFunding: null, prepare: async () => null };
}
