/**
 * What refusing a long address from a request costs: bitcoinjs's base58check decode, quadratic in the length, took
 * ~5 s on 80 000 characters before the 90-character bound. `slowInput.test.ts` bounds the work (bitcoinjs is never
 * handed more than 90 characters); this measures the time. Run with `pnpm bench` in this package.
 */
import { initEccLib } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { bench, describe } from "vitest";
import { scriptOfAddress } from "./scriptOfAddress.js";

initEccLib(ecc); // as the Bitcoin leg does when it loads
const long = "z".repeat(80_000);

describe("refusing a long address", () => {
  bench(
    "80 000 base58 characters in refund_address",
    () => {
      if (scriptOfAddress(long) !== null) throw new Error("expected a refusal");
    },
    { time: 500 },
  );
});
