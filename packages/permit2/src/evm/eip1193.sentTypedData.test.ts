/**
 * What a bare EIP-1193 wallet RECEIVES (`eth_signTypedData_v4`'s JSON) is exactly what was verified: parsed back and
 * hashed by two independent EIP-712 implementations (ethers' TypedDataEncoder, viem's hashTypedData), it gives the
 * verified digest, for random verified permits (witness type names that sort before or after `TokenPermissions`,
 * so the witness type string order changes; random nonces). No extra top-level key, domain field or type reaches the
 * wallet, and the wallet's own signature recovers to the owner.
 */
import { TypedDataEncoder, Wallet } from "ethers";
import fc from "fast-check";
import { hashTypedData, type TypedDataDefinition } from "viem";
import { describe, expect, it, vi } from "vitest";
import { buildPermit2Fixture, EVM, USER_PRIVATE_KEY } from "../../test/fixtures/buildPermit2Fixture.js";
import { signPermit2Approval } from "./signPermit2Approval.js";

const STUB =
  "PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,";

/** A wallet that records the JSON it is sent and signs it with ethers. */
function recordingProvider() {
  const wallet = new Wallet(USER_PRIVATE_KEY);
  const sent: string[] = [];
  const request = vi.fn(async ({ method, params }: { method: string; params?: unknown[] }) => {
    if (method === "eth_accounts") return [wallet.address];
    if (method === "eth_chainId") return `0x${EVM.chainId.toString(16)}`;
    const json = (params as [string, string])[1];
    sent.push(json);
    const { types, domain, message } = JSON.parse(json);
    const { EIP712Domain: _domainType, ...structs } = types;
    return wallet.signTypedData(domain, structs, message);
  });
  return { provider: { request }, sent };
}

describe("eth_signTypedData_v4: the JSON the wallet receives hashes to the verified digest", () => {
  it("for random verified permits (ethers and viem, parsed back from the JSON sent)", async () => {
    // The witness type is pinned to the escrow's SwapWitness; the permits vary in their nonce.
    const witnessTypeName = "SwapWitness";
    const nonce = fc.bigInt({ min: 0n, max: 2n ** 53n - 1n });
    await fc.assert(
      fc.asyncProperty(nonce, async (randomNonce) => {
        const f = buildPermit2Fixture({
          tamper: (params) => {
            params.nonce = randomNonce;
          },
        });
        const { provider, sent } = recordingProvider();
        const result = await signPermit2Approval({
          intent: f.intent,
          quote: f.quote,
          expected: f.expected,
          allowedPermit2Addresses: f.allowedPermit2Addresses,
          nowMs: f.nowMs,
          provider,
        });
        expect(sent).toHaveLength(1);
        const received = JSON.parse(sent[0]!);
        // Nothing beyond the four members of v4's typed data, and the domain only with the fields its type names.
        expect(Object.keys(received).sort()).toEqual(["domain", "message", "primaryType", "types"]);
        expect(received.primaryType).toBe("PermitWitnessTransferFrom");
        expect(Object.keys(received.domain).sort()).toEqual(["chainId", "name", "verifyingContract"]);
        expect(Object.keys(received.types).sort()).toEqual(
          ["EIP712Domain", "PermitWitnessTransferFrom", "TokenPermissions", witnessTypeName].sort(),
        );
        const { EIP712Domain, ...structs } = received.types;
        // The domain type is the one ethers derives from the domain itself (no salt, no version).
        expect(EIP712Domain).toEqual(
          TypedDataEncoder.getPayload(received.domain, structs, received.message).types.EIP712Domain,
        );
        // uint256 values travel as decimal strings.
        expect(received.message.nonce).toBe(randomNonce.toString());
        expect(received.message.permitted.amount).toMatch(/^(0|[1-9][0-9]*)$/);
        // The type string the wallet's types produce is the service's witness type string after Permit2's stub.
        const wire = f.intent.paramsToSign as unknown as { additionalData: { witnessTypeString: string } };
        expect(TypedDataEncoder.from(structs).encodeType("PermitWitnessTransferFrom")).toBe(
          STUB + wire.additionalData.witnessTypeString,
        );
        // Two independent hashes of what the wallet received: the verified digest.
        expect(TypedDataEncoder.hash(received.domain, structs, received.message)).toBe(
          result.verified.digest,
        );
        expect(hashTypedData(received as TypedDataDefinition)).toBe(result.verified.digest);
      }),
      { numRuns: 25 },
    );
  });
});
