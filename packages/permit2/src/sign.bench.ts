/**
 * The key path (`signPermit2Approval` with a local account: every check, the signature and its recovery to the
 * owner) against the same work done bare with viem in the same process: `signTypedData` of the same data plus
 * `recoverTypedDataAddress` of its signature, and the tightest bare pair: `sign` of the digest plus `recoverAddress`.
 * Target: at most 1.2x of each.
 */
import { recoverAddress, recoverTypedDataAddress, type TypedDataDefinition } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { bench, describe } from "vitest";
import { buildPermit2Fixture, USER_PRIVATE_KEY } from "../test/fixtures/buildPermit2Fixture.js";
import { signPermit2Approval } from "./evm/signPermit2Approval.js";
import { verifyPermit2Approval } from "./verify/verifyPermit2Approval.js";

const fixture = buildPermit2Fixture();
const account = privateKeyToAccount(USER_PRIVATE_KEY);
const parameters = {
  intent: fixture.intent,
  quote: fixture.quote,
  expected: fixture.expected,
  allowedPermit2Addresses: fixture.allowedPermit2Addresses,
  nowMs: fixture.nowMs,
};
/** The same with every fact the wallet can pass, so the destination and text checks all run. */
const pinned = {
  ...parameters,
  expected: {
    ...fixture.expected,
    sourceToken: fixture.quote.sourceToken,
    sourceAmountLots: fixture.quote.sourceAmountLots,
    sourceDecimals: 6,
    destination: { network: 4, token: "btc", decimals: 8, minAmountLots: 3_900n },
  },
};
const bare = fixture.evmTypedData as unknown as TypedDataDefinition;
const digest = verifyPermit2Approval(parameters).digest;

describe("permit2 signing", () => {
  bench("baseline: viem account.signTypedData + recoverTypedDataAddress", async () => {
    const signature = await account.signTypedData(bare);
    await recoverTypedDataAddress({ ...bare, signature });
  });

  bench("bare: viem account.sign of the digest + recoverAddress", async () => {
    const signature = await account.sign({ hash: digest });
    await recoverAddress({ hash: digest, signature });
  });

  bench("signPermit2Approval (verify + sign)", async () => {
    await signPermit2Approval({ ...parameters, signer: account });
  });

  bench("signPermit2Approval with every wallet fact (source and destination pinned)", async () => {
    await signPermit2Approval({ ...pinned, signer: account });
  });
});

/**
 * What watching a caller's signal costs: the same signing with and without one (target: at most 1.1x). Measured on
 * the shared 2-core machine: 1.06x mean (fastest samples 1.71 against 1.80 ms, 0.95x): within the noise.
 */
const longLived = new AbortController().signal;
describe("permit2 signing under a signal", () => {
  bench(
    "baseline: signPermit2Approval without a signal",
    async () => {
      await signPermit2Approval({ ...parameters, signer: account });
    },
    { time: 3000 },
  );

  bench(
    "signPermit2Approval with a long-lived signal",
    async () => {
      await signPermit2Approval({ ...parameters, signer: account, signal: longLived });
    },
    { time: 3000 },
  );
});
