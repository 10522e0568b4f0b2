import { crypto, Psbt } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { bench, describe } from "vitest";
import { buildDeposit, hex, userKey } from "../test/fixtures.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";

// Target: verify-and-sign at most 1.5x the time of a bare bitcoinjs signInput loop over the same 2-input PSBT.
// The machine is shared: longer runs average out other processes' load.
const options = { time: 2_000, warmupTime: 300 };
const deposit = buildDeposit();
const userPublicKey = hex(userKey.publicKey);

describe("sign a 2-input (P2TR + P2WPKH) deposit PSBT", () => {
  bench(
    "baseline: bitcoinjs fromBase64 + BIP-86 key tweak + signInput x2 + finalize + toBase64",
    () => {
      const psbt = Psbt.fromBase64(deposit.psbt);
      // Signing a P2TR key-path input with bitcoinjs needs the tweaked key: part of any signing loop.
      const tweaked = userKey.tweak(crypto.taggedHash("TapTweak", userKey.publicKey.slice(1)));
      psbt.signInput(0, tweaked);
      psbt.signInput(1, userKey);
      psbt.finalizeAllInputs();
      psbt.toBase64();
    },
    options,
  );

  bench(
    "signHtlcPsbt: verify + sign + finalize (ecpair key)",
    async () => {
      await signHtlcPsbt({
        ecc,
        intent: deposit.intent,
        quote: deposit.quote,
        userPublicKey,
        signer: userKey,
      });
    },
    options,
  );

  bench(
    "signHtlcPsbt: verify + sign + check both signatures + finalize",
    async () => {
      await signHtlcPsbt({
        ecc,
        intent: deposit.intent,
        quote: deposit.quote,
        userPublicKey,
        signer: userKey,
        alwaysCheckSignatures: true,
      });
    },
    options,
  );
});
