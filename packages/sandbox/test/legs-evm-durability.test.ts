import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEvmLeg } from "../src/legs/evm/index.js";
import type { ChainLeg } from "../src/legs/types.js";
import {
  buildTypedDataFromParams,
  createIntent,
  createLegContext,
  createManualClock,
  createSecret,
  type Permit2ParamsJson,
} from "./legs-evm-helpers.js";
import { fundEvmUser } from "./support/flows.js";

const dataDir = mkdtempSync(join(tmpdir(), "swapintent-evm-leg-"));
const legs: ChainLeg[] = [];

const clock = createManualClock();
const seed = new Uint8Array(32).fill(7);
let first: ChainLeg;

// Starting in a hook: a cold artifact cache compiles Permit2 here (hook timeout, not test timeout).
beforeAll(async () => {
  first = createEvmLeg(createLegContext({ id: 1, type: "EVM", clock, dataDir, seed }));
  legs.push(first);
  await first.start();
});

afterAll(async () => {
  for (const leg of legs) await leg.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("EVM leg durability", () => {
  it("keeps contracts, balances and escrow locks across a SIGKILL of anvil and a restart on the same folder", async () => {
    const info = first.info();
    const tokens = info.tokens as Record<string, Address>;

    const { account: user } = await fundEvmUser({
      leg: first,
      token: tokens.USDC as string,
      amountLots: 9_000_000n,
    });

    const { secret, secretHash } = createSecret();
    const deadlineSecs = Math.floor(clock.nowMs() / 1000) + 600;
    const intent = createIntent({
      sourceToken: tokens.USDC as string,
      amount: 4_000_000n,
      user: user.address,
      secretHash,
      deadlineSecs,
    });
    const { paramsToSign, legData } = await first.buildApproval(intent);
    const signature = await user.signTypedData(
      buildTypedDataFromParams(paramsToSign as unknown as Permit2ParamsJson, {
        sourceToken: intent.sourceToken,
        amount: intent.sourceAmountLots,
        deadlineSecs,
      }) as never,
    );
    const verified = await first.verifyApproval(intent, legData, { type: "permit2", signedData: signature });
    const deposit = await first.deposit(intent, verified.legData);
    // The last write right before the crash must survive too (no waiting for a periodic dump).
    const bystander = privateKeyToAccount(generatePrivateKey()).address;
    await first.faucet({ address: bystander, token: tokens.USDT as string, amountLots: 777n });

    process.kill(info.enginePid as number, "SIGKILL");
    await first.stop();

    const second = createEvmLeg(createLegContext({ id: 1, type: "EVM", clock, dataDir, seed }));
    legs.push(second);
    await second.start();
    const reopened = second.info();
    expect(reopened.enginePid).not.toBe(info.enginePid);
    for (const key of ["permit2Address", "escrowAddress", "resolverDepositAddress", "tokens"])
      expect(reopened[key]).toEqual(info[key]);

    expect(await second.balanceOf(user.address, tokens.USDC as string)).toBe(5_000_000n);
    expect(await second.balanceOf(info.escrowAddress as string, tokens.USDC as string)).toBe(4_000_000n);
    expect(await second.balanceOf(bystander, tokens.USDT as string)).toBe(777n);

    // The escrow still holds the lock: a retried deposit (without the stored hash) finds the original transaction.
    expect((await second.deposit(intent, verified.legData)).txHash).toBe(deposit.txHash);
    const inventory = await second.inventory(tokens.USDC as string);
    await second.claim(intent, deposit.legData, secret);
    expect(await second.inventory(tokens.USDC as string)).toBe(inventory + 4_000_000n);
  });
});
