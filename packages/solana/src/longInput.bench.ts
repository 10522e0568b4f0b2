/**
 * What a refusal of oversized or long hostile input costs: a legacy transaction of 64 000 account keys (4 MB of
 * hex) once decoded in 2 to 3 s, and a 4 MB detail took ~3 s to escape. `slowInput.test.ts` bounds the work of each
 * (no key encoded, no more than 1233 bytes of hex converted, matches bounded); this measures the time. Run with
 * `pnpm bench` in this package.
 */
import { bench, describe } from "vitest";
import { compileHex, createChain, honestInstructions, verifyParams } from "../test/fixture.js";
import { decodeTransactionBytes } from "./internal/decodeTransaction.js";
import { bytesToHex } from "./internal/hex.js";
import { verifyCosignTransaction } from "./verifyCosignTransaction.js";

/** A canonical legacy transaction: one empty signature slot, `keys` distinct static keys, no instruction. */
function manyKeys(keys: number): Uint8Array {
  const bytes = new Uint8Array(1 + 64 + 3 + 3 + 32 * keys + 32 + 1);
  bytes[0] = 1;
  bytes.set([1, 0, 0], 65);
  bytes.set([(keys & 0x7f) | 0x80, ((keys >> 7) & 0x7f) | 0x80, keys >> 14], 68);
  for (let k = 0, at = 71; k < keys; k++, at += 32) bytes.set([k & 0xff, k >> 8, 7], at);
  return bytes;
}

/** Runs `run`, which must refuse; a pass is a broken bench, not a fast one. */
function refuse(run: () => unknown): void {
  try {
    run();
  } catch {
    return;
  }
  throw new Error("expected a refusal");
}

const chain = await createChain();
const oversized = manyKeys(64_000);
const oversizedParams = verifyParams(chain, bytesToHex(oversized));
const honestParams = verifyParams(chain, compileHex(chain, honestInstructions(chain)));
const longMechanism = {
  ...honestParams.intent,
  approvalMechanism: "\u202E".repeat(4_000_000),
} as typeof honestParams.intent;
const options = { time: 500 };

describe("refusing oversized or long hostile input", () => {
  bench(
    "4 MB of hex (64 000 keys) from the service",
    () => refuse(() => verifyCosignTransaction(oversizedParams)),
    options,
  );
  bench("the same bytes from a wallet", () => refuse(() => decodeTransactionBytes(oversized)), options);
  bench(
    "4 MB of bidi characters as the approval mechanism",
    () => refuse(() => verifyCosignTransaction({ ...honestParams, intent: longMechanism })),
    options,
  );
});
