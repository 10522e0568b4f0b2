import * as tinySecp256k1 from "tiny-secp256k1";
import {
  type CreateHtlcActionsErrorType,
  type CreateHtlcActionsReturnType,
  createHtlcActions,
} from "./createHtlcActions.js";
import { readRecord } from "./internal/readParameters.js";
import type { HtlcPolicyParameters } from "./types.js";

/** Parameters of `createNodeHtlcActions`. */
export interface CreateNodeHtlcActionsParameters {
  /** Limits for every `verify` and `sign`; each field left out (or `undefined`) takes its default. */
  policy?: HtlcPolicyParameters | undefined;
}

/** What `createNodeHtlcActions` returns: the same bound functions as `createHtlcActions`. */
export type CreateNodeHtlcActionsReturnType = CreateHtlcActionsReturnType;

/** What `createNodeHtlcActions` (and each bound function) may throw. */
export type CreateNodeHtlcActionsErrorType = CreateHtlcActionsErrorType;

/**
 * `createHtlcActions` with the Node default backend, `tiny-secp256k1` (WebAssembly, read from disk beside the
 * module: keep it external when bundling). Entry point `@swapintent/bitcoin/node`; browsers use the root entry
 * with `@bitcoinerlab/secp256k1` instead.
 *
 * @example
 * ```ts
 * import { createNodeHtlcActions } from "@swapintent/bitcoin/node";
 *
 * const bitcoin = createNodeHtlcActions({ policy: { maxFeeLots: 20_000n } });
 * const verified = bitcoin.verify({ intent, quote, userPublicKey: "02…" });
 * ```
 */
export function createNodeHtlcActions(
  parameters: CreateNodeHtlcActionsParameters = {},
): CreateNodeHtlcActionsReturnType {
  // Read once, like every function's parameters (a getter that throws is BTC_PARAMETER_INVALID).
  const { policy } = readRecord("", parameters) ?? {};
  return createHtlcActions({ ecc: tinySecp256k1, policy: policy as HtlcPolicyParameters | undefined });
}
