/**
 * Whatever the wallet side passes (its `expected`, its options, the public helpers): a coded refusal or a result,
 * never an uncoded throw (fast-check, fixed seeds).
 */
import { isSwapIntentError } from "@swapintent/client";
import fc from "fast-check";
import { describe, it } from "vitest";
import { parametersOf } from "../../test/fixtures/parametersOf.js";
import { formatTronAddress } from "../address/formatTronAddress.js";
import { parseTronAddress } from "../address/parseTronAddress.js";
import { signPermit2Approval } from "../evm/signPermit2Approval.js";
import { getPermit2WitnessTypeString } from "../getPermit2WitnessTypeString.js";
import { normalizeSignature } from "../normalizeSignature.js";
import { signTronPermit2Approval } from "../tron/signTronPermit2Approval.js";
import { verifyPermit2Approval } from "./verifyPermit2Approval.js";

/** Any value a caller or its wallet could hand over: JSON, bigints, objects without a prototype, edge numbers. */
const JUNK = fc.oneof(
  fc.anything({ withBigInt: true, withNullPrototype: true, withObjectString: true, maxDepth: 2 }),
  fc.constantFrom(0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, "", "0x", "T", [], {}),
);

/** Runs `run`; a throw must be a swapintent error (a coded refusal), never a TypeError or RangeError. */
async function codedOrDone(run: () => unknown): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (!isSwapIntentError(error)) throw error;
  }
}

describe("whatever the wallet side passes, a coded refusal or a result (fast-check, fixed seeds)", () => {
  // The deadline's class on the wallet's side: its `expected`, its options, the public helpers and
  // the wallet objects. This found `getPermit2WitnessTypeString({ types: null })` throwing a TypeError.
  const WALLET_FIELDS = [
    "expected",
    "expected.chainId",
    "expected.recipient",
    "expected.spender",
    "expected.owner",
    "expected.chainType",
    "expected.sourceToken",
    "expected.sourceAmountLots",
    "expected.sourceDecimals",
    "expected.destination",
    "expected.destination.network",
    "expected.destination.token",
    "expected.destination.decimals",
    "expected.destination.minAmountLots",
    "expected.digest",
    "allowedPermit2Addresses",
    "nowMs",
    "maxDeadlineSecs",
  ];

  it("verifyPermit2Approval with one wallet-side field replaced", async () => {
    for (const chain of ["evm", "tron"] as const) {
      const base = parametersOf({ chain });
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...WALLET_FIELDS), JUNK, async (field, value) => {
          const parameters = structuredClone(base) as unknown as Record<string, Record<string, unknown>>;
          const path = field.split(".");
          let node = parameters as Record<string, unknown>;
          for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
          node[path.at(-1)!] = value;
          await codedOrDone(() => verifyPermit2Approval(parameters as never));
        }),
        { seed: 11, numRuns: 1_000 },
      );
    }
  });

  it("the public helpers", async () => {
    await fc.assert(
      fc.asyncProperty(JUNK, async (value) => {
        await codedOrDone(() => normalizeSignature({ signature: value as never }));
        await codedOrDone(() => parseTronAddress({ address: value as never }));
        await codedOrDone(() => formatTronAddress({ address: value as never }));
        await codedOrDone(() => getPermit2WitnessTypeString({ types: value as never }));
        await codedOrDone(() =>
          getPermit2WitnessTypeString({ types: { PermitWitnessTransferFrom: value } as never }),
        );
      }),
      { seed: 7, numRuns: 2_000 },
    );
  });

  it("the signers, with junk wallets, accounts, signals and answers", async () => {
    const base = parametersOf();
    const tronBase = parametersOf({ chain: "tron" });
    const user = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
    await fc.assert(
      fc.asyncProperty(JUNK, JUNK, async (a, b) => {
        const answer = async () => b;
        await codedOrDone(() => signPermit2Approval({ ...base, signer: a as never }));
        await codedOrDone(() => signPermit2Approval({ ...base, provider: a as never }));
        await codedOrDone(() =>
          signPermit2Approval({ ...base, provider: { request: async () => a }, account: b as never }),
        );
        await codedOrDone(() =>
          signPermit2Approval({
            ...base,
            signal: a as never,
            signer: { address: user, signTypedData: answer as never },
          }),
        );
        await codedOrDone(() => signTronPermit2Approval({ ...tronBase, tronLink: a as never }));
        await codedOrDone(() => signTronPermit2Approval({ ...tronBase, privateKey: a as never }));
        await codedOrDone(() =>
          signTronPermit2Approval({
            ...tronBase,
            tronLink: { defaultAddress: { base58: a as never }, trx: { signTypedData: answer as never } },
          }),
        );
      }),
      { seed: 11, numRuns: 300 },
    );
  });
});
