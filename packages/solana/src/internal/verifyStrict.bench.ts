/**
 * The runtime-strict ed25519 check of a wallet's signature (`verifyStrict`) against noble's own `ed25519.verify`
 * (cofactored, ZIP-215) of the same signature, in the same process. Target: at most 1.5x the baseline.
 */
import { ed25519 } from "@noble/curves/ed25519";
import { bench, describe } from "vitest";
import { verifyStrict } from "./verifyStrict.js";

const secret = ed25519.utils.randomPrivateKey();
const publicKey = ed25519.getPublicKey(secret);
const message = new Uint8Array(400).map((_, i) => i);
const signature = ed25519.sign(message, secret);
if (!verifyStrict(signature, message, publicKey)) throw new Error("verifyStrict refuses an honest signature");

describe("user signature check", () => {
  bench(
    "baseline: noble ed25519.verify",
    () => {
      ed25519.verify(signature, message, publicKey);
    },
    { time: 2000 },
  );
  bench(
    "verifyStrict (runtime rules)",
    () => {
      verifyStrict(signature, message, publicKey);
    },
    { time: 2000 },
  );
});
