import { describe, expect, it } from "vitest";
import { attempt } from "../test/attempt.js";
import { buildDeposit, p2trOf, p2wpkhOf, userKey } from "../test/fixtures.js";
import type { HtlcPolicyParameters } from "./types.js";

/** One user P2TR coin: HTLC 100,000 + change 9,000, fee 1,000. */
const single = () =>
  buildDeposit({
    inputs: [{ kind: "p2tr", value: 110_000n }],
    outputs: [{ script: p2trOf(userKey), value: 9_000n }],
  });

describe("the user's change split into outputs worth less than it costs to spend them", () => {
  it("refuses two or more change outputs, of either type, whatever their values", async () => {
    for (const outputs of [
      [p2trOf(userKey), p2trOf(userKey)],
      [p2trOf(userKey), p2wpkhOf(userKey)],
      Array.from({ length: 27 }, () => p2trOf(userKey)),
    ]) {
      const each = 9_000n / BigInt(outputs.length);
      // Coins of both types, so that change of either type is the user's (BTC_CHANGE_SCRIPT_MISMATCH otherwise).
      const deposit = buildDeposit({
        inputs: [
          { kind: "p2tr", value: 60_000n },
          { kind: "p2wpkh", value: 50_000n },
        ],
        outputs: outputs.map((script) => ({ script, value: each })),
      });
      expect(await attempt(deposit)).toEqual({ code: "BTC_CHANGE_SPLIT", uses: 0 });
    }
  });

  it("accepts one change output, or none", async () => {
    expect((await attempt(single())).code).toBe("ACCEPTED");
    const noChange = buildDeposit({ inputs: [{ kind: "p2tr", value: 101_000n }], outputs: [] });
    expect((await attempt(noChange)).code).toBe("ACCEPTED");
  });
});

describe("change to the user's key, but to the script type the wallet does not watch", () => {
  const changeTo = (script: Uint8Array) =>
    buildDeposit({ inputs: [{ kind: "p2tr", value: 110_000n }], outputs: [{ script, value: 9_000n }] });

  it("refuses P2WPKH change for a P2TR wallet (and P2TR change for a P2WPKH wallet) that pins policy.changeScriptType", async () => {
    expect(await attempt(changeTo(p2wpkhOf(userKey)), { changeScriptType: "p2tr" })).toEqual({
      code: "BTC_CHANGE_SCRIPT_MISMATCH",
      uses: 0,
    });
    expect(await attempt(changeTo(p2trOf(userKey)), { changeScriptType: "p2wpkh" })).toEqual({
      code: "BTC_CHANGE_SCRIPT_MISMATCH",
      uses: 0,
    });
  });

  it("accepts change of the pinned type; unpinned, of the coins' type (src/changeType.test.ts)", async () => {
    expect((await attempt(changeTo(p2trOf(userKey)), { changeScriptType: "p2tr" })).code).toBe("ACCEPTED");
    expect((await attempt(changeTo(p2trOf(userKey)))).code).toBe("ACCEPTED");
    expect(await attempt(changeTo(p2wpkhOf(userKey)))).toEqual({
      code: "BTC_CHANGE_SCRIPT_MISMATCH",
      uses: 0,
    });
  });

  it("refuses a changeScriptType that is not p2tr or p2wpkh", async () => {
    const policy = { changeScriptType: "p2sh" } as unknown as HtlcPolicyParameters;
    expect(await attempt(single(), policy)).toEqual({ code: "BTC_POLICY_INVALID", uses: 0 });
  });
});
