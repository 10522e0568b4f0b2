import { readFileSync } from "node:fs";
import { join } from "node:path";
import { signPermit2Approval } from "@swapintent/permit2/evm";
import { type Address, encodeFunctionData, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { compileSolidity } from "../src/legs/evm/compileSolidity.js";
import { createEvmLeg } from "../src/legs/evm/index.js";
import type { ChainLeg } from "../src/legs/types.js";
import {
  createIntent,
  createLegContext,
  createManualClock,
  createSecret,
  toClientShapes,
} from "./legs-evm-helpers.js";
import { createLegClients } from "./support/smartAccounts.js";

/**
 * A contract owner is asked about its signature the way Permit2 asks it (a STATICCALL), on the real Permit2 (anvil):
 * an account that says yes to any hash only when it cannot write state (as under Permit2) and otherwise commits to
 * the first hash it is asked cannot look like an account that commits to the permit.
 */
const clock = createManualClock();
const CHAIN_ID = 1337002;
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

/** Deploys `StaticContextAccount` and lets Permit2 move `usdc` from it. */
async function deployStaticContextAccount(): Promise<Address> {
  const source = readFileSync(join(import.meta.dirname, "contracts", "StaticContextAccount.sol"), "utf8");
  const { StaticContextAccount: artifact } = await compileSolidity({
    label: "test-static-context-account",
    sources: { "StaticContextAccount.sol": source },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      metadata: { bytecodeHash: "none" },
      evmVersion: "london",
    },
    contracts: ["StaticContextAccount.sol:StaticContextAccount"],
  });
  if (!artifact) throw new Error("StaticContextAccount did not compile");
  const deployer = privateKeyToAccount(generatePrivateKey());
  const { publicClient, walletOf } = createLegClients(evm);
  await evm.faucet({
    address: deployer.address,
    token: "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE",
    amountLots: 10n ** 18n,
  });
  const wallet = walletOf(deployer);
  const hash = await wallet.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    args: [evm.info().permit2Address as Address],
  });
  const address = (await publicClient.waitForTransactionReceipt({ hash })).contractAddress as Address;
  const approve = await wallet.sendTransaction({
    to: address,
    data: encodeFunctionData({ abi: artifact.abi, functionName: "approvePermit2", args: [usdc] }),
  });
  await publicClient.waitForTransactionReceipt({ hash: approve });
  return address;
}

it("an account that accepts any hash only under a STATICCALL is refused as accepts-any-hash; Permit2 would take junk from it", async () => {
  const owner = await deployStaticContextAccount();
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
  const junk = `0x${"ab".repeat(70)}` as Hex;
  const { publicClient } = createLegClients(evm);
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
    signer: { address: owner, signTypedData: async () => junk },
    publicClient,
  });
  await expect(signing).rejects.toMatchObject({
    code: "PERMIT2_CONTRACT_SIGNATURE_INVALID",
    details: { reason: "accepts-any-hash", owner: owner.toLowerCase() },
  });
  // What the signer stops: the service's Permit2 takes this junk as the owner's consent.
  await evm.verifyApproval(intent, legData, { type: "permit2", signedData: junk });
});
