import type { BaseClient, CallOptions } from "../client/types.js";
import type { RequestError } from "../errors/codes.js";
import { parseNetworks } from "../internal/wire.js";
import type { Network } from "../types.js";

/** Key of the networks catalogue in `client.cache`. */
export const networksCacheKey = "networks";

/** Parameters of {@link getNetworks}: only the per-call options. */
export type GetNetworksParameters = CallOptions;

/** What {@link getNetworks} returns (awaited). */
export type GetNetworksReturnType = Network[];

/** The errors {@link getNetworks} can throw. */
export type GetNetworksErrorType = RequestError;

/**
 * Lists the supported networks (`GET /affiliate/v1/networks`). Always asks the service, and refreshes the
 * catalogue that `createIntent` consults to learn a source network's type.
 *
 * @example
 * const bitcoin = (await getNetworks(client)).find((network) => network.type === "BITCOIN");
 */
export async function getNetworks(
  client: BaseClient,
  parameters: GetNetworksParameters = {},
): Promise<GetNetworksReturnType> {
  const networks = await client.request({
    method: "GET",
    path: "/affiliate/v1/networks",
    idempotent: true,
    parse: parseNetworks,
    signal: parameters.signal,
    timeoutMs: parameters.timeoutMs,
  });
  client.cache.set(networksCacheKey, Promise.resolve(networks));
  return networks;
}
