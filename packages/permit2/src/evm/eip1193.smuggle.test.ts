/**
 * A hostile service smuggling something into what the wallet would SHOW (a domain salt or version, an extra type the
 * hash ignores, another primary type, an extra witness field): verification refuses it, and the wallet is never
 * asked anything.
 */
import { describe, expect, it, vi } from "vitest";
import {
  buildPermit2Fixture,
  EVM,
  USER_ADDRESS,
  type WireParams,
} from "../../test/fixtures/buildPermit2Fixture.js";
import { isPermit2Error } from "../errors.js";
import { signPermit2Approval } from "./signPermit2Approval.js";

type Extra = WireParams["additionalData"] & Record<string, unknown>;

const smuggles: [string, (extra: Extra) => void][] = [
  ["a domain salt", (a) => Object.assign(a.domain, { salt: `0x${"11".repeat(32)}` })],
  [
    "a domain salt with its EIP712Domain field",
    (a) => {
      Object.assign(a.domain, { salt: `0x${"11".repeat(32)}` });
      (a.types as Record<string, unknown[]>).EIP712Domain!.push({ name: "salt", type: "bytes32" });
    },
  ],
  ["a domain version", (a) => Object.assign(a.domain, { version: "1" })],
  [
    "an extra type the hash ignores",
    (a) => Object.assign(a.types, { Note: [{ name: "text", type: "string" }] }),
  ],
  ["an extra witness value", (a) => Object.assign(a.witness, { note: "free money" })],
];

describe("what a hostile service adds to the typed data never reaches the wallet", () => {
  it.each(smuggles)("%s: refused by verification, no provider request", async (_name, smuggle) => {
    const f = buildPermit2Fixture({ tamper: (params) => smuggle(params.additionalData as Extra) });
    const request = vi.fn(async () => null);
    const error = await signPermit2Approval({
      intent: f.intent,
      quote: f.quote,
      expected: f.expected,
      allowedPermit2Addresses: f.allowedPermit2Addresses,
      nowMs: f.nowMs,
      provider: { request },
    }).catch((e: unknown) => e);
    expect(isPermit2Error(error)).toBe(true);
    expect(request).not.toHaveBeenCalled();
  });
});

describe("a key the verifier does not read never reaches the wallet either", () => {
  it("a service primaryType (TokenPermissions): the wallet is sent PermitWitnessTransferFrom and the verified parts only", async () => {
    const f = buildPermit2Fixture({
      tamper: (params) =>
        Object.assign(params.additionalData, { primaryType: "TokenPermissions", note: "x" }),
    });
    const sent: string[] = [];
    const request = vi.fn(async ({ method, params }: { method: string; params?: unknown[] }) => {
      if (method === "eth_accounts") return [USER_ADDRESS];
      if (method === "eth_chainId") return `0x${EVM.chainId.toString(16)}`;
      sent.push((params as [string, string])[1]);
      throw Object.assign(new Error("User rejected the request."), { code: 4001 });
    });
    const error = await signPermit2Approval({
      intent: f.intent,
      quote: f.quote,
      expected: f.expected,
      allowedPermit2Addresses: f.allowedPermit2Addresses,
      nowMs: f.nowMs,
      provider: { request },
    }).catch((e: unknown) => e);
    expect(isPermit2Error(error, "PERMIT2_SIGNING_FAILED")).toBe(true);
    const received = JSON.parse(sent[0]!);
    expect(received.primaryType).toBe("PermitWitnessTransferFrom");
    expect(Object.keys(received).sort()).toEqual(["domain", "message", "primaryType", "types"]);
    expect(sent[0]).not.toContain('"note"');
  });
});
