// A signer or wallet gets copies: what it writes into what it was handed changes nothing that is checked.
import type { Psbt } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import { walletOutcome as outcome, tweaked, answeringWallet as wallet } from "../test/answeringWallet.js";
import { buildDeposit, userKey } from "../test/fixtures.js";
import type { KeySigner, PsbtWalletSigner } from "./types.js";

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
