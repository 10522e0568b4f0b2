/**
 * The sandbox's own facts: which networks it runs, their tokens, and the Permit2, escrow and resolver addresses a
 * wallet must trust there. They come from `GET /sandbox/chains` (a sandbox started with `--dev`), never from a
 * quote or an intent; a wallet on a real network keeps the same facts in its own configuration.
 */

/** One network of `GET /sandbox/chains`. */
export interface SandboxChain {
  network_id: number;
  name: string;
  type: "EVM" | "TRON" | "BITCOIN" | "SOLANA";
  approval_mechanism: "permit2" | "htlc" | "cosign";
  /** The network's facts: `tokens` (symbol to address), and per type `chainId`, `rpcUrl`, `permit2Address`, ... */
  info: { tokens: Record<string, string> } & Record<string, unknown>;
}

/** Where the sandbox runs and the API key to send (the sandbox accepts any non-empty key by default). */
export interface SandboxParameters {
  baseUrl: string;
  apiKey: string;
}

/** Reads the network `networkId` of `GET /sandbox/chains`. */
export async function getSandboxChain({
  baseUrl,
  apiKey,
  networkId,
}: SandboxParameters & { networkId: number }): Promise<SandboxChain> {
  const response = await fetch(new URL("/sandbox/chains", baseUrl), { headers: { "x-api-key": apiKey } });
  if (!response.ok)
    throw new Error(`GET /sandbox/chains answered ${response.status}: start the sandbox with --dev`);
  const chains = (await response.json()) as SandboxChain[];
  const chain = chains.find((c) => c.network_id === networkId);
  if (chain === undefined) throw new Error(`the sandbox runs no network ${networkId}`);
  return chain;
}

/** Reads a fact of a network (`chainId`, `permit2Address`, `escrowAddress`, `escrowOwner`, ...) as a string. */
export function readChainFact(chain: SandboxChain, name: string): string {
  const value = chain.info[name];
  if (typeof value !== "string" && typeof value !== "number") throw new Error(`${chain.name} has no ${name}`);
  return String(value);
}

/** Mints `amount` (a decimal string, in the token's units) of `token` (an address or a symbol) to `address`. */
export async function fundFromFaucet({
  baseUrl,
  apiKey,
  networkId,
  address,
  token,
  amount,
}: SandboxParameters & { networkId: number; address: string; token: string; amount: string }): Promise<void> {
  // `amount` is a JSON number on the wire: its decimal text is written as given, never through a float.
  const body = `{"network_id":${networkId},"address":${JSON.stringify(address)},"token":${JSON.stringify(token)},"amount":${amount}}`;
  const response = await fetch(new URL("/sandbox/faucet", baseUrl), {
    method: "POST",
    headers: { "x-api-key": apiKey, "content-type": "application/json" },
    body,
  });
  if (!response.ok)
    throw new Error(`POST /sandbox/faucet answered ${response.status}: ${await response.text()}`);
}
