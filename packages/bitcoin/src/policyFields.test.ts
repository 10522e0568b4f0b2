import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { attempt } from "../test/attempt.js";
import { buildDeposit, hex, resolverKey, userKey } from "../test/fixtures.js";
import { isBitcoinError } from "./errors.js";
import type { HtlcPolicyParameters } from "./types.js";
import { verifyHtlcPsbt } from "./verifyHtlcPsbt/verifyHtlcPsbt.js";

const userPublicKey = hex(userKey.publicKey);

describe("a policy field the policy does not have (a misspelled cap)", () => {
  const deposit = buildDeposit();

  it("refuses a misspelled fee cap (with the default cap silently in force otherwise)", async () => {
    // Spelled right, the cap refuses this deposit's fee (about 5.6 sat/vB); misspelled, it was ignored.
    expect(await attempt(deposit, { maxFeeRateSatPerVbyte: 2n })).toEqual({
      code: "BTC_FEE_TOO_HIGH",
      uses: 0,
    });
    const misspelled = { maxFeeRateSatPerVByte: 2n } as HtlcPolicyParameters;
    expect(await attempt(deposit, misspelled)).toEqual({ code: "BTC_POLICY_INVALID", uses: 0 });
  });

  it("names the unknown fields, and refuses a policy that is not an object of known fields", () => {
    const cases: [unknown, string[]][] = [
      [{ maxFeeLots: 1_000n, maxfeelots: 1n, resolverKey: "02" }, ["maxfeelots", "resolverKey"]],
      [JSON.parse('{"__proto__": {"maxFeeLots": "1"}}'), ["__proto__"]],
      ["strict", ["0", "1", "2", "3", "4", "5"]],
    ];
    for (const [policy, fields] of cases) {
      let refused = false;
      try {
        verifyHtlcPsbt({ ecc, ...deposit, userPublicKey, policy: policy as HtlcPolicyParameters });
      } catch (error) {
        if (!isBitcoinError(error, "BTC_POLICY_INVALID")) throw error;
        refused = true;
        expect(error.details.policy).toEqual(fields);
      }
      expect(refused).toBe(true);
    }
  });

  it("still accepts every known field, and undefined for any of them", () => {
    const policy: Required<HtlcPolicyParameters> = {
      minCsvBlocks: 6,
      maxCsvBlocks: 1008,
      maxFeeLots: 50_000n,
      maxFeeRateSatPerVbyte: 200n,
      maxFeeBps: 1_000,
      minFeeRateSatPerVbyte: 1n,
      maxDeadlineSecs: 86_400,
      maxLockTimeHeight: 900_000,
      resolverPublicKey: hex(resolverKey.publicKey),
      changeScriptType: "p2tr",
    };
    expect(verifyHtlcPsbt({ ecc, ...deposit, userPublicKey, policy }).feeLots).toBe(1_000n);
    const undefinedFields = Object.fromEntries(Object.keys(policy).map((key) => [key, undefined]));
    expect(verifyHtlcPsbt({ ecc, ...deposit, userPublicKey, policy: undefinedFields }).feeLots).toBe(1_000n);
  });
});
