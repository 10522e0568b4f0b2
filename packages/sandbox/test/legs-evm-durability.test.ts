import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEvmLeg, createTronLeg, formatTronAddress, parseTronAddress } from "../src/legs/evm/index.js";
import { createPermit2Leg } from "../src/legs/evm/permit2Leg/createPermit2Leg.js";
import type { ChainLeg } from "../src/legs/types.js";
import {
  buildTypedDataFromParams,
  createIntent,
  createLegContext,
  createManualClock,
  createSecret,
  type Permit2ParamsJson,
} from "./legs-evm-helpers.js";
import { createEngineClients, fundEvmUser, TRON_NATIVE_TOKEN, toHexAddress } from "./support/flows.js";

const dataDir = mkdtempSync(join(tmpdir(), "swapintent-evm-leg-"));
const tronDataDir = mkdtempSync(join(tmpdir(), "swapintent-tron-leg-"));
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
  rmSync(tronDataDir, { recursive: true, force: true });
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

describe("Tron leg durability", () => {
  it("keeps native TRX and WTRX balances in sun across a restart, and refuses the state under another native scale", async () => {
    const tronSeed = new Uint8Array(32).fill(9);
    const tron = createTronLeg(
      createLegContext({ id: 3, type: "TRON", clock, dataDir: tronDataDir, seed: tronSeed }),
    );
    legs.push(tron);
    await tron.start();
    const tokens = tron.info().tokens as Record<string, string>;
    const { address: user } = await fundEvmUser({ leg: tron, token: tokens.WTRX as string, amountLots: 0n });
    await tron.faucet({ address: user, token: TRON_NATIVE_TOKEN, amountLots: 7_000_000n });
    await tron.faucet({ address: user, token: tokens.WTRX as string, amountLots: 321n });
    // fundEvmUser gave 1 TRX for gas; nothing was spent.
    expect(await tron.balanceOf(user, TRON_NATIVE_TOKEN)).toBe(8_000_000n);
    await tron.stop();

    // The same leg as it was before TRX was scaled (1 wei per sun) finds WTRX deployed with 10^12: refused,
    // and its engine is stopped again.
    const wrongScale = createPermit2Leg({
      ctx: createLegContext({ id: 3, type: "TRON", clock, dataDir: tronDataDir, seed: tronSeed }),
      type: "TRON",
      chainId: 1_396_788_804,
      parseAddress: parseTronAddress,
      formatAddress: formatTronAddress,
      native: {
        symbol: "TRX",
        name: "Tronix",
        decimals: 6,
        contractAddress: TRON_NATIVE_TOKEN,
        wrappedSymbol: "WTRX",
        weiPerLot: 1n,
      },
      erc20s: [
        { symbol: "WTRX", name: "Wrapped TRX", decimals: 6, wrapsNative: true },
        { symbol: "USDT", name: "Tether USD", decimals: 6, wrapsNative: false },
      ],
    });
    legs.push(wrongScale);
    await expect(wrongScale.start()).rejects.toThrow(/another native scale/);
    expect(() => wrongScale.info()).toThrow(/not started/);

    const reopened = createTronLeg(
      createLegContext({ id: 3, type: "TRON", clock, dataDir: tronDataDir, seed: tronSeed }),
    );
    legs.push(reopened);
    await reopened.start();
    expect(reopened.info().tokens).toEqual(tokens);
    expect(await reopened.balanceOf(user, TRON_NATIVE_TOKEN)).toBe(8_000_000n);
    expect(await reopened.balanceOf(user, tokens.WTRX as string)).toBe(321n);
    const { publicClient } = createEngineClients(reopened.info());
    expect(await publicClient.getBalance({ address: toHexAddress(user) })).toBe(8_000_000n * 10n ** 12n);
  });
});
