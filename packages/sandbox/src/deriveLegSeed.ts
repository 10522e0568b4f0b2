import { createHmac } from "node:crypto";

/**
 * A leg's deterministic 32-byte seed: HMAC-SHA256 keyed with the sandbox master seed over
 * `swapintent/sandbox/leg/<network id>`, so every leg's keys and addresses survive a restart on the same data dir.
 */
export function deriveLegSeed({
  masterSeed,
  networkId,
}: {
  masterSeed: Uint8Array;
  networkId: number;
}): Uint8Array {
  return Uint8Array.from(
    createHmac("sha256", masterSeed).update(`swapintent/sandbox/leg/${networkId}`).digest(),
  );
}
