/**
 * Every verification check refuses its tampered input with its own code (one table over every code, EVM and Tron).
 */
import type { Intent, Quote } from "@swapintent/client";
import { describe, expect, it } from "vitest";
import { codeOf } from "../../test/codeOf.js";
import {
  DEADLINE_SECS,
  EVM,
  type FixtureOptions,
  INTENT_ID,
  TRON,
} from "../../test/fixtures/buildPermit2Fixture.js";
import { fixtureParametersOf as parametersOf } from "../../test/fixtures/fixtureParametersOf.js";
import type { Permit2ErrorCode } from "../errors.js";
import type { VerifyPermit2ApprovalParameters } from "../types.js";
import { verifyPermit2Approval } from "./verifyPermit2Approval.js";

type Case = {
  name: string;
  code: Permit2ErrorCode;
  fixture?: FixtureOptions;
  change?: (p: VerifyPermit2ApprovalParameters) => VerifyPermit2ApprovalParameters;
};

/** A case whose wire `params_to_sign` is changed by `tamper` after hashing. */
const tampered = (
  name: string,
  code: Permit2ErrorCode,
  tamper: NonNullable<FixtureOptions["tamper"]>,
): Case => ({
  name,
  code,
  fixture: { tamper },
});

const otherAddress = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const withQuote = (q: Partial<Quote>) => (p: VerifyPermit2ApprovalParameters) => ({
  ...p,
  quote: { ...p.quote, ...q },
});
const withMessage = (m: Record<string, unknown>): FixtureOptions => ({
  tamper: (p) => {
    p.additionalData.message = {
      permitted: { token: EVM.token, amount: "2500000" },
      spender: EVM.escrow,
      nonce: "123456789",
      deadline: String(DEADLINE_SECS),
      ...m,
    };
  },
});

const cases: Case[] = [
  {
    name: "another mechanism",
    code: "PERMIT2_MECHANISM_MISMATCH",
    change: (p) => ({ ...p, intent: { ...p.intent, approvalMechanism: "htlc" } as unknown as Intent }),
  },
  tampered("a witness_hash that is not the witness's hash", "PERMIT2_WITNESS_HASH_MISMATCH", (p) => {
    p.additionalData.witnessHash = `0x${"11".repeat(32)}`;
  }),
  tampered("a witness changed after hashing", "PERMIT2_WITNESS_HASH_MISMATCH", (p) => {
    p.additionalData.witness.minDestAmount = "1";
  }),
  tampered(
    "a witness_type_string with the referenced types unsorted",
    "PERMIT2_WITNESS_TYPE_STRING_MISMATCH",
    (p) => {
      p.additionalData.witnessTypeString =
        "SwapWitness witness)TokenPermissions(address token,uint256 amount)SwapWitness(bytes32 intentId,bytes32 secretHash,uint256 destChain,string destToken,string recipient,uint256 minDestAmount,uint256 maxDestAmount)";
    },
  ),
  tampered("a domain name other than Permit2", "PERMIT2_DOMAIN_NAME_MISMATCH", (p) => {
    p.additionalData.domain.name = "Permit3";
  }),
  tampered("a domain with a version", "PERMIT2_DOMAIN_INVALID", (p) => {
    p.additionalData.domain.version = "1";
  }),
  tampered("a domain chain id other than the wallet's", "PERMIT2_CHAIN_ID_MISMATCH", (p) => {
    p.additionalData.domain.chainId = 1;
  }),
  {
    name: "the wallet on another chain",
    code: "PERMIT2_CHAIN_ID_MISMATCH",
    change: (p) => ({ ...p, expected: { ...p.expected, chainId: 1337002 } }),
  },
  tampered(
    "a verifyingContract other than permit2_contract_address",
    "PERMIT2_VERIFYING_CONTRACT_MISMATCH",
    (p) => {
      p.additionalData.domain.verifyingContract = otherAddress;
    },
  ),
  {
    name: "a Permit2 neither canonical nor allowed",
    code: "PERMIT2_CONTRACT_NOT_ALLOWED",
    change: (p) => ({ ...p, allowedPermit2Addresses: [otherAddress] }),
  },
  {
    name: "a spender other than the escrow the wallet expects",
    code: "PERMIT2_SPENDER_MISMATCH",
    change: (p) => ({ ...p, expected: { ...p.expected, spender: otherAddress } }),
  },
  tampered("the Permit2 contract as spender", "PERMIT2_SPENDER_MISMATCH", (p) => {
    p.escrowContractAddress = EVM.permit2;
  }),
  {
    name: "a sent message spender other than the escrow",
    code: "PERMIT2_SPENDER_MISMATCH",
    fixture: withMessage({ spender: otherAddress }),
  },
  {
    name: "a sent message token other than the quote's",
    code: "PERMIT2_TOKEN_MISMATCH",
    fixture: withMessage({ permitted: { token: otherAddress, amount: "2500000" } }),
  },
  {
    name: "a native-token placeholder as source token",
    code: "PERMIT2_TOKEN_MISMATCH",
    change: withQuote({ sourceToken: "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE" }),
  },
  {
    name: "a sent message amount other than the quote's",
    code: "PERMIT2_AMOUNT_MISMATCH",
    fixture: withMessage({ permitted: { token: EVM.token, amount: "2500001" } }),
  },
  {
    name: "a zero source amount in the quote",
    code: "PERMIT2_AMOUNT_MISMATCH",
    change: withQuote({ sourceAmountLots: 0n }),
  },
  {
    name: "a sent message nonce other than params_to_sign.nonce",
    code: "PERMIT2_NONCE_MISMATCH",
    fixture: withMessage({ nonce: "1" }),
  },
  {
    name: "a sent message deadline other than deadline_secs",
    code: "PERMIT2_DEADLINE_MISMATCH",
    fixture: withMessage({ deadline: String(DEADLINE_SECS + 86_400 * 365) }),
  },
  {
    name: "a deadline in the past",
    code: "PERMIT2_DEADLINE_PASSED",
    change: (p) => ({ ...p, nowMs: DEADLINE_SECS * 1000 + 1 }),
  },
  {
    name: "a deadline beyond the maximum",
    code: "PERMIT2_DEADLINE_TOO_FAR",
    change: (p) => ({ ...p, maxDeadlineSecs: 600 }),
  },
  {
    name: "a witness minimum amount below the quote's",
    code: "PERMIT2_MIN_AMOUNT_MISMATCH",
    fixture: { witness: { minDestAmount: "1" } },
  },
  {
    name: "a quote whose minimum differs from the witness",
    code: "PERMIT2_MIN_AMOUNT_MISMATCH",
    change: withQuote({ minDestAmountLots: 3_950n }),
  },
  {
    name: "a witness maximum amount other than the quote's",
    code: "PERMIT2_MAX_AMOUNT_MISMATCH",
    fixture: { witness: { maxDestAmount: "99999" } },
  },
  {
    name: "a witness recipient other than the address the user entered",
    code: "PERMIT2_RECIPIENT_MISMATCH",
    fixture: { witness: { recipient: "bcrt1qattackerattackerattackerattacker0000" } },
  },
  {
    name: "a witness secret hash other than the intent's",
    code: "PERMIT2_SECRET_HASH_MISMATCH",
    fixture: { witness: { secretHash: `0x${"cd".repeat(32)}` } },
  },
  tampered("an additional_data.secretHash other than the intent's", "PERMIT2_SECRET_HASH_MISMATCH", (p) => {
    p.additionalData.secretHash = `0x${"cd".repeat(32)}`;
  }),
  {
    name: "a witness intent id of another intent",
    code: "PERMIT2_INTENT_ID_MISMATCH",
    fixture: { witness: { intentId: `0x${"0".repeat(32)}${"9".repeat(32)}` } },
  },
  {
    name: "a witness intent id not left-padded",
    code: "PERMIT2_INTENT_ID_MISMATCH",
    fixture: { witness: { intentId: `0x${INTENT_ID.replaceAll("-", "")}${"0".repeat(32)}` } },
  },
  {
    name: "a witness destination chain other than the quote's",
    code: "PERMIT2_DEST_CHAIN_MISMATCH",
    fixture: { witness: { destChain: "5" } },
  },
  {
    name: "a witness destination token other than the quote's",
    code: "PERMIT2_DEST_TOKEN_MISMATCH",
    fixture: { witness: { destToken: "So11111111111111111111111111111111111111112" } },
  },
  tampered("an extra type", "PERMIT2_TYPES_INVALID", (p) => {
    p.additionalData.types.Extra = [{ name: "a", type: "uint256" }];
  }),
  tampered("an extra witness field", "PERMIT2_TYPES_INVALID", (p) => {
    p.additionalData.types.SwapWitness!.push({ name: "drain", type: "address" });
  }),
  tampered("a renamed primary type field", "PERMIT2_TYPES_INVALID", (p) => {
    p.additionalData.types.PermitWitnessTransferFrom![1]!.name = "operator";
  }),
  tampered("a TokenPermissions with an extra field", "PERMIT2_TYPES_INVALID", (p) => {
    p.additionalData.types.TokenPermissions!.push({ name: "extra", type: "uint256" });
  }),
  tampered("a witness field with another type", "PERMIT2_TYPES_INVALID", (p) => {
    p.additionalData.types.SwapWitness![4] = { name: "recipient", type: "address" };
  }),
  tampered("a witness value that is not a uint256", "PERMIT2_WITNESS_INVALID", (p) => {
    p.additionalData.witness.maxDestAmount = "-5";
  }),
  tampered("a witness value its type does not declare", "PERMIT2_WITNESS_INVALID", (p) => {
    p.additionalData.witness.extra = "1";
  }),
  tampered("an escrow address with a bad EIP-55 checksum", "PERMIT2_ADDRESS_INVALID", (p) => {
    p.escrowContractAddress = EVM.escrow.replace("E", "e").replace("b", "B");
  }),
  {
    name: "an EVM permit for a Tron wallet",
    code: "PERMIT2_CHAIN_TYPE_MISMATCH",
    change: (p) => ({ ...p, expected: { ...p.expected, chainType: "tron" } }),
  },
  tampered("params_to_sign without a witness hash", "PERMIT2_PARAMS_INVALID", (p) => {
    delete (p.additionalData as Partial<typeof p.additionalData>).witnessHash;
  }),
  {
    name: "Tron: an escrow address with a bad base58check checksum",
    code: "PERMIT2_ADDRESS_INVALID",
    fixture: {
      chain: "tron",
      tamper: (p) => {
        p.escrowContractAddress = `${TRON.escrow.slice(0, -1)}${TRON.escrow.endsWith("a") ? "b" : "a"}`;
      },
    },
  },
  {
    name: "Tron: a verifyingContract other than permit2_contract_address",
    code: "PERMIT2_VERIFYING_CONTRACT_MISMATCH",
    fixture: {
      chain: "tron",
      tamper: (p) => {
        p.additionalData.domain.verifyingContract = TRON.user;
      },
    },
  },
  {
    name: "Tron: a hex source token",
    code: "PERMIT2_ADDRESS_INVALID",
    fixture: { chain: "tron" },
    change: withQuote({ sourceToken: EVM.token }),
  },
  {
    // The service inflates the lots and the decimals together: the summary still reads "2.5", the permit moves 1000x.
    name: "a quote whose lots and decimals are both inflated, against the amount the wallet computed itself",
    code: "PERMIT2_AMOUNT_MISMATCH",
    change: (p) => ({
      ...withQuote({ sourceAmountLots: 2_500_000_000n, sourceAmountDecimals: 9 })(p),
      expected: { ...p.expected, sourceAmountLots: 2_500_000n },
    }),
  },
  {
    name: "a quote whose decimals differ from the token's decimals the wallet knows",
    code: "PERMIT2_DECIMALS_MISMATCH",
    change: (p) => ({
      ...withQuote({ sourceAmountLots: 2_500_000_000n, sourceAmountDecimals: 9 })(p),
      expected: { ...p.expected, sourceDecimals: 6 },
    }),
  },
  {
    name: "a quote for another source token than the one the user chose",
    code: "PERMIT2_TOKEN_MISMATCH",
    change: (p) => ({
      ...withQuote({ sourceToken: otherAddress })(p),
      expected: { ...p.expected, sourceToken: EVM.token },
    }),
  },
  {
    name: "Tron: a quote for another source token than the one the user chose (given in hex)",
    code: "PERMIT2_TOKEN_MISMATCH",
    fixture: { chain: "tron" },
    change: (p) => ({
      ...withQuote({ sourceToken: TRON.user })(p),
      expected: { ...p.expected, sourceToken: EVM.token },
    }),
  },
];

describe("verifyPermit2Approval refuses each tampered input with its own code", () => {
  it("the happy fixture passes (so each refusal below comes from its tamper)", () => {
    expect(verifyPermit2Approval(parametersOf()).digest).toMatch(/^0x[0-9a-f]{64}$/);
    expect(verifyPermit2Approval(parametersOf({ chain: "tron" })).digest).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it.each(cases)("$name -> $code", ({ code, fixture, change }) => {
    const base = parametersOf(fixture);
    const parameters = change ? change(base) : base;
    expect(codeOf(() => verifyPermit2Approval(parameters))).toBe(code);
  });

  it("the service naming its own address as spender is refused: the wallet pins the escrow (PERMIT2_SPENDER_MISMATCH)", () => {
    for (const chain of ["evm", "tron"] as const) {
      const base = parametersOf({ chain });
      if (base.intent.approvalMechanism !== "permit2") throw new Error("fixture is permit2");
      const attacker = chain === "evm" ? otherAddress : TRON.user;
      const tampered = {
        ...base,
        intent: {
          ...base.intent,
          paramsToSign: { ...base.intent.paramsToSign, escrowContractAddress: attacker },
        },
      };
      expect(codeOf(() => verifyPermit2Approval(tampered))).toBe("PERMIT2_SPENDER_MISMATCH");
    }
  });

  it("expected.spender is required: missing or not an address -> PERMIT2_EXPECTED_INVALID; { unchecked: true } skips it explicitly", () => {
    const base = parametersOf();
    const { spender: _omitted, ...withoutSpender } = base.expected;
    for (const spender of [undefined, "", "not-an-address", { unchecked: false }]) {
      const expected = {
        ...withoutSpender,
        spender,
      } as unknown as VerifyPermit2ApprovalParameters["expected"];
      expect(codeOf(() => verifyPermit2Approval({ ...base, expected }))).toBe("PERMIT2_EXPECTED_INVALID");
    }
    const result = verifyPermit2Approval({
      ...base,
      expected: { ...withoutSpender, spender: { unchecked: true } },
    });
    expect(result.typedData.message.spender.toLowerCase()).toBe(EVM.escrow.toLowerCase());
  });

  it("accepts the user's own source token (either address form), amount and decimals when they match", () => {
    for (const chain of ["evm", "tron"] as const) {
      const base = parametersOf({ chain });
      const result = verifyPermit2Approval({
        ...base,
        expected: {
          ...base.expected,
          sourceToken: EVM.token.toLowerCase(),
          sourceAmountLots: 2_500_000n,
          sourceDecimals: 6,
        },
      });
      expect(result.summary.amountFormatted).toBe("2.5");
    }
  });

  it.each(["address", "bool", "string", "bytes32", "uint256", "int8", "bytes"])(
    "a witness struct named like the EIP-712 atomic type %s (ambiguous to encoders; `address` made hashing crash) -> PERMIT2_TYPES_INVALID",
    (name) => {
      const base = parametersOf();
      const intent = structuredClone(base.intent) as VerifyPermit2ApprovalParameters["intent"] & {
        paramsToSign: { additionalData: { types: Record<string, unknown[]> } };
      };
      const types = intent.paramsToSign.additionalData.types;
      types[name] = types.SwapWitness!;
      delete types.SwapWitness;
      types.PermitWitnessTransferFrom![4] = { name: "witness", type: name };
      expect(codeOf(() => verifyPermit2Approval({ ...base, intent }))).toBe("PERMIT2_TYPES_INVALID");
    },
  );

  it("malformed quote decimals (the service's) -> PERMIT2_PARAMS_INVALID; a malformed clock, deadline bound or allow list (the caller's options) -> PERMIT2_EXPECTED_INVALID; never an untyped error", () => {
    const base = parametersOf();
    const service: Partial<Record<string, unknown>>[] = [
      ...[-1, 1.5, Number.NaN, 1e100, "6", -1n].flatMap((d) => [
        { quote: { ...base.quote, sourceAmountDecimals: d } },
        { quote: { ...base.quote, destAmountDecimals: d } },
      ]),
      { quote: null },
      { quote: "q" },
    ];
    const caller: Partial<Record<string, unknown>>[] = [
      { nowMs: Number.NaN },
      { nowMs: "x" },
      { nowMs: -1n },
      { maxDeadlineSecs: Number.NaN },
      { maxDeadlineSecs: -1 },
      { maxDeadlineSecs: -1n },
      { allowedPermit2Addresses: "0x000000000022D473030F116dDEE9F6B43aC78BA3" },
      { allowedPermit2Addresses: null },
      // An entry that is not an address was dropped silently before: a typo in the wallet's allow list.
      { allowedPermit2Addresses: ["0x000000000022D473030F116dDEE9F6B43aC78BA"] },
      { allowedPermit2Addresses: [42] },
      { allowedPermit2Addresses: ["TNotAnAddress"] },
    ];
    const cases = [
      ...service.map((change) => [change, "PERMIT2_PARAMS_INVALID"] as const),
      ...caller.map((change) => [change, "PERMIT2_EXPECTED_INVALID"] as const),
    ];
    for (const [change, code] of cases)
      expect(
        codeOf(() => verifyPermit2Approval({ ...base, ...change } as VerifyPermit2ApprovalParameters)),
        JSON.stringify(change, (_k, v) => (typeof v === "bigint" ? `${v}n` : v)).slice(0, 80),
      ).toBe(code);
  });

  it("covers at least 12 distinct codes", () => {
    expect(new Set(cases.map((c) => c.code)).size).toBeGreaterThanOrEqual(12);
  });
});
