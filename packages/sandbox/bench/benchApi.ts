/**
 * The benchmarks' setup requests to a sandbox (measureService.ts, measurePostgres.ts): JSON calls as the `bench` key,
 * the quote body the load sends, and intents whose status and history the load reads.
 */

/** One JSON call to the sandbox; the parsed answer. */
export type BenchCall = (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;

/** The setup API of one sandbox: its JSON call and the quote body of the benchmarks. */
export interface BenchApi {
  call: BenchCall;
  /** 0.25 WETH on network 1 to USDC on network 5, with the token addresses the sandbox lists. */
  quoteBody: Record<string, unknown>;
}

/** Lists the sandbox's tokens at `url` and builds the quote body of the benchmarks. */
export async function createBenchApi(url: string): Promise<BenchApi> {
  const call: BenchCall = async (method, path, body) => {
    const r = await fetch(`${url}${path}`, {
      method,
      headers: { "x-api-key": "bench", "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await r.json()) as Record<string, unknown>;
  };
  const tokens = (await call("GET", "/affiliate/v1/tokens?limit=100")).data as {
    network_id: number;
    symbol: string;
    contract_address: string;
  }[];
  const token = (n: number, s: string) =>
    tokens.find((t) => t.network_id === n && t.symbol === s)!.contract_address;
  const quoteBody = {
    source_chain: 1,
    source_token: token(1, "WETH"),
    dest_chain: 5,
    dest_token: token(5, "USDC"),
    amount: 0.25,
    slippage_bps: "50",
    swap_type: "standard",
  };
  return { call, quoteBody };
}

/** Gets a quote and creates its intent, all from and to `address`; the intent's id. */
export async function createBenchIntent(api: BenchApi, address: string): Promise<string> {
  const quote = await api.call("POST", "/affiliate/v1/quotes/best", api.quoteBody);
  const intent = await api.call("POST", "/affiliate/v1/intents", {
    quote_id: quote.id,
    refund_address: address,
    user_source_address: address,
    user_destination_address: address,
  });
  return String(intent.intent_id);
}
