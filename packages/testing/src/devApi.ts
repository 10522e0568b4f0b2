/**
 * The sandbox's dev endpoints (`/sandbox/*`), used by the demo to fund fresh wallets and read balances.
 * They exist only on a sandbox started with `dev: true` / `--dev`; a real deployment has none of them.
 */

/** One network of `GET /sandbox/chains`: the facts a wallet needs (RPC URL, Permit2 address, escrow, ...). */
export interface ChainFacts {
  network_id: number;
  name: string;
  type: string;
  approval_mechanism: string;
  info: Record<string, unknown>;
}

/** A typed view of the dev endpoints of one sandbox. */
export interface DevApi {
  chains(): Promise<ChainFacts[]>;
  /** Funds `address` with `amount` (human units, decimal string) of `token` (address or symbol). */
  faucet(params: { networkId: number; address: string; token: string; amount: string }): Promise<void>;
  /** Balance in lots. */
  balance(params: { networkId: number; address: string; token: string }): Promise<bigint>;
  setFaults(faults: { fail_delivery?: boolean; decline_all?: boolean }): Promise<void>;
  advanceClock(secs: number): Promise<void>;
}

/** Creates a {@link DevApi} for the sandbox at `baseUrl`. */
export function createDevApi(params: { baseUrl: string; apiKey: string }): DevApi {
  const call = async (method: "GET" | "POST", path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(new URL(path, params.baseUrl), {
      method,
      headers: {
        "x-api-key": params.apiKey,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
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
      // `amount` is a JSON number on the wire: write its text as given, never through a float.
      const body = `{"network_id":${networkId},"address":${JSON.stringify(address)},"token":${JSON.stringify(token)},"amount":${amount}}`;
      await call("POST", "/sandbox/faucet", body);
    },
    balance: async ({ networkId, address, token }) => {
      const query = new URLSearchParams({ network_id: String(networkId), address, token });
      const body = (await call("GET", `/sandbox/balance?${query}`)) as { balance_lots: string };
      return BigInt(body.balance_lots);
    },
    setFaults: async (faults) => {
      await call("POST", "/sandbox/faults", faults);
    },
    advanceClock: async (secs) => {
      await call("POST", "/sandbox/clock", { advance_secs: secs });
    },
  };
}
