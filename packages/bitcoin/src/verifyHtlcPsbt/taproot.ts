// Internal to `verifyHtlcPsbt`: output 0 as the Taproot HTLC, rebuilt from its BIP-371 fields (NUMS internal key,
// two leaves at depth 1) and the fields its leaves lock (secret hash, refund key, resolver key, CSV delay).
import { crypto as btcCrypto, type Psbt } from "bitcoinjs-lib";
import { NUMS_INTERNAL_KEY_HEX, TAPSCRIPT_LEAF_VERSION } from "../constants.js";
import { createBitcoinError } from "../errors.js";
import { bytesToHex, compactSize, compareBytes, equalBytes, hexToBytes } from "../internal/bytes.js";
import { escapeForDisplay } from "../internal/displaySafe.js";
import { parseHtlcLeaves } from "../parseHtlcLeaves.js";
import type { BitcoinEcc, HtlcOutput, HtlcPolicy } from "../types.js";
import { MAX_BIP68_BLOCKS } from "./common.js";

/** BIP-341 output script of `internalKey` with a two-leaf tree at depth 1 (public APIs only). */
function taprootScriptOf(args: {
  ecc: BitcoinEcc;
  internalKey: Uint8Array;
  leaves: [Uint8Array, Uint8Array];
}): Uint8Array | undefined {
  const leafHash = (leaf: Uint8Array) =>
    btcCrypto.taggedHash(
      "TapLeaf",
      Uint8Array.from([TAPSCRIPT_LEAF_VERSION, ...compactSize(leaf.length), ...leaf]),
    );
  const [a, b] = args.leaves.map(leafHash) as [Uint8Array, Uint8Array];
  const [first, second] = compareBytes(a, b) <= 0 ? [a, b] : [b, a];
  const root = btcCrypto.taggedHash("TapBranch", Uint8Array.from([...first, ...second]));
  const tweak = btcCrypto.taggedHash("TapTweak", Uint8Array.from([...args.internalKey, ...root]));
  const outputKey = args.ecc.xOnlyPointAddTweak(args.internalKey, tweak);
  return outputKey ? Uint8Array.from([0x51, 0x20, ...outputKey.xOnlyPubkey]) : undefined;
}

/** Output 0 as the HTLC: its tap tree and leaves (`readHtlcTree`), then the fields they lock (`assertHtlcFields`). */
export function readHtlcOutput(args: {
  ecc: BitcoinEcc;
  psbt: Psbt;
  output: { script: Uint8Array; value: bigint } | undefined;
  user: { xOnly: Uint8Array };
  policy: HtlcPolicy;
  secretHashHex: string;
}): HtlcOutput {
  const { output } = args;
  const data = args.psbt.data.outputs[0];
  if (!output || !data?.tapInternalKey || !data.tapTree) {
    throw createBitcoinError(
      "BTC_HTLC_MISSING",
      "Output 0 is not an HTLC: it carries no BIP-371 tapInternalKey and tapTree.",
      { output: 0 },
    );
  }
  const { claim, refund } = readHtlcTree({
    ecc: args.ecc,
    output,
    internalKey: data.tapInternalKey,
    leaves: data.tapTree.leaves,
  });
  const fields = parseHtlcLeaves({ claim, refund });
  if (!fields) {
    throw createBitcoinError(
      "BTC_HTLC_SCRIPT_MISMATCH",
      "The HTLC's leaves are not the documented claim and refund scripts.",
      { part: "leaves" },
    );
  }
  assertHtlcFields({ fields, user: args.user, policy: args.policy, secretHashHex: args.secretHashHex });
  return {
    outputIndex: 0,
    valueLots: output.value,
    script: output.script,
    ...fields,
    claimLeaf: claim,
    refundLeaf: refund,
  };
}

/**
 * The HTLC's Taproot commitment: the unspendable NUMS internal key, two tapscript leaves at depth 1, and an output
 * script that is the Taproot output of exactly those. Returns the two leaf scripts (claim, refund).
 */
function readHtlcTree(args: {
  ecc: BitcoinEcc;
  output: { script: Uint8Array };
  internalKey: Uint8Array;
  leaves: { depth: number; leafVersion: number; script: Uint8Array }[];
}): { claim: Uint8Array; refund: Uint8Array } {
  const { output, internalKey, leaves } = args;
  if (bytesToHex(internalKey) !== NUMS_INTERNAL_KEY_HEX) {
    throw createBitcoinError(
      "BTC_HTLC_INTERNAL_KEY_MISMATCH",
      "The HTLC's internal key is not the unspendable NUMS key, so someone could spend it by key path.",
      { tapInternalKey: bytesToHex(internalKey) },
    );
  }
  const [claimLeaf, refundLeaf] = leaves;
  if (
    leaves.length !== 2 ||
    !claimLeaf ||
    !refundLeaf ||
    leaves.some((l) => l.depth !== 1 || l.leafVersion !== TAPSCRIPT_LEAF_VERSION)
  ) {
    throw createBitcoinError(
      "BTC_HTLC_SCRIPT_MISMATCH",
      "The HTLC's tap tree is not two tapscript leaves at depth 1.",
      { part: "tree", leaves: leaves.length },
    );
  }
  // BIP-341: output key = internal key tweaked by the Merkle root of the two leaves.
  const rebuilt = taprootScriptOf({
    ecc: args.ecc,
    internalKey,
    leaves: [claimLeaf.script, refundLeaf.script],
  });
  if (!rebuilt || !equalBytes(rebuilt, output.script)) {
    throw createBitcoinError(
      "BTC_HTLC_SCRIPT_MISMATCH",
      "Output 0's script is not the Taproot output of its tapInternalKey and tapTree.",
      { part: "outputScript", script: bytesToHex(output.script) },
    );
  }
  return { claim: claimLeaf.script, refund: refundLeaf.script };
}

/**
 * What the leaves lock: the intent's secret hash, the user's refund key, the pinned resolver key (when the policy
 * sets one), and a refund delay within the policy's bounds.
 */
function assertHtlcFields(args: {
  fields: NonNullable<ReturnType<typeof parseHtlcLeaves>>;
  user: { xOnly: Uint8Array };
  policy: HtlcPolicy;
  secretHashHex: string;
}): void {
  const { fields, user, policy } = args;
  const expectedHash = hexToBytes(args.secretHashHex);
  if (!expectedHash || !equalBytes(fields.secretHash, expectedHash)) {
    throw createBitcoinError(
      "BTC_HTLC_SECRET_HASH_MISMATCH",
      "The claim leaf is locked to another secret hash.",
      {
        expected: escapeForDisplay(args.secretHashHex),
        actual: `0x${bytesToHex(fields.secretHash)}`,
      },
    );
  }
  if (!equalBytes(fields.userXOnly, user.xOnly)) {
    throw createBitcoinError("BTC_HTLC_REFUND_KEY_MISMATCH", "The refund leaf does not pay the user's key.", {
      expected: bytesToHex(user.xOnly),
      actual: bytesToHex(fields.userXOnly),
    });
  }
  if (policy.resolverPublicKey !== undefined) {
    const pinned = hexToBytes(policy.resolverPublicKey);
    const pinnedXOnly = pinned?.length === 33 ? pinned.slice(1) : pinned;
    if (!pinnedXOnly || !equalBytes(pinnedXOnly, fields.resolverXOnly)) {
      throw createBitcoinError(
        "BTC_HTLC_CLAIM_KEY_MISMATCH",
        "The claim leaf pays a key other than the resolver's.",
        {
          expected: policy.resolverPublicKey,
          actual: bytesToHex(fields.resolverXOnly),
        },
      );
    }
  }
  // Above 0xffff the number sets BIP-68 flag bits whatever the policy says: bit 22 turns blocks into 512-second
  // units, bit 31 disables the lock, and bits 16-21 are ignored (65542 would mean 6 blocks).
  if (
    fields.csvBlocks < policy.minCsvBlocks ||
    fields.csvBlocks > policy.maxCsvBlocks ||
    fields.csvBlocks > MAX_BIP68_BLOCKS
  ) {
    throw createBitcoinError(
      "BTC_HTLC_TIMELOCK_OUT_OF_BOUNDS",
      "The refund delay is outside the allowed bounds.",
      {
        csvBlocks: fields.csvBlocks,
        minCsvBlocks: policy.minCsvBlocks,
        maxCsvBlocks: policy.maxCsvBlocks,
      },
    );
  }
}
