/** One network of `GET /sandbox/chains`: the facts a wallet needs (RPC URL, Permit2 address, escrow, ...). */
export interface ChainFacts {
  network_id: number;
  name: string;
  type: string;
  approval_mechanism: string;
  info: Record<string, unknown>;
}

/** The sandbox's dev endpoints (`/sandbox/*`) the page uses to fund the wallets it generates. */
export interface DevApi {
  chains(): Promise<ChainFacts[]>;
  /** Mints `amount` (human units, a decimal string written into the JSON as a number, never through a float). */
  faucet(params: { networkId: number; address: string; token: string; amount: string }): Promise<void>;
}

/** Creates a {@link DevApi} over `fetch` for the sandbox at `baseUrl`. */
export function createDevApi(params: { baseUrl: string; apiKey: string }): DevApi {
  const call = async (method: "GET" | "POST", path: string, body?: string): Promise<unknown> => {
    const response = await fetch(new URL(path, params.baseUrl), {
      method,
      headers: {
        "x-api-key": params.apiKey,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body,
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
    return text === "" ? null : (JSON.parse(text) as unknown);
  };
  return {
    chains: async () => (await call("GET", "/sandbox/chains")) as ChainFacts[],
    faucet: async ({ networkId, address, token, amount }) => {
      if (!/^\d+(?:\.\d+)?$/.test(amount))
        throw new Error(`faucet amount must be a decimal string, got ${amount}`);
      await call(
        "POST",
        "/sandbox/faucet",
        `{"network_id":${networkId},"address":${JSON.stringify(address)},"token":${JSON.stringify(token)},"amount":${amount}}`,
      );
    },
  };
}
