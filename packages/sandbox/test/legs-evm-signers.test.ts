import { signPermit2Approval } from "@swapintent/permit2/evm";
import { signTronPermit2Approval } from "@swapintent/permit2/tron";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEvmLeg, createTronLeg } from "../src/legs/evm/index.js";
import type { ChainLeg } from "../src/legs/types.js";
import {
  createIntent,
  createLegContext,
  createManualClock,
  createSecret,
  toClientShapes,
} from "./legs-evm-helpers.js";
import { fundEvmUser } from "./support/flows.js";

/**
 * The legs' params_to_sign must pass the project's own signer packages (which check every field against the
 * quote and the intent) and the signatures they make must be accepted by Permit2 on the engine.
 */
const clock = createManualClock();
let evm: ChainLeg;
let tron: ChainLeg;

beforeAll(async () => {
  evm = createEvmLeg(createLegContext({ id: 2, type: "EVM", clock }));
  tron = createTronLeg(createLegContext({ id: 3, type: "TRON", clock }));
  await Promise.all([evm.start(), tron.start()]);
});

afterAll(async () => {
  await Promise.all([evm?.stop(), tron?.stop()]);
});

describe("permit2 legs with the @swapintent/permit2 signers", () => {
  it("EVM network 2 (chain 1337002): signPermit2Approval verifies params_to_sign, the leg deposits", async () => {
    const info = evm.info();
    const tokens = info.tokens as Record<string, Address>;
    expect(info.chainId).toBe(1337002);
    const { account: user } = await fundEvmUser({
      leg: evm,
      token: tokens.USDC as string,
      amountLots: 5_000_000n,
    });

    const { secretHash } = createSecret();
    const intent = createIntent({
      sourceToken: tokens.USDC as string,
      amount: 5_000_000n,
      user: user.address,
      secretHash,
      deadlineSecs: Math.floor(clock.nowMs() / 1000) + 900,
    });
    const { paramsToSign, legData } = await evm.buildApproval(intent);
    const { clientIntent, quote } = toClientShapes({
      intent,
      paramsToSign,
      sourceChain: 2,
      nowMs: clock.nowMs(),
    });
    const signed = await signPermit2Approval({
      intent: clientIntent,
      quote,
      expected: {
        chainId: 1337002,
        recipient: intent.userDestinationAddress,
        owner: user.address,
        spender: info.escrowAddress as string,
      },
      allowedPermit2Addresses: [info.permit2Address as string],
      nowMs: clock.nowMs(),
      signer: user,
    });
    const verified = await evm.verifyApproval(intent, legData, {
      type: "permit2",
      signedData: signed.signature,
    });
    await evm.deposit(intent, verified.legData);
    expect(await evm.balanceOf(info.escrowAddress as string, tokens.USDC as string)).toBe(5_000_000n);
  });

  it("Tron: signTronPermit2Approval with TronWeb over base58 params_to_sign, the leg deposits", async () => {
    const info = tron.info();
    const tokens = info.tokens as Record<string, string>;
    const { privateKey: pk, address: user } = await fundEvmUser({
      leg: tron,
      token: tokens.USDT as string,
      amountLots: 6_000_000n,
    });

    const { secretHash } = createSecret();
    const intent = createIntent({
      sourceToken: tokens.USDT as string,
      amount: 6_000_000n,
      user,
      secretHash,
      deadlineSecs: Math.floor(clock.nowMs() / 1000) + 900,
    });
    const { paramsToSign, legData } = await tron.buildApproval(intent);
    const { clientIntent, quote } = toClientShapes({
      intent,
      paramsToSign,
      sourceChain: 3,
      nowMs: clock.nowMs(),
    });
    const signed = await signTronPermit2Approval({
      intent: clientIntent,
      quote,
      expected: {
        chainId: 1396788804,
        recipient: intent.userDestinationAddress,
        owner: user,
        spender: info.escrowAddress as string,
      },
      allowedPermit2Addresses: [info.permit2Address as string],
      nowMs: clock.nowMs(),
      privateKey: pk,
    });
    const verified = await tron.verifyApproval(intent, legData, {
      type: "permit2",
      signedData: signed.signature,
    });
    await tron.deposit(intent, verified.legData);
    expect(await tron.balanceOf(info.escrowAddress as string, tokens.USDT as string)).toBe(6_000_000n);
  });
});
