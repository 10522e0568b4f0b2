/**
 * What a refusal of long hostile text costs: each input once made a backtracking pattern, a quadratic base58 decode
 * or an escape per character take seconds (4 to 5 s each). `slowInput.test.ts` bounds the work of each (linear
 * patterns only, the decoder never handed more than an address, matches bounded); this measures the time. Run with
 * `pnpm bench` in this package.
 */
import { bench, describe } from "vitest";
import { buildPermit2Fixture, RECIPIENT } from "../test/fixtures/buildPermit2Fixture.js";
import { parseTronAddress } from "./address/parseTronAddress.js";
import { getPermit2WitnessTypeString } from "./getPermit2WitnessTypeString.js";
import { verifyPermit2Approval } from "./verify/verifyPermit2Approval.js";

const fixture = buildPermit2Fixture();
const options = { time: 500 };

/** Runs `run`, which must refuse; a pass is a broken bench, not a fast one. */
function refuse(run: () => unknown): void {
  try {
    run();
  } catch {
    return;
  }
  throw new Error("expected a refusal");
}

const longRecipient = `${"1".repeat(50_000)}!`;
const bitcoinDestination = {
  network: fixture.quote.destChain,
  networkType: "BITCOIN",
  token: fixture.quote.destToken,
  decimals: fixture.quote.destAmountDecimals,
  minAmountLots: fixture.quote.minDestAmountLots,
};
const recipientFixture = buildPermit2Fixture({ witness: { recipient: RECIPIENT } });
const longType = structuredClone(fixture.evmTypedData.types);
longType.Long = [{ name: "a", type: `${"[]".repeat(30_000)}x` }];
const longMechanism = {
  ...fixture.intent,
  approvalMechanism: "\u202E".repeat(4_000_000),
} as typeof fixture.intent;

describe("refusing long hostile text", () => {
  bench(
    "a wallet's recipient of 50 000 1s (a bech32 look-alike)",
    () =>
      refuse(() =>
        verifyPermit2Approval({
          intent: recipientFixture.intent,
          quote: recipientFixture.quote,
          expected: {
            ...recipientFixture.expected,
            recipient: longRecipient,
            destination: bitcoinDestination,
          },
          allowedPermit2Addresses: recipientFixture.allowedPermit2Addresses,
          nowMs: recipientFixture.nowMs,
        }),
      ),
    options,
  );
  bench(
    "a field type of 30 000 [] pairs",
    () => refuse(() => getPermit2WitnessTypeString({ types: longType })),
    options,
  );
  bench(
    "a 100 000-character base58 Tron address",
    () => refuse(() => parseTronAddress({ address: "z".repeat(100_000) })),
    options,
  );
  bench(
    "4 MB of bidi characters as the approval mechanism",
    () =>
      refuse(() =>
        verifyPermit2Approval({
          intent: longMechanism,
          quote: fixture.quote,
          expected: fixture.expected,
          nowMs: fixture.nowMs,
        }),
      ),
    options,
  );
});
