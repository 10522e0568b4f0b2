/**
 * A transaction is bounded before it is decoded: a legacy transaction of 64 000 account keys (4 MB of hex, within
 * the client's 8 MiB response cap) decoded in seconds, every key written as base58, although the network never
 * carries more than 1232 bytes. The bound is generous (refusing takes well under a millisecond); before the fix the
 * public case took 2 to 3 s.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  type Chain,
  codeOf,
  compileHex,
  createChain,
  honestInstructions,
  verifyParams,
} from "../test/fixture.js";
import { decodeTransactionBytes } from "./internal/decodeTransaction.js";
import { bytesToHex, hexToBytes } from "./internal/hex.js";
import { isSolanaCosignError } from "./isSolanaCosignError.js";
import { verifyCosignTransaction } from "./verifyCosignTransaction.js";

/** A canonical legacy transaction: one empty signature slot, `keys` distinct static keys, no instruction. */
function manyKeys(keys: number): Uint8Array {
  const bytes = new Uint8Array(1 + 64 + 3 + 3 + 32 * keys + 32 + 1);
  let at = 0;
  bytes[at++] = 1; // one signature slot
  at += 64;
  bytes.set([1, 0, 0], at); // header: one signer
  at += 3;
  bytes.set([(keys & 0x7f) | 0x80, ((keys >> 7) & 0x7f) | 0x80, keys >> 14], at); // shortvec, 3 bytes
  at += 3;
  for (let k = 0; k < keys; k++, at += 32) bytes.set([k & 0xff, k >> 8, 7], at);
  return bytes; // blockhash all zeros, then zero instructions
}

/** The `details.reason` of the decode refusal `run` throws, or what happened instead. */
function reasonOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return isSolanaCosignError(error, "SOL_TX_DECODE_FAILED") ? error.details.reason : error;
  }
  return "decoded";
}

describe("a transaction larger than the network carries is refused before it is decoded", () => {
  let chain: Chain;
  beforeAll(async () => {
    chain = await createChain();
  });

  it("4 MB of hex from the service: SOL_TX_DECODE_FAILED at once (decoding took 2 to 3 s)", () => {
    const hex = bytesToHex(manyKeys(64_000));
    const started = performance.now();
    expect(codeOf(() => verifyCosignTransaction(verifyParams(chain, hex)))).toBe("SOL_TX_DECODE_FAILED");
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("the same bytes from a wallet: refused at once too", () => {
    const bytes = manyKeys(64_000);
    const started = performance.now();
    expect(reasonOf(() => decodeTransactionBytes(bytes))).toBe("larger than 1232 bytes");
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("1232 bytes are read, 1233 are not; an honest transaction still verifies", () => {
    const honest = compileHex(chain, honestInstructions(chain));
    expect(() => verifyCosignTransaction(verifyParams(chain, honest))).not.toThrow();
    // the honest transaction padded to exactly the limit: read (and refused for its trailing bytes)
    const padded = (length: number) => {
      const bytes = new Uint8Array(length);
      bytes.set(hexToBytes(honest));
      return bytes;
    };
    expect(reasonOf(() => decodeTransactionBytes(padded(1232)))).toBe("not canonical");
    expect(reasonOf(() => decodeTransactionBytes(padded(1233)))).toBe("larger than 1232 bytes");
    expect(reasonOf(() => verifyCosignTransaction(verifyParams(chain, bytesToHex(padded(1233)))))).toBe(
      "larger than 1232 bytes",
    );
  });
});

describe("error details from service text are cut before they are escaped", () => {
  it("4 MB of bidi characters as the approval mechanism: refused at once (escaping all of it took ~3 s)", async () => {
    const chain = await createChain();
    const params = verifyParams(chain, compileHex(chain, honestInstructions(chain)));
    const intent = {
      ...params.intent,
      approvalMechanism: "\u202E".repeat(4_000_000),
    } as typeof params.intent;
    const started = performance.now();
    const error = (() => {
      try {
        verifyCosignTransaction({ ...params, intent });
      } catch (caught) {
        return caught;
      }
    })();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(isSolanaCosignError(error, "SOL_MECHANISM_MISMATCH")).toBe(true);
    // the first 120 characters of the escaped text, then a mark that it was cut
    expect((error as { details: { approvalMechanism: string } }).details.approvalMechanism).toBe(
      `${"\\u{202E}".repeat(15)}…`,
    );
  });
});
