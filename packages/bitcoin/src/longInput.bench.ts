/**
 * What a refusal of a long service string costs: 4 MB of bidi characters as the approval mechanism took ~3 s to
 * escape before it was cut. `slowInput.test.ts` bounds the work (matches per character kept); this measures the time.
 * Run with `pnpm bench` in this package.
 */
import * as ecc from "tiny-secp256k1";
import { bench, describe } from "vitest";
import { buildDeposit, hex, userKey } from "../test/fixtures.js";
import { verifyHtlcPsbt } from "./verifyHtlcPsbt/verifyHtlcPsbt.js";

const deposit = buildDeposit();
const intent = {
  ...deposit.intent,
  approvalMechanism: "\u202E".repeat(4_000_000),
} as unknown as typeof deposit.intent;
const userPublicKey = hex(userKey.publicKey);

describe("refusing a long service string", () => {
  bench(
    "4 MB of bidi characters as the approval mechanism",
    () => {
      try {
        verifyHtlcPsbt({ ecc, intent, quote: deposit.quote, userPublicKey });
      } catch {
        return;
      }
      throw new Error("expected a refusal");
    },
    { time: 500 },
  );
});
