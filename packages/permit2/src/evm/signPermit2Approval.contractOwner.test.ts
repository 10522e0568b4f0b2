/**
 * A contract owner (smart account) through `publicClient`, with a scripted chain reader: which requests are made,
 * when, and how each answer of the chain is judged. The same checks run against the real Permit2 and real accounts
 * on anvil in the sandbox's `smart-account-permit2.test.ts`.
 */
import { encodeAbiParameters, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import {
  buildPermit2Fixture,
  EVM,
  OTHER_PRIVATE_KEY,
  USER_ADDRESS,
  USER_PRIVATE_KEY,
} from "../../test/fixtures/buildPermit2Fixture.js";
import { isPermit2Error } from "../errors.js";
import { CONTRACT_SIGNATURE_PROBE_BYTECODE } from "./contractSignatureProbe.js";
import { signPermit2Approval } from "./signPermit2Approval.js";

const f = buildPermit2Fixture();
const parameters = {
  intent: f.intent,
  quote: f.quote,
  expected: f.expected,
  allowedPermit2Addresses: f.allowedPermit2Addresses,
  nowMs: f.nowMs,
};
const MAGIC = "0x1626ba7e";
const CONTRACT_SIGNATURE = `0x${"5a".repeat(97)}` as Hex;

interface ProbeAnswer {
  codeBefore?: bigint;
  factoryCalled?: boolean;
  factorySucceeded?: boolean;
  codeAfter?: bigint;
  forDigest?: Hex;
  forControl?: Hex;
}

/** A chain reader that answers from a script and records every request. */
function scriptedReader(script: {
  chainId?: unknown;
  code?: unknown;
  probe?: ProbeAnswer | Hex;
  fail?: string;
}) {
  const requests: { method: string; params?: unknown }[] = [];
  const reader = {
    async request(args: { method: string; params?: unknown }) {
      requests.push(args);
      if (script.fail === args.method) throw new Error(`${args.method} unavailable`);
      if (args.method === "eth_chainId") return script.chainId ?? `0x${EVM.chainId.toString(16)}`;
      if (args.method === "eth_getCode") return script.code ?? "0x60016000";
      if (args.method === "eth_call") {
        if (typeof script.probe === "string") return script.probe;
        const p = script.probe ?? {};
        return encodeAbiParameters(
          [
            { type: "uint256" },
            { type: "bool" },
            { type: "bool" },
            { type: "uint256" },
            { type: "bytes4" },
            { type: "bytes4" },
          ],
          [
            p.codeBefore ?? 4n,
            p.factoryCalled ?? false,
            p.factorySucceeded ?? false,
            p.codeAfter ?? 4n,
            p.forDigest ?? MAGIC,
            p.forControl ?? "0xffffffff",
          ],
        );
      }
      throw new Error(`unexpected ${args.method}`);
    },
  };
  return { reader, requests, methods: () => requests.map((r) => r.method) };
}

/** A custom signer for the user's address that answers `answer` (and counts how often it was asked). */
function answering(answer: unknown) {
  const asked = { count: 0 };
  return {
    asked,
    signer: {
      address: USER_ADDRESS,
      signTypedData: async () => {
        asked.count++;
        return answer as string;
      },
    },
  };
}

async function codeOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
    return "signed";
  } catch (error) {
    if (isPermit2Error(error)) return { code: error.code, details: error.details };
    throw error;
  }
}

describe("key-held owners: today's ECDSA check, no chain read", () => {
  it("a viem local account with publicClient: signs and recovers, the reader is never asked (even when it would fail)", async () => {
    const chain = scriptedReader({ fail: "eth_chainId" });
    const signed = await signPermit2Approval({
      ...parameters,
      signer: privateKeyToAccount(USER_PRIVATE_KEY),
      publicClient: chain.reader,
    });
    expect(signed.signature).toHaveLength(132);
    expect(chain.requests).toEqual([]);
  });

  it("a custom signer whose 65-byte signature recovers to the owner: accepted with no chain read", async () => {
    const chain = scriptedReader({});
    const key = privateKeyToAccount(USER_PRIVATE_KEY);
    const signer = { address: USER_ADDRESS, signTypedData: (td: never) => key.signTypedData(td) };
    await signPermit2Approval({ ...parameters, signer, publicClient: chain.reader });
    expect(chain.requests).toEqual([]);
  });

  it("an owner without code, or with an EIP-7702 delegation, keeps the ECDSA refusal (PERMIT2_SIGNER_MISMATCH), no eth_call", async () => {
    const other = privateKeyToAccount(OTHER_PRIVATE_KEY);
    for (const code of ["0x", `0xef0100${"11".repeat(20)}`]) {
      const chain = scriptedReader({ code });
      const signer = { address: USER_ADDRESS, signTypedData: (td: never) => other.signTypedData(td) };
      expect(
        await codeOf(signPermit2Approval({ ...parameters, signer, publicClient: chain.reader })),
      ).toMatchObject({
        code: "PERMIT2_SIGNER_MISMATCH",
      });
      expect(chain.methods()).toEqual(["eth_chainId", "eth_getCode"]);
    }
  });

  it("junk from a wallet that is not a contract stays PERMIT2_SIGNATURE_INVALID, with no chain read", async () => {
    const chain = scriptedReader({});
    for (const junk of [42, "0x1234z", `0x${"ab".repeat(16_385)}`]) {
      const { signer } = answering(junk);
      expect(
        await codeOf(signPermit2Approval({ ...parameters, signer, publicClient: chain.reader })),
      ).toMatchObject({
        code: "PERMIT2_SIGNATURE_INVALID",
      });
    }
    expect(chain.requests).toEqual([]);
  });
});

describe("a contract owner: what Permit2 will ask, before submission", () => {
  it("accepted: the probe's eth_call carries its creation code, the digest and the signature; the approval carries the signature as given", async () => {
    const chain = scriptedReader({});
    const { signer } = answering(CONTRACT_SIGNATURE.toUpperCase().replace("0X", "0x"));
    const signed = await signPermit2Approval({ ...parameters, signer, publicClient: chain.reader });
    expect(signed.signature).toBe(CONTRACT_SIGNATURE);
    expect(signed.approval).toEqual({ type: "permit2", signedData: CONTRACT_SIGNATURE });
    expect(chain.methods()).toEqual(["eth_chainId", "eth_getCode", "eth_call"]);
    const data = (chain.requests[2] as { params: [{ data: Hex }] }).params[0].data;
    expect(data.startsWith(CONTRACT_SIGNATURE_PROBE_BYTECODE)).toBe(true);
    expect(data).toContain(signed.verified.digest.slice(2));
    expect(data).toContain(CONTRACT_SIGNATURE.slice(2));
  });

  it.each([
    [
      "the contract refuses the digest",
      { forDigest: "0xffffffff" as Hex },
      "PERMIT2_CONTRACT_SIGNATURE_INVALID",
      "rejected",
    ],
    [
      "the contract answers nothing",
      { forDigest: "0x00000000" as Hex },
      "PERMIT2_CONTRACT_SIGNATURE_INVALID",
      "rejected",
    ],
    [
      "the contract also accepts an unrelated hash",
      { forControl: MAGIC as Hex },
      "PERMIT2_CONTRACT_SIGNATURE_INVALID",
      "accepts-any-hash",
    ],
    ["no code after all", { codeAfter: 0n }, "PERMIT2_CONTRACT_SIGNATURE_INVALID", "no-code"],
  ])("%s: %s", async (_name, probe, code, reason) => {
    const chain = scriptedReader({ probe });
    const { signer } = answering(CONTRACT_SIGNATURE);
    expect(
      await codeOf(signPermit2Approval({ ...parameters, signer, publicClient: chain.reader })),
    ).toMatchObject({
      code,
      details: { reason, owner: USER_ADDRESS.toLowerCase() },
    });
  });

  it("an ERC-6492 wrapper whose factory call does not deploy the owner: PERMIT2_CONTRACT_DEPLOYMENT_MISMATCH with the factory", async () => {
    const factory = `0x${"fa".repeat(20)}` as Hex;
    const wrapped = `${encodeAbiParameters(
      [{ type: "address" }, { type: "bytes" }, { type: "bytes" }],
      [factory, "0xdeadbeef", CONTRACT_SIGNATURE],
    )}${"6492".repeat(16)}` as Hex;
    for (const factorySucceeded of [true, false]) {
      const chain = scriptedReader({
        code: "0x",
        probe: { codeBefore: 0n, factoryCalled: true, factorySucceeded, codeAfter: 0n },
      });
      const { signer } = answering(wrapped);
      expect(
        await codeOf(signPermit2Approval({ ...parameters, signer, publicClient: chain.reader })),
      ).toEqual({
        code: "PERMIT2_CONTRACT_DEPLOYMENT_MISMATCH",
        details: { owner: USER_ADDRESS.toLowerCase(), factory, factorySucceeded },
      });
    }
  });

  it("a reader on another chain: PERMIT2_CHAIN_ID_MISMATCH before the owner's code is read", async () => {
    const chain = scriptedReader({ chainId: "0x1" });
    const { signer } = answering(CONTRACT_SIGNATURE);
    expect(
      await codeOf(signPermit2Approval({ ...parameters, signer, publicClient: chain.reader })),
    ).toMatchObject({
      code: "PERMIT2_CHAIN_ID_MISMATCH",
      details: { expected: EVM.chainId, actual: "0x1" },
    });
    expect(chain.methods()).toEqual(["eth_chainId"]);
  });

  it.each([
    ["eth_chainId fails", { fail: "eth_chainId" }, "eth_chainId"],
    ["eth_chainId is no hex", { chainId: 1337 }, "eth_chainId"],
    ["eth_getCode fails", { fail: "eth_getCode" }, "eth_getCode"],
    ["eth_getCode is no string", { code: 42 }, "eth_getCode"],
    ["eth_call fails", { fail: "eth_call" }, "eth_call"],
    ["eth_call answers junk", { probe: "0x1234" as Hex }, "eth_call"],
  ])("%s: PERMIT2_CONTRACT_CHECK_FAILED", async (_name, script, method) => {
    const chain = scriptedReader(script);
    const { signer } = answering(CONTRACT_SIGNATURE);
    expect(await codeOf(signPermit2Approval({ ...parameters, signer, publicClient: chain.reader }))).toEqual({
      code: "PERMIT2_CONTRACT_CHECK_FAILED",
      details: { owner: USER_ADDRESS.toLowerCase(), method },
    });
  });

  it("contractOwner: true without publicClient is PERMIT2_EXPECTED_INVALID before the wallet is asked", async () => {
    const { signer, asked } = answering(CONTRACT_SIGNATURE);
    expect(await codeOf(signPermit2Approval({ ...parameters, signer, contractOwner: true }))).toEqual({
      code: "PERMIT2_EXPECTED_INVALID",
      details: { field: "publicClient" },
    });
    expect(asked.count).toBe(0);
  });

  it.each([
    ["publicClient null", { publicClient: null }, "publicClient"],
    ["publicClient without request", { publicClient: {} }, "publicClient"],
    [
      "publicClient whose request is not a function",
      { publicClient: { request: "eth_call" } },
      "publicClient",
    ],
    ["publicClient null with contractOwner", { publicClient: null, contractOwner: true }, "publicClient"],
    ["contractOwner as a string", { contractOwner: "true" }, "contractOwner"],
    [
      "contractOwner as a number",
      { contractOwner: 1, publicClient: scriptedReader({}).reader },
      "contractOwner",
    ],
    ["account that is not an address", { account: 5 }, "account"],
    ["account in Tron form", { account: "TPL66VK2gCXNCD7EJg9pgJRfqcRazjhUZY" }, "account"],
  ])(
    "%s: PERMIT2_EXPECTED_INVALID before the wallet is asked or the chain read",
    async (_name, options, field) => {
      const chain = scriptedReader({});
      const { signer, asked } = answering(CONTRACT_SIGNATURE);
      const withReader = { ...parameters, signer, ...options } as unknown as Parameters<
        typeof signPermit2Approval
      >[0];
      expect(await codeOf(signPermit2Approval(withReader))).toEqual({
        code: "PERMIT2_EXPECTED_INVALID",
        details: { field },
      });
      expect([asked.count, chain.requests.length]).toEqual([0, 0]);
    },
  );

  it("contractOwner: true skips the ECDSA attempt: an owner without code is no-code, and malformed answers are refused before any eth_call", async () => {
    const chain = scriptedReader({ code: "0x" });
    const { signer } = answering(CONTRACT_SIGNATURE);
    expect(
      await codeOf(
        signPermit2Approval({ ...parameters, signer, publicClient: chain.reader, contractOwner: true }),
      ),
    ).toMatchObject({ code: "PERMIT2_CONTRACT_SIGNATURE_INVALID", details: { reason: "no-code" } });
    const quiet = scriptedReader({});
    for (const junk of ["0x", "0xabc", `0x${"ab".repeat(16_385)}`, "ab".repeat(70), 7]) {
      const { signer: junkSigner } = answering(junk);
      expect(
        await codeOf(
          signPermit2Approval({
            ...parameters,
            signer: junkSigner,
            publicClient: quiet.reader,
            contractOwner: true,
          }),
        ),
      ).toMatchObject({ code: "PERMIT2_CONTRACT_SIGNATURE_INVALID", details: { reason: "malformed" } });
    }
    expect(quiet.requests).toEqual([]);
  });

  it("a reader that never answers can be abandoned with the signal: PERMIT2_SIGNING_ABORTED", async () => {
    const controller = new AbortController();
    const reader = {
      request: () => {
        setTimeout(() => controller.abort(new Error("user left")), 0);
        return new Promise<never>(() => {});
      },
    };
    const { signer } = answering(CONTRACT_SIGNATURE);
    expect(
      await codeOf(
        signPermit2Approval({ ...parameters, signer, publicClient: reader, signal: controller.signal }),
      ),
    ).toMatchObject({ code: "PERMIT2_SIGNING_ABORTED", details: { stage: "whileSigning", step: "sign" } });
  });
});
