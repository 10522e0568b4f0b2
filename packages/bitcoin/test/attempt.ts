import { isSwapIntentError } from "@swapintent/client";
import { Psbt, type Transaction } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { signHtlcPsbt } from "../src/signHtlcPsbt.js";
import type { HtlcPolicyParameters } from "../src/types.js";
import { type Deposit, hex, spySigner, userKey } from "./fixtures.js";

/** Sign as the user with a spy; returns the refusal code (or "ACCEPTED") and how often the key was used. */
export async function attempt(
  deposit: Pick<Deposit, "intent" | "quote"> & { nowMs?: number },
  policy?: HtlcPolicyParameters,
): Promise<{ code: string; uses: number }> {
  const signer = spySigner();
  try {
    await signHtlcPsbt({ ecc, ...deposit, userPublicKey: hex(userKey.publicKey), signer, policy });
    return { code: "ACCEPTED", uses: signer.uses };
  } catch (error) {
    if (isSwapIntentError(error)) return { code: error.code, uses: signer.uses };
    throw error;
  }
}

/**
 * The deposit with its PSBT changed by `edit` (fields and the unsigned transaction set directly, as a malicious
 * service would).
 */
export function tamper(deposit: Deposit, edit: (psbt: Psbt, tx: Transaction) => void): Deposit {
  const psbt = Psbt.fromBase64(deposit.psbt);
  edit(psbt, (psbt.data.globalMap.unsignedTx as unknown as { tx: Transaction }).tx);
  const base64 = psbt.toBase64();
  return {
    ...deposit,
    psbt: base64,
    intent: { ...deposit.intent, paramsToSign: { ...deposit.intent.paramsToSign, psbt: base64 } },
  };
}
