// A signer or wallet gets copies: what it writes into what it was handed changes nothing that is checked.
import { isSwapIntentError } from "@swapintent/client";
import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { crypto, Psbt } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { buildDeposit, type Deposit, hex, userKey, xOnly } from "../test/fixtures.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import type { KeySigner, PsbtWalletSigner, SignPsbtParameters } from "./types.js";

const userPublicKey = hex(userKey.publicKey);
const tweaked = userKey.tweak(crypto.taggedHash("TapTweak", xOnly(userKey)));

/** A wallet that signs what it is asked honestly, then hands back whatever `answer` makes of it. */
function wallet(
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

async function outcome(deposit: Deposit, signer: PsbtWalletSigner) {
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

const b64 = (p: Psbt) => p.toBase64();

describe("a signer that writes into what it was handed", () => {
  it("cannot loosen the sighash check by rewriting signInputs (65-byte ALL signature over the DEFAULT digest)", async () => {
    const result = await outcome(
      buildDeposit(),
      wallet((p, r) => {
        r.signInputs[0]!.sighashType = 0x01;
        const input = p.data.inputs[0]!;
        input.tapKeySig = Uint8Array.from([...input.tapKeySig!, 0x01]);
        return b64(p);
      }),
    );
    // The byte is checked against the digest it names (ALL), never the one the rewritten list says was made.
    expect(result).toMatchObject({
      code: "BTC_SIGNATURE_INVALID",
      details: { input: 0, reason: "doesNotVerify" },
    });
  });

  it("cannot change what the answer is checked against by rewriting every field and byte it was handed", async () => {
    const deposit = buildDeposit();
    const result = await outcome(
      deposit,
      wallet(
        (p) => b64(p),
        (r) => {
          const request = {
            ...r,
            signInputs: r.signInputs.map((i) => ({ ...i, script: Uint8Array.from(i.script) })),
          };
          for (const input of r.signInputs) {
            Object.assign(input, {
              index: 2,
              kind: input.kind === "p2tr" ? "p2wpkh" : "p2tr",
              sighashType: 0x83,
            });
            input.script.fill(0);
          }
          r.inputs.length = 0;
          // the wallet itself signs the request as it came in
          Object.assign(r, request);
        },
      ),
    );
    expect(result.code).toBe("ACCEPTED");
    expect(result.interpreter).toEqual([null, null]);
  });
});

describe("an external key signer that writes into the digest it was handed", () => {
  /** Signs the digest after zeroing it in place: the signature is valid for the zeroed bytes only. */
  const rewriting: KeySigner = {
    publicKey: userKey.publicKey,
    sign: (hash) => userKey.sign(hash.fill(0)),
    signSchnorr: (hash) => tweaked.signSchnorr(hash.fill(0)),
  };

  it.each([
    ["P2WPKH", "p2wpkh"],
    ["P2TR", "p2tr"],
  ] as const)("%s: its signature is checked against the real sighash, and refused", async (_, kind) => {
    const deposit = buildDeposit({ inputs: [{ kind, value: 110_000n }] });
    const result = await outcome(deposit, rewriting as unknown as PsbtWalletSigner);
    expect(result).toMatchObject({
      code: "BTC_SIGNATURE_INVALID",
      details: { input: 0, reason: "doesNotVerify" },
    });
  });
});
