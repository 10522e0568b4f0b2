import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBitcoinLeg } from "../src/legs/bitcoin/index.js";
import { createEvmLeg } from "../src/legs/evm/index.js";
import { createSolanaLeg } from "../src/legs/solana/index.js";
import type { ChainLeg, Json, LegIntent, NetworkType, SubmittedApproval } from "../src/legs/types.js";
import { catchLegRejection, createLegContext, createManualClock, createSecret } from "./legs-evm-helpers.js";

// Every leg reads an intent's stored legData through one check (src/legs/readLegData.ts) before its engine does
// anything: whatever the core hands back that is not the leg's own record is refused, for every step that reads it.
const MALFORMED: [string, Json][] = [
  ["null", null],
  ["a string", "x"],
  ["a number", 1],
  ["an array", []],
  ["an empty object", {}],
  ["the key as a number", { nonce: 1, message: 1, psbt: 1 }],
];

const clock = createManualClock();
const legs: ChainLeg[] = [];

interface LegCase {
  type: NetworkType;
  create: () => ChainLeg;
  approval: SubmittedApproval;
  /** The steps that read legData (EVM's claim and refund read the escrow's own lock instead). */
  steps: ("verifyApproval" | "deposit" | "claim" | "refund")[];
}

const CASES: LegCase[] = [
  {
    type: "EVM",
    create: () => createEvmLeg(createLegContext({ id: 1, type: "EVM", clock })),
    approval: { type: "permit2", signedData: `0x${"11".repeat(64)}1b` },
    steps: ["verifyApproval", "deposit"],
  },
  {
    type: "SOLANA",
    create: () => createSolanaLeg(createLegContext({ id: 5, type: "SOLANA", clock })),
    approval: { type: "cosign", signedData: { transaction: "00", user_address: "x" } },
    steps: ["verifyApproval", "deposit", "claim", "refund"],
  },
  {
    type: "BITCOIN",
    create: () => createBitcoinLeg(createLegContext({ id: 4, type: "BITCOIN", clock })),
    approval: { type: "psbt", signedData: "cHNidP8=" },
    steps: ["verifyApproval", "deposit", "claim", "refund"],
  },
];

const started = new Map<NetworkType, ChainLeg>();

beforeAll(async () => {
  for (const c of CASES) {
    const leg = c.create();
    legs.push(leg);
    await leg.start();
    started.set(c.type, leg);
  }
});

afterAll(async () => {
  for (const leg of legs) await leg.stop();
});

function intentFor(): { intent: LegIntent; secret: Uint8Array } {
  const { secret, secretHash } = createSecret();
  const intent: LegIntent = {
    intentId: randomUUID(),
    sourceToken: "x",
    sourceAmountLots: 1_000n,
    destChain: 1,
    destToken: "x",
    minDestAmountLots: 1n,
    maxDestAmountLots: 1n,
    userSourceAddress: "x",
    userSourcePublicKey: null,
    userDestinationAddress: "x",
    refundAddress: "x",
    secretHash,
    deadlineSecs: Math.floor(clock.nowMs() / 1000) + 600,
  };
  return { intent, secret };
}

describe.each(CASES)("$type leg: legData that is not the leg's own record", (c) => {
  it.each(MALFORMED)(
    "is refused with LEG_DATA_INVALID by every step that reads it (%s)",
    async (_what, legData) => {
      const leg = started.get(c.type) as ChainLeg;
      const { intent, secret } = intentFor();
      const calls = {
        verifyApproval: () => leg.verifyApproval(intent, legData, c.approval),
        deposit: () => leg.deposit(intent, legData),
        claim: () => leg.claim(intent, legData, secret),
        refund: () => leg.refund(intent, legData),
      };
      for (const step of c.steps) {
        const rejection = await catchLegRejection(calls[step]());
        expect(rejection.code, step).toBe("LEG_DATA_INVALID");
      }
    },
  );
});
