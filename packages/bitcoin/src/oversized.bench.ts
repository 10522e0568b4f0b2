import { Psbt } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { bench, describe } from "vitest";
import { tamper } from "../test/attempt.js";
import { buildDeposit, hex, p2trOf, p2wpkhOf, strangerKey, userKey, xOnly } from "../test/fixtures.js";
import { verifyHtlcPsbt } from "./verifyHtlcPsbt/verifyHtlcPsbt.js";

// Target: refusing a PSBT far above the relay weight costs at most 1.5x parsing it with bitcoinjs (the least any
// reader pays): the weight floor is checked before any per-input work. The PSBT is about 7 MB of base64, near the
// client's 8 MiB response cap: 30,000 inputs of the user's P2TR script, all listed, and 30,000 service inputs.
const options = { time: 0, iterations: 5, warmupIterations: 1 };
const SIDE = 30_000;
const base = buildDeposit({ inputs: [{ kind: "p2tr", value: 60_000n }] });
const userScript = p2trOf(userKey);
const serviceScript = p2wpkhOf(strangerKey);
const oversized = tamper(base, (psbt, tx) => {
  for (let i = 0; i < 2 * SIDE; i++) {
    const users = i % 2 === 0;
    const hash = new Uint8Array(32).fill(0xcd);
    hash[0] = i & 0xff;
    hash[1] = (i >> 8) & 0xff;
    hash[2] = i >> 16;
    tx.ins.push({ hash, index: 1, script: new Uint8Array(), sequence: 0xffffffff, witness: [] });
    psbt.data.inputs.push({
      unknownKeyVals: [],
      witnessUtxo: { script: users ? userScript : serviceScript, value: 1_000n },
      ...(users ? { tapInternalKey: xOnly(userKey) } : {}),
    } as never);
  }
});
const intent = {
  ...oversized.intent,
  paramsToSign: {
    psbt: oversized.psbt,
    inputs: [0, ...Array.from({ length: SIDE }, (_, i) => 1 + 2 * i)],
  },
};
const userPublicKey = hex(userKey.publicKey);

describe(`refuse a ${(oversized.psbt.length / 1e6).toFixed(1)} MB PSBT of ${2 * SIDE + 1} inputs`, () => {
  bench(
    "baseline: bitcoinjs Psbt.fromBase64",
    () => {
      Psbt.fromBase64(oversized.psbt);
    },
    options,
  );

  bench(
    "verifyHtlcPsbt: refused (BTC_TX_NOT_STANDARD)",
    () => {
      try {
        verifyHtlcPsbt({ ecc, intent, quote: oversized.quote, userPublicKey });
      } catch {
        return;
      }
      throw new Error("an oversized PSBT was accepted");
    },
    options,
  );
});
