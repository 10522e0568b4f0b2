/**
 * A transaction is bounded before it is decoded: a legacy transaction of 64 000 account keys (4 MB of hex, within
 * the client's 8 MiB response cap) decoded in seconds, every key written as base58, although the network never
 * carries more than 1232 bytes. The work is counted, not timed: the refusal comes before any key is encoded as base58
 * (before the bound, 64 000 of them) and before more than 1232 bytes of hex are converted; error details escape at
 * most the characters they keep. The speed itself is measured by `pnpm bench` (`sign.bench.ts`).
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { recordPatternWork } from "../../testing/src/recordPatternWork.js";
import {
  type Chain,
  codeOf,
  compileHex,
  createChain,
  honestInstructions,
  verifyParams,
} from "../test/fixture.js";
import { base58Encode } from "./internal/base58.js";
import { decodeTransactionBytes } from "./internal/decodeTransaction.js";
import { bytesToHex, hexToBytes } from "./internal/hex.js";
import { isSolanaCosignError } from "./isSolanaCosignError.js";
import { verifyCosignTransaction } from "./verifyCosignTransaction.js";

/** 1232 bytes of hex, and room for the optional `0x` that the size check before the conversion allows. */
const MAX_HEX = 2 * 1233;

vi.mock("./internal/base58.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("./internal/base58.js")>();
  return { ...original, base58Encode: vi.fn(original.base58Encode) };
});
vi.mock("./internal/hex.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("./internal/hex.js")>();
  return { ...original, hexToBytes: vi.fn(original.hexToBytes) };
});

/** The longest hex text converted to bytes since the last clear. */
const longestHexDecoded = () =>
  Math.max(0, ...vi.mocked(hexToBytes).mock.calls.map(([text]) => String(text).length));

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
  beforeEach(() => {
    vi.mocked(base58Encode).mockClear();
    vi.mocked(hexToBytes).mockClear();
  });

  it("4 MB of hex from the service: SOL_TX_DECODE_FAILED before a byte is converted or a key encoded (2 to 3 s)", () => {
    const hex = bytesToHex(manyKeys(64_000));
    const params = verifyParams(chain, hex);
    vi.mocked(base58Encode).mockClear();
    vi.mocked(hexToBytes).mockClear();
    const code = codeOf(() => verifyCosignTransaction(params));
    expect(vi.mocked(base58Encode)).not.toHaveBeenCalled();
    expect(longestHexDecoded()).toBeLessThanOrEqual(MAX_HEX);
    expect(code).toBe("SOL_TX_DECODE_FAILED");
  });

  it("the same bytes from a wallet: refused before a key is encoded too", () => {
    const bytes = manyKeys(64_000);
    const reason = reasonOf(() => decodeTransactionBytes(bytes));
    expect(vi.mocked(base58Encode)).not.toHaveBeenCalled();
    expect(reason).toBe("larger than 1232 bytes");
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
    vi.mocked(hexToBytes).mockClear();
    expect(reasonOf(() => verifyCosignTransaction(verifyParams(chain, bytesToHex(padded(1233)))))).toBe(
      "larger than 1232 bytes",
    );
    expect(longestHexDecoded()).toBeLessThanOrEqual(MAX_HEX);
  });
});

describe("error details from service text are cut before they are escaped", () => {
  it("4 MB of bidi characters as the approval mechanism: refused with ~120 escapes, not 4 million (~3 s)", async () => {
    const chain = await createChain();
    const params = verifyParams(chain, compileHex(chain, honestInstructions(chain)));
    const intent = {
      ...params.intent,
      approvalMechanism: "\u202E".repeat(4_000_000),
    } as typeof params.intent;
    const { outcome, calls } = await recordPatternWork({
      run: () => verifyCosignTransaction({ ...params, intent }),
    });
    const error = "thrown" in outcome ? outcome.thrown : undefined;
    // escaping the whole text made a match per character: 4 000 000 calls
    expect(calls).toBeLessThan(10_000);
    expect(isSolanaCosignError(error, "SOL_MECHANISM_MISMATCH")).toBe(true);
    // the first 120 characters of the escaped text, then a mark that it was cut
    expect((error as { details: { approvalMechanism: string } }).details.approvalMechanism).toBe(
      `${"\\u{202E}".repeat(15)}…`,
    );
  });
});
