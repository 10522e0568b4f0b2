import { isPermit2Error, type Permit2EvmTypedData, signPermit2Approval } from "@swapintent/permit2/evm";
import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  getAddress,
  type Hex,
  hashTypedData,
  http,
  keccak256,
  serializeErc6492Signature,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEvmLeg } from "../src/legs/evm/index.js";
import type { ChainLeg } from "../src/legs/types.js";
import {
  catchLegRejection,
  createIntent,
  createLegContext,
  createManualClock,
  createSecret,
  toClientShapes,
} from "./legs-evm-helpers.js";
import {
  createLegClients,
  createSandboxSmartAccount,
  createSmartWalletSigner,
  deployTestAccount,
} from "./support/smartAccounts.js";

/**
 * Smart-account owners on the real Permit2 (anvil): the signer checks a contract owner's signature as Permit2 will
 * (ERC-1271, ERC-6492 for an account not yet deployed) and refuses, before submission, every signature Permit2
 * would refuse, or that does not commit to the permit; the leg accepts what Permit2's simulation accepts.
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

/** An intent from `owner`, built by the leg, and what the signer needs for it. */
async function prepare(owner: Address, amount = 2_000_000n) {
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
  const verifyParameters = {
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
  };
  return { intent, legData, verifyParameters };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isPermit2Error(error)) return error.code;
    throw error;
  }
  return "signed";
}

describe("a deployed SandboxSmartAccount (ERC-1271)", () => {
  it("signs through its wallet, the signer checks isValidSignature, the leg's Permit2 accepts and deposits", async () => {
    const smart = await createSandboxSmartAccount({ leg: evm, deploy: true });
    const { intent, legData, verifyParameters } = await prepare(smart.address);
    const { publicClient } = createLegClients(evm);
    const signed = await signPermit2Approval({
      ...verifyParameters,
      signer: createSmartWalletSigner({ owner: smart.owner, account: smart.address, chainId: CHAIN_ID }),
      publicClient,
    });
    expect(signed.owner).toBe(smart.address);
    const verified = await evm.verifyApproval(intent, legData, {
      type: "permit2",
      signedData: signed.signature,
    });
    await evm.deposit(intent, verified.legData);
    expect(await evm.balanceOf(smart.address, usdc)).toBe(0n);
  });

  it("the owner key's bare signature of the permit (not the account's replay-safe hash): refused by the signer and by Permit2", async () => {
    const smart = await createSandboxSmartAccount({ leg: evm, deploy: true });
    const { intent, legData, verifyParameters } = await prepare(smart.address);
    const { publicClient } = createLegClients(evm);
    const bare = { address: smart.address, signTypedData: (td: never) => smart.owner.signTypedData(td) };
    const refused = signPermit2Approval({ ...verifyParameters, signer: bare, publicClient });
    await expect(refused).rejects.toMatchObject({
      code: "PERMIT2_CONTRACT_SIGNATURE_INVALID",
      details: { reason: "rejected" },
    });
    const signature = await smart.owner.signTypedData(
      (await import("@swapintent/permit2")).verifyPermit2Approval(verifyParameters).typedData as never,
    );
    expect(
      (
        await catchLegRejection(
          evm.verifyApproval(intent, legData, { type: "permit2", signedData: signature }),
        )
      ).code,
    ).toBe("SIGNATURE_INVALID");
  });

  it("a signature valid for another hash (another permit, another chain): PERMIT2_CONTRACT_SIGNATURE_INVALID, and Permit2 refuses it too", async () => {
    const smart = await createSandboxSmartAccount({ leg: evm, deploy: true });
    const { intent, legData, verifyParameters } = await prepare(smart.address);
    const { publicClient } = createLegClients(evm);
    type TypedData = Parameters<typeof hashTypedData>[0] & Permit2EvmTypedData;
    const tampers: ((td: Permit2EvmTypedData) => Hex)[] = [
      (td) => hashTypedData({ ...td, message: { ...td.message, nonce: td.message.nonce + 1n } } as TypedData),
      (td) => hashTypedData({ ...td, domain: { ...td.domain, chainId: 1 } } as TypedData),
      () => keccak256("0x01"),
    ];
    for (const tamper of tampers) {
      let sent: string | undefined;
      const inner = createSmartWalletSigner({
        owner: smart.owner,
        account: smart.address,
        chainId: CHAIN_ID,
        tamper,
      });
      const signer = { ...inner, signTypedData: async (td: never) => (sent = await inner.signTypedData(td)) };
      expect(await codeOf(signPermit2Approval({ ...verifyParameters, signer, publicClient }))).toBe(
        "PERMIT2_CONTRACT_SIGNATURE_INVALID",
      );
      const rejection = await catchLegRejection(
        evm.verifyApproval(intent, legData, { type: "permit2", signedData: sent as string }),
      );
      expect(rejection.code).toBe("SIGNATURE_INVALID");
    }
  });

  it("a reader on another chain: PERMIT2_CHAIN_ID_MISMATCH before the contract is asked", async () => {
    const smart = await createSandboxSmartAccount({ leg: evm, deploy: true });
    const { verifyParameters } = await prepare(smart.address);
    const { publicClient } = createLegClients(evm);
    const methods: string[] = [];
    const otherChain = {
      request: async (args: { method: string; params?: unknown }) => {
        methods.push(args.method);
        return args.method === "eth_chainId" ? "0x1" : publicClient.request(args as never);
      },
    };
    const signer = createSmartWalletSigner({ owner: smart.owner, account: smart.address, chainId: CHAIN_ID });
    expect(await codeOf(signPermit2Approval({ ...verifyParameters, signer, publicClient: otherChain }))).toBe(
      "PERMIT2_CHAIN_ID_MISMATCH",
    );
    expect(methods).toEqual(["eth_chainId"]);
  });
});

describe("a contract that approves everything", () => {
  it("is refused as accepts-any-hash, although Permit2 on the chain would take any signature from it", async () => {
    const permissive = await deployTestAccount({ leg: evm, token: usdc, contract: "PermissiveAccount" });
    const { intent, legData, verifyParameters } = await prepare(permissive);
    const { publicClient } = createLegClients(evm);
    const junk = `0x${"ab".repeat(70)}` as Hex;
    const signer = { address: permissive, signTypedData: async () => junk };
    await expect(signPermit2Approval({ ...verifyParameters, signer, publicClient })).rejects.toMatchObject({
      code: "PERMIT2_CONTRACT_SIGNATURE_INVALID",
      details: { reason: "accepts-any-hash", owner: permissive.toLowerCase() },
    });
    // What the signer stops: the service's Permit2 would take this junk as the owner's consent.
    await evm.verifyApproval(intent, legData, { type: "permit2", signedData: junk });
  });
});

describe("ERC-6492: an account not deployed yet", () => {
  it("a 6492-wrapped signature: the signer simulates the factory call, the leg deploys the account, Permit2 deposits", async () => {
    const smart = await createSandboxSmartAccount({ leg: evm, deploy: false });
    const { publicClient } = createLegClients(evm);
    expect(await publicClient.getCode({ address: smart.address })).toBeUndefined();
    const { intent, legData, verifyParameters } = await prepare(smart.address);
    const signer = createSmartWalletSigner({
      owner: smart.owner,
      account: smart.address,
      chainId: CHAIN_ID,
      counterfactual: { factory: smart.factory, factoryData: smart.factoryData },
    });
    const signed = await signPermit2Approval({ ...verifyParameters, signer, publicClient });
    // the signer only simulated: the account is still undeployed when the approval is submitted
    expect(await publicClient.getCode({ address: smart.address })).toBeUndefined();
    expect(signed.signature.endsWith("6492".repeat(16))).toBe(true);
    const verified = await evm.verifyApproval(intent, legData, {
      type: "permit2",
      signedData: signed.signature,
    });
    expect(await publicClient.getCode({ address: smart.address })).not.toBeUndefined();
    await evm.deposit(intent, verified.legData);
    expect(await evm.balanceOf(smart.address, usdc)).toBe(0n);
  });

  it("a wrapper whose factory call deploys another account: PERMIT2_CONTRACT_DEPLOYMENT_MISMATCH, and the leg refuses it before deploying", async () => {
    const smart = await createSandboxSmartAccount({ leg: evm, deploy: false });
    const decoy = await createSandboxSmartAccount({ leg: evm, deploy: false, salt: `0x${"0".repeat(62)}07` });
    const { publicClient } = createLegClients(evm);
    const { intent, legData, verifyParameters } = await prepare(smart.address);
    const factoryCalls: Hex[] = [
      decoy.factoryData,
      encodeFunctionData({
        abi: [{ type: "function", name: "nothing", inputs: [], outputs: [], stateMutability: "nonpayable" }],
        functionName: "nothing",
      }),
    ];
    for (const factoryData of factoryCalls) {
      let sent: string | undefined;
      const inner = createSmartWalletSigner({
        owner: smart.owner,
        account: smart.address,
        chainId: CHAIN_ID,
        counterfactual: { factory: smart.factory, factoryData },
      });
      const signer = { ...inner, signTypedData: async (td: never) => (sent = await inner.signTypedData(td)) };
      expect(await codeOf(signPermit2Approval({ ...verifyParameters, signer, publicClient }))).toBe(
        "PERMIT2_CONTRACT_DEPLOYMENT_MISMATCH",
      );
      const rejection = await catchLegRejection(
        evm.verifyApproval(intent, legData, { type: "permit2", signedData: sent as string }),
      );
      expect(rejection.code).toBe("SIGNATURE_INVALID");
    }
    expect(await publicClient.getCode({ address: decoy.address })).toBeUndefined();
    expect(await publicClient.getCode({ address: smart.address })).toBeUndefined();
  });

  it("a wrapper with a valid deployment but a signature for another hash: PERMIT2_CONTRACT_SIGNATURE_INVALID", async () => {
    const smart = await createSandboxSmartAccount({ leg: evm, deploy: false });
    const { publicClient } = createLegClients(evm);
    const { verifyParameters } = await prepare(smart.address);
    const signer = createSmartWalletSigner({
      owner: smart.owner,
      account: smart.address,
      chainId: CHAIN_ID,
      counterfactual: { factory: smart.factory, factoryData: smart.factoryData },
      tamper: () => keccak256("0x02"),
    });
    expect(await codeOf(signPermit2Approval({ ...verifyParameters, signer, publicClient }))).toBe(
      "PERMIT2_CONTRACT_SIGNATURE_INVALID",
    );
  });
});

describe("key-held owners keep the ECDSA check", () => {
  it("an EOA with an EIP-7702 delegation (code 0xef0100 ‖ delegate) signs with its key and recovers; a foreign signature stays PERMIT2_SIGNER_MISMATCH", async () => {
    const user = privateKeyToAccount(generatePrivateKey());
    const smart = await createSandboxSmartAccount({ leg: evm, deploy: true });
    const rpcUrl = evm.info().rpcUrl as string;
    await createPublicClient({ transport: http(rpcUrl) }).request({
      method: "anvil_setCode" as never,
      params: [user.address, `0xef0100${smart.address.slice(2).toLowerCase()}`] as never,
    });
    const { publicClient } = createLegClients(evm);
    expect((await publicClient.getCode({ address: user.address }))?.startsWith("0xef0100")).toBe(true);
    const { verifyParameters } = await prepare(getAddress(user.address));
    const custom = { address: user.address, signTypedData: (td: never) => user.signTypedData(td) };
    const signed = await signPermit2Approval({ ...verifyParameters, signer: custom, publicClient });
    expect(signed.signature).toHaveLength(132);
    const stranger = privateKeyToAccount(generatePrivateKey());
    const foreign = { address: user.address, signTypedData: (td: never) => stranger.signTypedData(td) };
    expect(await codeOf(signPermit2Approval({ ...verifyParameters, signer: foreign, publicClient }))).toBe(
      "PERMIT2_SIGNER_MISMATCH",
    );
    // a 6492-looking wrapper around a foreign signature for a delegated EOA is not a contract signature either
    const wrapped = {
      address: user.address,
      signTypedData: async (td: never) =>
        serializeErc6492Signature({
          address: smart.factory,
          data: smart.factoryData,
          signature: await stranger.signTypedData(td),
        }),
    };
    expect(await codeOf(signPermit2Approval({ ...verifyParameters, signer: wrapped, publicClient }))).toBe(
      "PERMIT2_SIGNATURE_INVALID",
    );
  });
});
