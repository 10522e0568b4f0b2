import type { ECPairInterface } from "ecpair";
import type { ChainLeg, Json, LegContext, LegIntent } from "../types.js";
import type { UtxoLedger } from "./ledger.js";

/** What the leg keeps about a Bitcoin-source intent (stored by the core as `legData`). */
export interface HtlcLegData {
  psbt: string;
  inputs: number[];
  prevouts: { txid: string; vout: number; script: string; value: string }[];
  htlc: {
    script: string;
    value: string;
    csvBlocks: number;
    claimLeaf: string;
    claimControlBlock: string;
    refundLeaf: string;
  };
  userPublicKey: string;
  signedTx?: string;
  depositTxid?: string;
}

/** The Bitcoin leg, plus sandbox-only helpers that tests and the user's own refund use. */
export interface BitcoinLeg extends ChainLeg {
  /** Current block height (one block per 10 minutes of the sandbox clock since the leg's genesis). */
  height(): number;
  /**
   * Accept any fully signed transaction spending ledger outputs, like a node's `sendrawtransaction`: every input
   * must be unspent, pass the interpreter, and satisfy its BIP-68 relative lock against the ledger's heights.
   * This is how a user's own refund (the HTLC's refund leaf) reaches the sandbox chain.
   */
  broadcast(txHex: string): Promise<{ txHash: string }>;
  /** The resolver's compressed public key, hex (its x-only half is the HTLC's claim key). */
  resolverPublicKey(): string;
}

/** The resolver's key (derived from the seed) and the P2WPKH script its inventory and claims are paid to. */
export interface BitcoinResolver {
  key: ECPairInterface;
  /** The x-only public key: the HTLC's claim key. */
  xOnly: Uint8Array;
  script: Uint8Array;
}

/** A started Bitcoin leg: its ledger, its resolver and the sandbox's context (clock, log). */
export interface StartedBitcoinLeg {
  ledger: UtxoLedger;
  resolver: BitcoinResolver;
  ctx: LegContext;
}

/** What the leg's steps on a Bitcoin-source intent (deposit, claim, refund) are given. */
export interface HtlcStepParameters {
  leg: StartedBitcoinLeg;
  intent: LegIntent;
  /** The intent's stored `legData`, read with `readHtlcLegData`. */
  legData: Json;
}
