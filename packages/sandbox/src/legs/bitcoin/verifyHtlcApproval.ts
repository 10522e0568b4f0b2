import { Psbt, type Transaction } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { toLegDataJson } from "../readLegData.js";
import type { ChainLeg, Json, SubmittedApproval } from "../types.js";
import { LegRejection } from "../types.js";
import { checkSpend } from "./checkSpend.js";
import { toHex } from "./fees.js";
import { readHtlcLegData } from "./readHtlcLegData.js";
import type { HtlcLegData, StartedBitcoinLeg } from "./types.js";

/**
 * `ChainLeg.verifyApproval` of the Bitcoin leg: the submitted PSBT must be the one built, every user input validly
 * signed, and the finished transaction must pass {@link checkSpend} (ledger, locks, bitcore's interpreter). The signed
 * transaction and its txid join `legData`.
 */
export async function verifyHtlcApproval({
  leg,
  legData,
  approval,
}: {
  leg: StartedBitcoinLeg;
  legData: Json;
  approval: SubmittedApproval;
}): ReturnType<ChainLeg["verifyApproval"]> {
  const data = readHtlcLegData(legData);
  const tx = extractSignedDeposit({ data, approval });
  checkSpend({ leg, tx });
  return { legData: toLegDataJson({ ...data, signedTx: tx.toHex(), depositTxid: tx.getId() }) };
}

/** Turn the submitted approval into the signed deposit transaction, refusing anything but our PSBT, signed. */
function extractSignedDeposit({
  data,
  approval,
}: {
  data: HtlcLegData;
  approval: SubmittedApproval;
}): Transaction {
  if (approval.type !== "psbt" || typeof approval.signedData !== "string")
    throw new LegRejection(
      "APPROVAL_INVALID",
      "a Bitcoin approval is {type: psbt, signed_data: <base64 PSBT>}",
    );
  let psbt: Psbt;
  try {
    psbt = Psbt.fromBase64(approval.signedData);
  } catch (cause) {
    throw new LegRejection("PSBT_REJECTED", "signed_data is not a base64 PSBT", { cause });
  }
  const expected = Psbt.fromBase64(data.psbt).data.globalMap.unsignedTx.toBuffer();
  if (toHex(psbt.data.globalMap.unsignedTx.toBuffer()) !== toHex(expected))
    throw new LegRejection("PSBT_REJECTED", "the signed PSBT is not the transaction the sandbox built");
  for (const index of data.inputs) {
    if (psbt.data.inputs[index]!.finalScriptWitness) continue;
    if (!hasValidSignature({ psbt, index }))
      throw new LegRejection("PSBT_REJECTED", `input ${index} carries no valid signature`);
    psbt.finalizeInput(index);
  }
  try {
    return psbt.extractTransaction(true);
  } catch (cause) {
    throw new LegRejection("PSBT_REJECTED", "the PSBT cannot be finalized into a transaction", { cause });
  }
}

/** Whether an input's signatures verify (Schnorr for x-only keys, ECDSA otherwise); a malformed input is not valid. */
function hasValidSignature({ psbt, index }: { psbt: Psbt; index: number }): boolean {
  try {
    return psbt.validateSignaturesOfInput(index, (pubkey, hash, signature) =>
      pubkey.length === 32 ? ecc.verifySchnorr(hash, pubkey, signature) : ecc.verify(hash, pubkey, signature),
    );
  } catch {
    return false;
  }
}
