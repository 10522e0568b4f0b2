import { Psbt } from "bitcoinjs-lib";
import { toLegDataJson } from "../readLegData.js";
import type { ChainLeg, LegIntent } from "../types.js";
import { LegRejection } from "../types.js";
import { addressOfScript } from "./addressOfScript.js";
import { buildHtlc, type Htlc, LEAF_VERSION, NUMS_KEY_HEX } from "./buildHtlc.js";
import {
  byValueDescending,
  DUST_LOTS,
  fromHex,
  getFee,
  getOutputWeight,
  P2TR_INPUT_WU,
  P2TR_OUTPUT_WU,
  P2WPKH_INPUT_WU,
  TX_OVERHEAD_WU,
  toHex,
} from "./fees.js";
import type { Utxo } from "./ledger.js";
import { requireRegtestAddress } from "./requireRegtestAddress.js";
import { scriptsOfPublicKey } from "./scriptsOfPublicKey.js";
import type { HtlcLegData, StartedBitcoinLeg } from "./types.js";

/** Refund delay of the HTLC's refund leaf, in blocks (BIP-68 block count). */
export const HTLC_CSV_BLOCKS = 144;

/**
 * `ChainLeg.buildApproval` of the Bitcoin leg: the deposit PSBT of apps/docs/pages/reference/approvals.md (htlc), paying the intent's amount
 * into the Taproot HTLC from the user's own coins, change back to the user. The coins it picks are reserved for the
 * intent until its deadline. The caller has checked that the user's public key owns the source address.
 */
export async function buildHtlcApproval({
  leg,
  intent,
  userPublicKey,
}: {
  leg: StartedBitcoinLeg;
  intent: LegIntent;
  userPublicKey: string;
}): ReturnType<ChainLeg["buildApproval"]> {
  const publicKey = fromHex(userPublicKey);
  const changeScript = requireRegtestAddress(intent.userSourceAddress);
  const htlc = buildHtlc({
    secretHash: fromHex(intent.secretHash.slice(2)),
    resolverXOnly: leg.resolver.xOnly,
    userXOnly: publicKey.slice(1, 33),
    csvBlocks: HTLC_CSV_BLOCKS,
  });
  const { chosen, change } = selectUserCoins({ leg, intent, publicKey, changeScript });
  const psbt = buildDepositPsbt({ leg, intent, publicKey, htlc, chosen });
  if (change > 0n) psbt.addOutput({ script: changeScript, value: change });
  leg.ledger.reserve(chosen, intent.intentId, intent.deadlineSecs * 1000);
  const inputs = chosen.map((_, i) => i);
  const legData: HtlcLegData = {
    psbt: psbt.toBase64(),
    inputs,
    prevouts: chosen.map((u) => ({
      txid: u.txid,
      vout: u.vout,
      script: u.script,
      value: u.value.toString(),
    })),
    htlc: {
      script: toHex(htlc.script),
      value: intent.sourceAmountLots.toString(),
      csvBlocks: HTLC_CSV_BLOCKS,
      claimLeaf: toHex(htlc.claimLeaf),
      claimControlBlock: toHex(htlc.claimControlBlock),
      refundLeaf: toHex(htlc.refundLeaf),
    },
    userPublicKey,
  };
  return {
    paramsToSign: { psbt: legData.psbt, inputs },
    legData: toLegDataJson(legData),
    proxyAddress: addressOfScript(htlc.script),
  };
}

/**
 * Coin selection: largest first, over both of the user's scripts, skipping coins another open intent's deposit PSBT
 * already spends (reserved until that intent's deadline). A P2WPKH coin is used only when the ledger holds its
 * previous transaction: the signer refuses a multi-input deposit without a P2TR input unless every input carries
 * `nonWitnessUtxo` (see apps/docs/pages/reference/approvals.md, htlc). Too little: `INSUFFICIENT_BALANCE`. Change below dust goes to the fee.
 */
function selectUserCoins({
  leg,
  intent,
  publicKey,
  changeScript,
}: {
  leg: StartedBitcoinLeg;
  intent: LegIntent;
  publicKey: Uint8Array;
  changeScript: Uint8Array;
}): { chosen: Utxo[]; change: bigint } {
  const { ledger } = leg;
  const own = scriptsOfPublicKey(publicKey);
  const p2tr = toHex(own.p2tr);
  const candidates = [...ledger.utxosOf(p2tr), ...ledger.utxosOf(toHex(own.p2wpkh))]
    .filter((u) => {
      const holder = ledger.reservedFor(u);
      return holder === undefined || holder === intent.intentId;
    })
    .filter((u) => u.script === p2tr || ledger.rawTx(u.txid) !== undefined)
    .sort(byValueDescending);
  const chosen: Utxo[] = [];
  let total = 0n;
  let weight = TX_OVERHEAD_WU + P2TR_OUTPUT_WU + getOutputWeight(changeScript);
  for (const u of candidates) {
    if (total >= intent.sourceAmountLots + getFee(weight)) break;
    chosen.push(u);
    total += u.value;
    weight += u.script === p2tr ? P2TR_INPUT_WU : P2WPKH_INPUT_WU;
  }
  const fee = getFee(weight);
  if (total < intent.sourceAmountLots + fee)
    throw new LegRejection(
      "INSUFFICIENT_BALANCE",
      `the user's UTXOs hold ${total} sat; ${intent.sourceAmountLots + fee} sat needed`,
    );
  const change = total - intent.sourceAmountLots - fee;
  return { chosen, change: change < DUST_LOTS ? 0n : change };
}

/** The deposit PSBT's inputs (the chosen coins) and its HTLC output (with its tap tree for the signer to check). */
function buildDepositPsbt({
  leg,
  intent,
  publicKey,
  htlc,
  chosen,
}: {
  leg: StartedBitcoinLeg;
  intent: LegIntent;
  publicKey: Uint8Array;
  htlc: Htlc;
  chosen: Utxo[];
}): Psbt {
  const p2tr = toHex(scriptsOfPublicKey(publicKey).p2tr);
  // nLockTime 0 and sequence 0xfffffffd (RBF, BIP-68 disabled): valid now, as the signer requires.
  const psbt = new Psbt();
  psbt.setVersion(2);
  psbt.setLocktime(0);
  for (const u of chosen) {
    const isP2tr = u.script === p2tr;
    // Every segwit-v0 input carries its previous transaction (a P2WPKH signature commits only to its own
    // amount); P2TR inputs don't need it (a Taproot signature commits to every input's amount and script).
    const previous = isP2tr ? undefined : leg.ledger.rawTx(u.txid);
    psbt.addInput({
      hash: u.txid,
      index: u.vout,
      sequence: 0xfffffffd,
      witnessUtxo: { script: fromHex(u.script), value: u.value },
      ...(previous ? { nonWitnessUtxo: previous } : {}),
      ...(isP2tr ? { tapInternalKey: publicKey.slice(1, 33) } : {}),
    });
  }
  psbt.addOutput({
    script: htlc.script,
    value: intent.sourceAmountLots,
    tapInternalKey: fromHex(NUMS_KEY_HEX),
    tapTree: {
      leaves: [
        { depth: 1, leafVersion: LEAF_VERSION, script: htlc.claimLeaf },
        { depth: 1, leafVersion: LEAF_VERSION, script: htlc.refundLeaf },
      ],
    },
  });
  return psbt;
}
