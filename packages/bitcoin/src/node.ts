import * as tinySecp256k1 from "tiny-secp256k1";
import { type BitcoinSigner, createBitcoinSigner } from "./createBitcoinSigner.js";
import type { HtlcPolicyParameters } from "./types.js";

/**
 * `createBitcoinSigner` with the Node default backend, `tiny-secp256k1` (WebAssembly, read from disk beside the
 * module: keep it external when bundling). Entry point `@swapintent/bitcoin/node`; browsers use the root entry
 * with `@bitcoinerlab/secp256k1` instead.
 *
 * @example
 * ```ts
 * import { createNodeBitcoinSigner } from "@swapintent/bitcoin/node";
 *
 * const bitcoin = createNodeBitcoinSigner({ policy: { maxFeeLots: 20_000n } });
 * const verified = bitcoin.verify({ intent, quote, userPublicKey: "02…" });
 * ```
 */
export function createNodeBitcoinSigner(
  args: { policy?: HtlcPolicyParameters | undefined } = {},
): BitcoinSigner {
  return createBitcoinSigner({ ecc: tinySecp256k1, policy: args.policy });
}
