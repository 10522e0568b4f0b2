import { opcodes, script } from "bitcoinjs-lib";
import { buildHtlcLeaves } from "./buildHtlcLeaves.js";
import { equalBytes } from "./internal/bytes.js";

/** Parameters of `parseHtlcLeaves`: the two leaf scripts of the HTLC's tap tree. */
export interface ParseHtlcLeavesParameters {
  claim: Uint8Array;
  refund: Uint8Array;
}

/** What `parseHtlcLeaves` returns: the fields both leaves lock, or null when either is not its template. */
export type ParseHtlcLeavesReturnType = {
  secretHash: Uint8Array;
  resolverXOnly: Uint8Array;
  userXOnly: Uint8Array;
  csvBlocks: number;
} | null;

/** `parseHtlcLeaves` throws nothing: a leaf that is not its template gives null. */
export type ParseHtlcLeavesErrorType = never;

/**
 * Read the claim and refund leaves of an HTLC. Returns null unless both are exactly the documented templates
 * (the parsed fields rebuild to the same bytes, so non-minimal encodings are refused too).
 *
 * @example
 * ```ts
 * import { parseHtlcLeaves } from "@swapintent/bitcoin";
 *
 * const fields = parseHtlcLeaves({ claim, refund });
 * if (fields) console.log(fields.csvBlocks);
 * ```
 */
export function parseHtlcLeaves(parameters: ParseHtlcLeavesParameters): ParseHtlcLeavesReturnType {
  // Each leaf read once into a copy: a getter that throws, a revoked proxy or anything but bytes is no leaf.
  const read = (key: keyof ParseHtlcLeavesParameters) => {
    try {
      const value: unknown = parameters[key];
      return value instanceof Uint8Array ? Uint8Array.from(value) : null;
    } catch {
      return null;
    }
  };
  const args = { claim: read("claim"), refund: read("refund") };
  if (!args.claim || !args.refund) return null;
  const claim = safeDecompile(args.claim);
  const refund = safeDecompile(args.refund);
  if (!claim || !refund || claim.length !== 5 || refund.length !== 5) return null;
  const [c0, secretHash, c2, resolverXOnly, c4] = claim;
  if (c0 !== opcodes.OP_SHA256 || c2 !== opcodes.OP_EQUALVERIFY || c4 !== opcodes.OP_CHECKSIG) return null;
  if (!(secretHash instanceof Uint8Array) || secretHash.length !== 32) return null;
  if (!(resolverXOnly instanceof Uint8Array) || resolverXOnly.length !== 32) return null;
  const [r0, r1, r2, userXOnly, r4] = refund;
  if (r1 !== opcodes.OP_CHECKSEQUENCEVERIFY || r2 !== opcodes.OP_DROP || r4 !== opcodes.OP_CHECKSIG)
    return null;
  if (!(userXOnly instanceof Uint8Array) || userXOnly.length !== 32) return null;
  let csvBlocks: number;
  if (r0 instanceof Uint8Array) {
    try {
      csvBlocks = script.number.decode(r0, 5);
    } catch {
      return null;
    }
  } else if (typeof r0 === "number" && r0 >= opcodes.OP_1 && r0 <= opcodes.OP_16) {
    csvBlocks = r0 - opcodes.OP_1 + 1;
  } else {
    return null;
  }
  if (csvBlocks <= 0) return null;
  const fields = { secretHash, resolverXOnly, userXOnly, csvBlocks };
  const rebuilt = buildHtlcLeaves(fields);
  if (!equalBytes(rebuilt.claim, args.claim) || !equalBytes(rebuilt.refund, args.refund)) return null;
  return fields;
}

function safeDecompile(bytes: Uint8Array): Array<number | Uint8Array> | null {
  try {
    return script.decompile(bytes);
  } catch {
    return null;
  }
}
