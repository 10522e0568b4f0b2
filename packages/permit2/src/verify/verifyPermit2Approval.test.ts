/**
 * verifyPermit2Approval on EVM and Tron: the typed data, witness hash, type string and digest equal independent
 * encoders (ethers, viem, TronWeb), and the summary shows what was verified.
 */
import { TypedDataEncoder } from "ethers";
import { utils as tronUtils } from "tronweb";
import { hashTypedData } from "viem";
import { describe, expect, it } from "vitest";
import { codeOf } from "../../test/codeOf.js";
import {
  buildPermit2Fixture,
  DEADLINE_SECS,
  DOC_WITNESS_TYPE_STRING,
  EVM,
  INTENT_ID,
  RECIPIENT,
  TRON,
  USER_ADDRESS,
} from "../../test/fixtures/buildPermit2Fixture.js";
import { fixtureParametersOf as parametersOf } from "../../test/fixtures/fixtureParametersOf.js";
import { verifyPermit2Approval } from "./verifyPermit2Approval.js";

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

describe("verifyPermit2Approval on EVM", () => {
  it("accepts the sandbox's params and returns typed data whose hashes equal ethers' and viem's", () => {
    const fixture = buildPermit2Fixture();
    const result = verifyPermit2Approval(parametersOf());
    const { domain, types, message } = fixture.evmTypedData;

    expect(result.chainType).toBe("evm");
    expect(result.witnessHash).toBe(
      TypedDataEncoder.hashStruct("SwapWitness", types, message.witness as Record<string, unknown>),
    );
    expect(result.digest).toBe(TypedDataEncoder.hash(domain, types, message));
    expect(result.digest).toBe(
      hashTypedData({
        domain,
        types,
        primaryType: "PermitWitnessTransferFrom",
        message,
      } as Parameters<typeof hashTypedData>[0]),
    );
    expect(result.witnessTypeString).toBe(DOC_WITNESS_TYPE_STRING);
    expect(result.typedData).toEqual(result.hashedTypedData);
    expect(result.typedData.types).not.toHaveProperty("EIP712Domain");
    expect(result.typedData.primaryType).toBe("PermitWitnessTransferFrom");
    expect(result.typedData.domain).toEqual({
      name: "Permit2",
      chainId: 1337001,
      verifyingContract: EVM.permit2,
    });
    expect(result.typedData.message).toEqual({
      permitted: { token: EVM.token, amount: 2_500_000n },
      spender: EVM.escrow,
      nonce: 123_456_789n,
      deadline: BigInt(DEADLINE_SECS),
      witness: {
        intentId: `0x${"0".repeat(32)}${INTENT_ID.replaceAll("-", "")}`,
        secretHash: `0x${"ab".repeat(32)}`,
        destChain: 4n,
        destToken: "btc",
        recipient: RECIPIENT,
        minDestAmount: 3900n,
        maxDestAmount: 4100n,
      },
    });
  });

  it("returns a summary a wallet can show: token, amounts in lots and formatted, spender, deadline, recipient", () => {
    const { summary } = verifyPermit2Approval({
      ...parametersOf(),
      expected: { ...parametersOf().expected, owner: USER_ADDRESS },
    });
    expect(summary).toMatchObject({
      chainType: "evm",
      chainId: 1337001,
      token: EVM.token,
      amountLots: 2_500_000n,
      amountFormatted: "2.5",
      spender: EVM.escrow,
      deadlineSecs: DEADLINE_SECS,
      deadlineIso: "2027-01-15T09:00:00.000Z",
      minDestAmountLots: 3900n,
      minDestAmountFormatted: "0.000039",
      maxDestAmountFormatted: "0.000041",
      recipient: RECIPIENT,
      destChain: 4,
      destToken: "btc",
      owner: USER_ADDRESS,
    });
    expect(summary.lines.join("\n")).toContain("2.5");
    expect(summary.lines.join("\n")).toContain(RECIPIENT);
  });

  it("never mutates its inputs (deeply frozen inputs verify, and they are unchanged)", () => {
    const parameters = parametersOf();
    const before = structuredClone(parameters);
    deepFreeze(parameters);
    const result = verifyPermit2Approval(parameters);
    expect(parameters).toEqual(before);
    result.typedData.types.TokenPermissions!.push({ name: "x", type: "uint256" });
    expect(parameters.intent.paramsToSign).toEqual(before.intent.paramsToSign);
  });

  it("accepts the canonical Permit2 without an allow list", () => {
    const canonical = "0x000000000022D473030F116dDEE9F6B43aC78BA3";
    const parameters = parametersOf({
      tamper: (p) => {
        p.permit2ContractAddress = canonical;
        p.additionalData.domain.verifyingContract = canonical.toLowerCase();
      },
    });
    const result = verifyPermit2Approval({ ...parameters, allowedPermit2Addresses: [] });
    expect(result.typedData.domain.verifyingContract).toBe(canonical);
  });

  it("refuses a consistent witness type under another name: the escrow hashes only SwapWitness", () => {
    for (const name of ["ZWitness", "Witness", "SwapWitnesS", "SwapWitness2"]) {
      const parameters = parametersOf({ witnessTypeName: name });
      // consistent: its hash and type string are what an independent encoder computes for that name
      const { types } = buildPermit2Fixture({ witnessTypeName: name }).evmTypedData;
      const additional = (parameters.intent.paramsToSign as { additionalData: Record<string, unknown> })
        .additionalData;
      expect(additional.witnessHash).toBe(
        TypedDataEncoder.hashStruct(
          name,
          types,
          buildPermit2Fixture().evmTypedData.message.witness as Record<string, unknown>,
        ),
      );
      expect(
        codeOf(() => verifyPermit2Approval(parameters)),
        name,
      ).toBe("PERMIT2_TYPES_INVALID");
    }
  });

  it("refuses the witness fields in another order, though hashed consistently in that order", () => {
    const orders: ((fields: { name: string; type: string }[]) => { name: string; type: string }[])[] = [
      (fields) => [...fields].reverse(),
      (fields) => [fields[1]!, fields[0]!, ...fields.slice(2)],
      (fields) => [...fields.slice(0, 5), fields[6]!, fields[5]!],
    ];
    for (const reorder of orders) {
      const parameters = parametersOf({
        tamper: (p) => {
          p.additionalData.types.SwapWitness = reorder(p.additionalData.types.SwapWitness!);
        },
      });
      const fixture = buildPermit2Fixture();
      const types = {
        ...fixture.evmTypedData.types,
        SwapWitness: reorder(fixture.evmTypedData.types.SwapWitness!),
      };
      const witness = fixture.evmTypedData.message.witness as Record<string, unknown>;
      const witnessHash = TypedDataEncoder.hashStruct("SwapWitness", types, witness);
      const typeString = TypedDataEncoder.from(types).encodeType("PermitWitnessTransferFrom");
      const additional = (parameters.intent.paramsToSign as { additionalData: Record<string, unknown> })
        .additionalData;
      additional.witnessHash = witnessHash;
      additional.witnessTypeString = typeString.slice(typeString.indexOf("SwapWitness witness)"));
      expect(codeOf(() => verifyPermit2Approval(parameters))).toBe("PERMIT2_TYPES_INVALID");
    }
  });

  it("compares an EVM recipient case-insensitively when the wallet's catalogue says the destination is EVM", () => {
    const recipient = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    const parameters = parametersOf({ witness: { recipient: recipient.toLowerCase() } });
    const { quote } = parameters;
    const destination = {
      network: quote.destChain,
      token: quote.destToken,
      decimals: quote.destAmountDecimals,
      minAmountLots: quote.minDestAmountLots,
    };
    const result = verifyPermit2Approval({
      ...parameters,
      expected: { ...parameters.expected, recipient, destination: { ...destination, networkType: "EVM" } },
    });
    expect(result.summary.recipient).toBe(recipient.toLowerCase());
    // without the network's type, or on another chain, the strings compare exactly
    for (const networkType of [undefined, "SOLANA", "TRON", "BITCOIN"])
      expect(
        codeOf(() =>
          verifyPermit2Approval({
            ...parameters,
            expected: { ...parameters.expected, recipient, destination: { ...destination, networkType } },
          }),
        ),
        String(networkType),
      ).toBe("PERMIT2_RECIPIENT_MISMATCH");
  });
});

describe("verifyPermit2Approval on Tron", () => {
  it("keeps base58 addresses for the wallet and hashes the 20-byte addresses like ethers and TronWeb", () => {
    const fixture = buildPermit2Fixture({ chain: "tron" });
    const result = verifyPermit2Approval(parametersOf({ chain: "tron" }));
    const { domain, types, message } = fixture.evmTypedData;

    expect(result.chainType).toBe("tron");
    expect(result.typedData.domain.verifyingContract).toBe(TRON.permit2);
    expect(result.typedData.message.spender).toBe(TRON.escrow);
    expect(result.typedData.message.permitted.token).toBe(TRON.token);
    expect(result.hashedTypedData.domain.verifyingContract).toBe(EVM.permit2);
    expect(result.hashedTypedData.message.spender).toBe(EVM.escrow);
    expect(result.digest).toBe(TypedDataEncoder.hash(domain, types, message));
    expect(result.digest).toBe(
      tronUtils.typedData.hashTypedData(
        result.typedData.domain,
        result.typedData.types,
        result.typedData.message,
      ),
    );
  });

  it("masks a chain id above 32 bits with 0xffffffff", () => {
    const wide = 2 ** 32 + TRON.chainId;
    const parameters = parametersOf({
      chain: "tron",
      tamper: (p) => {
        p.additionalData.domain.chainId = wide;
      },
    });
    const result = verifyPermit2Approval({
      ...parameters,
      expected: { ...parameters.expected, chainId: wide },
    });
    const { domain, types, message } = buildPermit2Fixture({ chain: "tron" }).evmTypedData;
    expect(result.typedData.domain.chainId).toBe(TRON.chainId);
    expect(result.digest).toBe(TypedDataEncoder.hash({ ...domain, chainId: TRON.chainId }, types, message));
  });
});
