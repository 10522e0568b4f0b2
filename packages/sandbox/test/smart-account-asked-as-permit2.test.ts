import { type Permit2EvmTypedData, signPermit2Approval } from "@swapintent/permit2/evm";
import { type Address, concat, type Hex, hashTypedData } from "viem";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createEvmLeg } from "../src/legs/evm/index.js";
import type { ChainLeg } from "../src/legs/types.js";
import {
  createIntent,
  createLegContext,
  createManualClock,
  createSecret,
  toClientShapes,
} from "./legs-evm-helpers.js";
import { createLegClients, deployTestAccount } from "./support/smartAccounts.js";

/**
 * A contract owner is asked about its signature the way Permit2 asks it, on the real Permit2 (anvil): by a STATICCALL,
 * its answer read as Permit2's ABI decoder reads it. An account that answers the signer's questions one way and
 * Permit2's another cannot look like an account that commits to the permit while Permit2 takes any signature from it.
 */
const clock = createManualClock();
const CHAIN_ID = 1337002;
const JUNK = `0x${"ab".repeat(70)}` as Hex;
let evm: ChainLeg;
let usdc: Address;

beforeAll(async () => {
  evm = createEvmLeg(createLegContext({ id: 2, type: "EVM", clock }));
  await evm.start();
  usdc = (evm.info().tokens as Record<string, Address>).USDC as Address;
});

afterAll(async () => {
  await evm?.stop();
});

/** Signs for the contract `owner` with `sign`; returns the signer's outcome and whether Permit2 takes `JUNK`. */
async function signAndSubmitJunk(owner: Address, sign: (typedData: Permit2EvmTypedData) => Hex) {
  const amount = 2_000_000n;
  await evm.faucet({ address: owner, token: usdc, amountLots: amount });
  const intent = createIntent({
    sourceToken: usdc,
    amount,
    user: owner,
    secretHash: createSecret().secretHash,
    deadlineSecs: Math.floor(clock.nowMs() / 1000) + 900,
  });
  const { paramsToSign, legData } = await evm.buildApproval(intent);
  const { clientIntent, quote } = toClientShapes({
    intent,
    paramsToSign,
    sourceChain: 2,
    nowMs: clock.nowMs(),
  });
  const info = evm.info();
  const signing = signPermit2Approval({
    intent: clientIntent,
    quote,
    expected: {
      chainId: CHAIN_ID,
      recipient: intent.userDestinationAddress,
      owner,
      spender: info.escrowAddress as string,
    },
    allowedPermit2Addresses: [info.permit2Address as string],
    nowMs: clock.nowMs(),
    signer: { address: owner, signTypedData: async (typedData: Permit2EvmTypedData) => sign(typedData) },
    publicClient: createLegClients(evm).publicClient,
  }).catch((error: unknown) => error);
  // What the signer stops: the service's Permit2 takes this junk as the owner's consent.
  await evm.verifyApproval(intent, legData, { type: "permit2", signedData: JUNK });
  return signing;
}

it("an account that accepts any hash only under a STATICCALL (as Permit2 asks) is refused as accepts-any-hash", async () => {
  const owner = await deployTestAccount({ leg: evm, token: usdc, contract: "StaticContextAccount" });
  expect(await signAndSubmitJunk(owner, () => JUNK)).toMatchObject({
    code: "PERMIT2_CONTRACT_SIGNATURE_INVALID",
    details: { reason: "accepts-any-hash", owner: owner.toLowerCase() },
  });
});

it("an account that answers any other hash with a two-word magic value (Permit2's decoder reads yes) is refused as accepts-any-hash", async () => {
  const owner = await deployTestAccount({ leg: evm, token: usdc, contract: "DigestEchoAccount" });
  const naming = (typedData: Permit2EvmTypedData) =>
    concat([hashTypedData(typedData as Parameters<typeof hashTypedData>[0]), JUNK]);
  expect(await signAndSubmitJunk(owner, naming)).toMatchObject({
    code: "PERMIT2_CONTRACT_SIGNATURE_INVALID",
    details: { reason: "accepts-any-hash", owner: owner.toLowerCase() },
  });
});
