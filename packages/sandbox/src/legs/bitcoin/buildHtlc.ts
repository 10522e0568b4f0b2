// Deliberately written apart from @swapintent/bitcoin's HTLC builder: the service and the signer that checks it must not share a bug.
import { opcodes, payments, script } from "bitcoinjs-lib";

/** BIP-341 NUMS point (no known private key): the HTLC's internal key, so it has no key path. */
export const NUMS_KEY_HEX = "50929b74c1a04954b78b4b6035e97a5e078a5a0f28ec96d547bfee9ace803ac0";
export const LEAF_VERSION = 0xc0;

/** The sandbox's Taproot HTLC (apps/docs/pages/reference/approvals.md): its output script, both leaves and their control blocks. */
export interface Htlc {
  script: Uint8Array;
  claimLeaf: Uint8Array;
  refundLeaf: Uint8Array;
  claimControlBlock: Uint8Array;
  refundControlBlock: Uint8Array;
}

/** Build the HTLC locked to `secretHash` (claim: resolver key + preimage; refund: user key after `csvBlocks`). */
export function buildHtlc(args: {
  secretHash: Uint8Array;
  resolverXOnly: Uint8Array;
  userXOnly: Uint8Array;
  csvBlocks: number;
}): Htlc {
  const claimLeaf = script.compile([
    opcodes.OP_SHA256,
    args.secretHash,
    opcodes.OP_EQUALVERIFY,
    args.resolverXOnly,
    opcodes.OP_CHECKSIG,
  ]);
  const refundLeaf = script.compile([
    script.number.encode(args.csvBlocks),
    opcodes.OP_CHECKSEQUENCEVERIFY,
    opcodes.OP_DROP,
    args.userXOnly,
    opcodes.OP_CHECKSIG,
  ]);
  const internalPubkey = Buffer.from(NUMS_KEY_HEX, "hex");
  const scriptTree: [{ output: Uint8Array }, { output: Uint8Array }] = [
    { output: claimLeaf },
    { output: refundLeaf },
  ];
  const controlBlockOf = (leaf: Uint8Array) => {
    const w = payments.p2tr({
      internalPubkey,
      scriptTree,
      redeem: { output: leaf, redeemVersion: LEAF_VERSION },
    }).witness;
    return w![w!.length - 1]!;
  };
  return {
    script: payments.p2tr({ internalPubkey, scriptTree }).output!,
    claimLeaf,
    refundLeaf,
    claimControlBlock: controlBlockOf(claimLeaf),
    refundControlBlock: controlBlockOf(refundLeaf),
  };
}
