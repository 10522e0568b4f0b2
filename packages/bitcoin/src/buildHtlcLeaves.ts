import { opcodes, script } from "bitcoinjs-lib";

/**
 * Build the two tapscript leaves of the deposit HTLC (docs/approvals.md, section htlc):
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
export function buildHtlcLeaves(args: {
  secretHash: Uint8Array;
  resolverXOnly: Uint8Array;
  userXOnly: Uint8Array;
  csvBlocks: number;
}): { claim: Uint8Array; refund: Uint8Array } {
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
