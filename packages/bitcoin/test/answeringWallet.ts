import { isSwapIntentError } from "@swapintent/client";
import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { crypto, Psbt } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { signHtlcPsbt } from "../src/signHtlcPsbt.js";
import type { PsbtWalletSigner, SignPsbtParameters } from "../src/types.js";
import { type Deposit, hex, userKey, xOnly } from "./fixtures.js";

const userPublicKey = hex(userKey.publicKey);
/** The user key tweaked for its key-path p2tr spend. */
export const tweaked = userKey.tweak(crypto.taggedHash("TapTweak", xOnly(userKey)));

/** A wallet that signs what it is asked honestly, then hands back whatever `answer` makes of it. */
export function answeringWallet(
  answer: (signed: Psbt, request: SignPsbtParameters) => unknown,
  before?: (request: SignPsbtParameters) => void,
): PsbtWalletSigner {
  return {
    publicKey: userKey.publicKey,
    signPsbt: async (request) => {
      before?.(request);
      const psbt = Psbt.fromBase64(request.psbt);
      for (const { index, kind, sighashType } of request.signInputs) {
        psbt.signInput(index, (kind === "p2tr" ? tweaked : userKey) as never, [sighashType]);
      }
      return answer(psbt, request) as string;
    },
  };
}

/**
 * Sign `deposit` as the user through `signer`: the refusal code and details, or "ACCEPTED" with bitcore's
 * interpreter verdict on the extracted transaction.
 */
export async function walletOutcome(deposit: Deposit, signer: PsbtWalletSigner) {
  try {
    const signed = await signHtlcPsbt({
      ecc,
      intent: deposit.intent,
      quote: deposit.quote,
      userPublicKey,
      signer,
    });
    const tx = Psbt.fromBase64(signed.psbt).extractTransaction().toHex();
    return {
      code: "ACCEPTED" as const,
      interpreter: runInterpreter({ txHex: tx, prevouts: deposit.prevouts }),
    };
  } catch (error) {
    if (!isSwapIntentError(error)) return { code: "UNCODED", error };
    return { code: error.code, details: error.details };
  }
}
