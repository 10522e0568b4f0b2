/**
 * A malicious service and a wallet's own options: deadlines, clocks and bounds, each as a tampered input plus the
 * other members of its class, refused before any wallet is asked.
 */
import { isSwapIntentError } from "@swapintent/client";
import fc from "fast-check";
import { TronWeb } from "tronweb";
import { describe, expect, it } from "vitest";
import { codeOf } from "../test/codeOf.js";
import {
  buildPermit2Fixture,
  DEST_TOKEN,
  type FixtureOptions,
  NOW_MS,
  USER_PRIVATE_KEY,
} from "../test/fixtures/buildPermit2Fixture.js";
import { signWithSpies } from "../test/signWithSpies.js";
import { formatTronAddress } from "./address/formatTronAddress.js";
import { parseTronAddress } from "./address/parseTronAddress.js";
import { CANONICAL_PERMIT2_ADDRESS } from "./constants.js";
import { signPermit2Approval } from "./evm/signPermit2Approval.js";
import { getPermit2WitnessTypeString } from "./getPermit2WitnessTypeString.js";
import { normalizeSignature } from "./normalizeSignature.js";
import { signTronPermit2Approval } from "./tron/signTronPermit2Approval.js";
import type { VerifyPermit2ApprovalParameters } from "./types.js";
import { verifyPermit2Approval } from "./verify/verifyPermit2Approval.js";

function parametersOf(
  options: FixtureOptions = {},
  change: Partial<VerifyPermit2ApprovalParameters> = {},
): VerifyPermit2ApprovalParameters {
  const f = buildPermit2Fixture(options);
  return {
    intent: f.intent,
    quote: f.quote,
    expected: {
      ...f.expected,
      destination: { network: 4, token: DEST_TOKEN, decimals: 8, minAmountLots: 3_900n },
    },
    allowedPermit2Addresses: f.allowedPermit2Addresses,
    nowMs: f.nowMs,
    ...change,
  };
}

/** The latest instant a JavaScript `Date` holds (8.64e15 ms), in seconds. */
const LAST_DATE_SECS = 8_640_000_000_000;

describe("a deadline beyond any time the summary can show", () => {
  // A wallet that turns the deadline bound off (`maxDeadlineSecs: Number.MAX_SAFE_INTEGER`) let a deadline past
  // year 275760 through every check, and the summary's `new Date(…).toISOString()` then threw a bare RangeError.
  it.each([
    ["just past the last Date", LAST_DATE_SECS + 1],
    ["9e12 seconds", 9_000_000_000_000],
    ["the largest safe integer", Number.MAX_SAFE_INTEGER],
  ])("%s, with the bound turned off: PERMIT2_DEADLINE_TOO_FAR, no wallet asked", async (_name, deadline) => {
    for (const chain of ["evm", "tron"] as const) {
      const parameters = parametersOf({ chain }, { maxDeadlineSecs: Number.MAX_SAFE_INTEGER });
      (parameters.intent as { deadlineSecs: number }).deadlineSecs = deadline;
      expect(codeOf(() => verifyPermit2Approval(parameters))).toBe("PERMIT2_DEADLINE_TOO_FAR");
      expect(await signWithSpies(parameters, chain)).toEqual({ code: "PERMIT2_DEADLINE_TOO_FAR", calls: 0 });
    }
  });

  it("the last Date itself is still a deadline the summary shows", () => {
    const parameters = parametersOf({}, { maxDeadlineSecs: Number.MAX_SAFE_INTEGER });
    (parameters.intent as { deadlineSecs: number }).deadlineSecs = LAST_DATE_SECS;
    const { summary } = verifyPermit2Approval(parameters);
    expect(summary.deadlineIso).toBe("+275760-09-13T00:00:00.000Z");
    expect(summary.lines).toContain("Valid until +275760-09-13T00:00:00.000Z");
  });

  it("within the default bound nothing changes: one day ahead is accepted, one second more is too far", () => {
    const day = NOW_MS / 1000 + 86_400;
    const at = (deadline: number) => {
      const parameters = parametersOf();
      (parameters.intent as { deadlineSecs: number }).deadlineSecs = deadline;
      return parameters;
    };
    expect(verifyPermit2Approval(at(day)).summary.deadlineSecs).toBe(day);
    expect(codeOf(() => verifyPermit2Approval(at(day + 1)))).toBe("PERMIT2_DEADLINE_TOO_FAR");
  });
});

describe("any deadline, clock and bound the wallet passes", () => {
  // The class of the case above: whatever the service's deadline and the wallet's own clock and bound, the result
  // is a coded refusal or a summary whose deadline reads back as the signed one, never a stray exception.
  it("a permit2 code, or a summary that shows the signed deadline (fast-check, fixed seed)", () => {
    const parameters = parametersOf();
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        fc.oneof(fc.constant(NOW_MS), fc.integer({ min: -8.64e15, max: 8.64e15 })),
        fc.oneof(
          fc.constantFrom(0, 86_400, Number.MAX_SAFE_INTEGER, Number.MAX_VALUE),
          fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        ),
        (deadlineSecs, nowMs, maxDeadlineSecs) => {
          const intent = { ...parameters.intent, deadlineSecs };
          let summary: ReturnType<typeof verifyPermit2Approval>["summary"];
          try {
            summary = verifyPermit2Approval({ ...parameters, intent, nowMs, maxDeadlineSecs }).summary;
          } catch (error) {
            expect(isSwapIntentError(error) && error.code).toMatch(/^PERMIT2_DEADLINE_(PASSED|TOO_FAR)$/);
            return;
          }
          expect(deadlineSecs * 1000).toBeGreaterThan(nowMs);
          expect(Date.parse(summary.deadlineIso)).toBe(deadlineSecs * 1000);
        },
      ),
      { seed: 20261127, numRuns: 2_000 },
    );
  });
});

/** The Tron form (`41` + the same 20 bytes) of the canonical EVM Permit2 address. */
const CANONICAL_ON_TRON = TronWeb.address.fromHex(`41${CANONICAL_PERMIT2_ADDRESS.slice(2).toLowerCase()}`);

/** A fixture whose Permit2 (sent address and domain) is `permit2`. */
const withPermit2 = (chain: "evm" | "tron", permit2: string): FixtureOptions => ({
  chain,
  tamper: (params) => {
    params.permit2ContractAddress = permit2;
    params.additionalData.domain.verifyingContract = permit2;
  },
});

describe("the canonical Permit2 is an EVM deployment", () => {
  // On Tron no Permit2 lives at the canonical 20 bytes (TVM derives contract addresses with a 0x41 prefix, so
  // Uniswap's deterministic deployment does not land there): trusting them without the wallet's allow list let the
  // service name a contract the wallet never vetted as the verifying contract.
  it("a Tron permit for the canonical address's Tron form, not allowed by the wallet: PERMIT2_CONTRACT_NOT_ALLOWED, no wallet asked", async () => {
    for (const allowedPermit2Addresses of [
      [],
      undefined,
      [buildPermit2Fixture({ chain: "tron" }).allowedPermit2Addresses[0]!],
    ]) {
      const parameters = parametersOf(withPermit2("tron", CANONICAL_ON_TRON), { allowedPermit2Addresses });
      expect(codeOf(() => verifyPermit2Approval(parameters))).toBe("PERMIT2_CONTRACT_NOT_ALLOWED");
      expect(await signWithSpies(parameters, "tron")).toEqual({
        code: "PERMIT2_CONTRACT_NOT_ALLOWED",
        calls: 0,
      });
    }
  });

  it("a Tron wallet that allows that address itself (either form) still may", () => {
    for (const allowed of [CANONICAL_ON_TRON, CANONICAL_PERMIT2_ADDRESS]) {
      const parameters = parametersOf(withPermit2("tron", CANONICAL_ON_TRON), {
        allowedPermit2Addresses: [allowed],
      });
      expect(verifyPermit2Approval(parameters).typedData.domain.verifyingContract).toBe(CANONICAL_ON_TRON);
    }
  });

  it("on EVM the canonical Permit2 needs no allow list, in any case form", () => {
    for (const permit2 of [CANONICAL_PERMIT2_ADDRESS, CANONICAL_PERMIT2_ADDRESS.toLowerCase()]) {
      const parameters = parametersOf(withPermit2("evm", permit2), { allowedPermit2Addresses: [] });
      expect(verifyPermit2Approval(parameters).typedData.domain.verifyingContract).toBe(
        CANONICAL_PERMIT2_ADDRESS,
      );
    }
  });
});

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
  // The class of the deadline case, on the wallet's side: its `expected`, its options, the public helpers and
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

describe("what the user confirmed is what gets signed (expected.digest)", () => {
  // The README's flow: verifyPermit2Approval first, show its summary, then call a signer with the same parameters,
  // which verifies again. Between the two the app's intent and quote can change (a second createIntent after a
  // retry or a double click, a reactive store refreshed from the service): the signer then verified and signed a
  // permit the user never saw, as long as it passed the checks (another intent id, deadline, nonce, a minimum
  // still above the floor). The wallet pins what it showed with `expected.digest: verified.digest`.
  const changes: [string, (p: VerifyPermit2ApprovalParameters) => void][] = [
    [
      "an earlier deadline",
      (p) => {
        (p.intent as { deadlineSecs: number }).deadlineSecs -= 600;
      },
    ],
    [
      "another nonce",
      (p) => {
        (p.intent.paramsToSign as { nonce: bigint }).nonce += 1n;
      },
    ],
  ];
  const chains = ["evm", "tron"] as const;

  it.each(changes)(
    "%s after the summary was shown: PERMIT2_DIGEST_MISMATCH, no wallet asked",
    async (_name, change) => {
      for (const chain of chains) {
        const shown = verifyPermit2Approval(parametersOf({ chain }));
        const signedLater = () => {
          const parameters = parametersOf({ chain });
          change(parameters);
          parameters.expected = { ...parameters.expected, digest: shown.digest };
          return parameters;
        };
        // The changed permit passes every other check: only the pin refuses it.
        const { digest } = verifyPermit2Approval({
          ...signedLater(),
          expected: { ...signedLater().expected, digest: undefined },
        });
        expect(digest).not.toBe(shown.digest);
        expect(codeOf(() => verifyPermit2Approval(signedLater()))).toBe("PERMIT2_DIGEST_MISMATCH");
        expect(await signWithSpies(signedLater, chain)).toEqual({
          code: "PERMIT2_DIGEST_MISMATCH",
          calls: 0,
        });
      }
    },
  );

  it("a raised minimum (still above the floor) for another intent of the same quote: PERMIT2_DIGEST_MISMATCH", async () => {
    const shown = verifyPermit2Approval(parametersOf());
    const later = parametersOf({ witness: { minDestAmount: "3950" } });
    later.quote = { ...later.quote, minDestAmountLots: 3_950n };
    later.expected = { ...later.expected, digest: shown.digest };
    expect(codeOf(() => verifyPermit2Approval(later))).toBe("PERMIT2_DIGEST_MISMATCH");
    expect(await signWithSpies(later, "evm")).toEqual({ code: "PERMIT2_DIGEST_MISMATCH", calls: 0 });
  });

  it("the same permit, pinned in either case: verified and signed, the signature recovers over that digest", async () => {
    const { privateKeyToAccount } = await import("viem/accounts");
    const { recoverAddress } = await import("viem");
    const account = privateKeyToAccount(USER_PRIVATE_KEY);
    for (const chain of chains) {
      const shown = verifyPermit2Approval(parametersOf({ chain }));
      for (const digest of [shown.digest, shown.digest.toUpperCase().replace("0X", "0x")]) {
        const parameters = parametersOf({ chain });
        parameters.expected = { ...parameters.expected, digest: digest as `0x${string}` };
        expect(verifyPermit2Approval(parameters).digest).toBe(shown.digest);
      }
    }
    const parameters = parametersOf();
    const shown = verifyPermit2Approval(parameters);
    const { signature } = await signPermit2Approval({
      ...parameters,
      expected: { ...parameters.expected, digest: shown.digest },
      signer: account,
    });
    expect(await recoverAddress({ hash: shown.digest, signature })).toBe(account.address);
  });

  it.each([
    ["not hex", "0xzz"],
    ["31 bytes", `0x${"ab".repeat(31)}`],
    ["a number", 1],
    ["no 0x", "ab".repeat(32)],
  ])("a digest that is %s: PERMIT2_EXPECTED_INVALID (the wallet's own input)", (_name, digest) => {
    const parameters = parametersOf();
    parameters.expected = { ...parameters.expected, digest: digest as never };
    expect(codeOf(() => verifyPermit2Approval(parameters))).toBe("PERMIT2_EXPECTED_INVALID");
  });
});
