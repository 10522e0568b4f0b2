import { opcodes, script } from "bitcoinjs-lib";

/** Parameters of `buildHtlcLeaves`: what the two leaves lock. */
export interface BuildHtlcLeavesParameters {
  /** SHA-256 of the secret, 32 bytes. */
  secretHash: Uint8Array;
  /** The resolver's x-only claim key, 32 bytes. */
  resolverXOnly: Uint8Array;
  /** The user's x-only refund key, 32 bytes. */
  userXOnly: Uint8Array;
  /** The refund delay, in blocks (BIP-68). */
  csvBlocks: number;
}

/** What `buildHtlcLeaves` returns: the claim and refund leaf scripts. */
export interface BuildHtlcLeavesReturnType {
  claim: Uint8Array;
  refund: Uint8Array;
}

/**
 * `buildHtlcLeaves` checks nothing itself (it is the template, not a verifier): it throws only what
 * `bitcoinjs-lib`'s script compiler throws for a value it cannot encode.
 */
export type BuildHtlcLeavesErrorType = Error;

/**
 * Build the two tapscript leaves of the deposit HTLC (apps/docs/pages/reference/approvals.md, section htlc):
 * claim `OP_SHA256 <secret_hash> OP_EQUALVERIFY <resolver_xonly> OP_CHECKSIG` and
 * refund `<csv_blocks> OP_CHECKSEQUENCEVERIFY OP_DROP <user_xonly> OP_CHECKSIG`.
 *
 * @example
 * ```ts
 * import { buildHtlcLeaves } from "@swapintent/bitcoin";
 *
 * const { claim, refund } = buildHtlcLeaves({ secretHash, resolverXOnly, userXOnly, csvBlocks: 144 });
 * ```
 */
export function buildHtlcLeaves(parameters: BuildHtlcLeavesParameters): BuildHtlcLeavesReturnType {
  const args = parameters;
  const claim = script.compile([
    opcodes.OP_SHA256,
    args.secretHash,
    opcodes.OP_EQUALVERIFY,
    args.resolverXOnly,
    opcodes.OP_CHECKSIG,
  ]);
  const refund = script.compile([
    script.number.encode(args.csvBlocks),
    opcodes.OP_CHECKSEQUENCEVERIFY,
    opcodes.OP_DROP,
    args.userXOnly,
    opcodes.OP_CHECKSIG,
  ]);
  return { claim, refund };
}
