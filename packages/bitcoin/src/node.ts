import * as tinySecp256k1 from "tiny-secp256k1";
import { createBitcoinSigner } from "./createBitcoinSigner.js";
import type { HtlcPolicy } from "./types.js";

/**
 * `createBitcoinSigner` with the Node default backend, `tiny-secp256k1` (WebAssembly, read from disk beside the
 * module: keep it external when bundling). Entry point `@swapintent/bitcoin/node`; browsers use the root entry
 * with `@bitcoinerlab/secp256k1` instead.
 */
export function createNodeBitcoinSigner(
  args: { policy?: Partial<HtlcPolicy> } = {},
): ReturnType<typeof createBitcoinSigner> {
  return createBitcoinSigner({ ecc: tinySecp256k1, policy: args.policy });
}
