import type { BaseClient, CallOptions } from "../client/types.js";
import { parseNetworks } from "../internal/wire.js";
import type { Network } from "../types.js";

/** Key of the networks catalogue in `client.cache`. */
export const networksCacheKey = "networks";

/**
 * Lists the supported networks (`GET /affiliate/v1/networks`). Always asks the service, and refreshes the
 * catalogue that `createIntent` consults to learn a source network's type.
 *
 * @example
 * const bitcoin = (await getNetworks(client)).find((network) => network.type === "BITCOIN");
 */
export async function getNetworks(client: BaseClient, params: CallOptions = {}): Promise<Network[]> {
  const networks = await client.request({
    method: "GET",
    path: "/affiliate/v1/networks",
    idempotent: true,
    parse: parseNetworks,
    signal: params.signal,
    timeoutMs: params.timeoutMs,
  });
  client.cache.set(networksCacheKey, Promise.resolve(networks));
  return networks;
}
