/**
 * JSON-level tampering of the sandbox-built permit, each either refused with its code or accepted with exactly the
 * digest of the untampered permit (the same thing signed).
 */
import { isSwapIntentError } from "@swapintent/client";
import { TypedDataEncoder } from "ethers";
import { describe, expect, it } from "vitest";
import {
  buildPermit2Fixture,
  DEST_TOKEN,
  EVM,
  type FixtureOptions,
  TRON,
} from "../../test/fixtures/buildPermit2Fixture.js";
import type { VerifyPermit2ApprovalParameters } from "../types.js";
import { verifyPermit2Approval } from "./verifyPermit2Approval.js";

// biome-ignore lint/suspicious/noExplicitAny: tampering reaches into untyped JSON on purpose
type Json = any;
type Chain = "evm" | "tron";

function parametersOf(
  chain: Chain,
  options: FixtureOptions,
  mutate: (p: Json) => void,
): VerifyPermit2ApprovalParameters {
  const f = buildPermit2Fixture({ ...options, chain });
  const p: Json = {
    intent: f.intent,
    quote: f.quote,
    expected: {
      ...f.expected,
      destination: { network: 4, token: DEST_TOKEN, decimals: 8, minAmountLots: 3_900n },
    },
    allowedPermit2Addresses: f.allowedPermit2Addresses,
    nowMs: f.nowMs,
  };
  mutate(p);
  return p;
}

const A = (p: Json) => p.intent.paramsToSign.additionalData;
const P = (p: Json) => p.intent.paramsToSign;
const STUB =
  "PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,";
/** Rehashes the witness and rebuilds the type string after a type change (a consistent service lie). */
function rehash(p: Json): void {
  const { EIP712Domain: _, ...types } = A(p).types;
  A(p).witnessHash = TypedDataEncoder.hashStruct(
    types.PermitWitnessTransferFrom[4].type,
    types,
    A(p).witness,
  );
  A(p).witnessTypeString = TypedDataEncoder.from(types)
    .encodeType("PermitWitnessTransferFrom")
    .slice(STUB.length);
}
const sentMessage = (p: Json, permitted: Json) => ({
  permitted,
  spender: P(p).escrowContractAddress,
  nonce: "123456789",
  deadline: String(p.intent.deadlineSecs),
});

/** [name, chain, expected code or "same digest", fixture options, mutation]. */
const PAYLOADS: [string, Chain, string, FixtureOptions, (p: Json) => void][] = [
  [
    "Tron chainId + 2^32 (TIP-712 masks it)",
    "tron",
    "same digest",
    {},
    (p) => {
      A(p).domain.chainId += 2 ** 32;
    },
  ],
  [
    "Tron chainId + 2^40 as a string",
    "tron",
    "same digest",
    {},
    (p) => {
      A(p).domain.chainId = String(BigInt(TRON.chainId) + 2n ** 40n);
    },
  ],
  [
    "EVM chainId + 2^32",
    "evm",
    "PERMIT2_CHAIN_ID_MISMATCH",
    {},
    (p) => {
      A(p).domain.chainId += 2 ** 32;
    },
  ],
  [
    "chainId as hex string",
    "evm",
    "PERMIT2_DOMAIN_INVALID",
    {},
    (p) => {
      A(p).domain.chainId = `0x${EVM.chainId.toString(16)}`;
    },
  ],
  [
    "chainId as decimal string",
    "evm",
    "same digest",
    {},
    (p) => {
      A(p).domain.chainId = String(EVM.chainId);
    },
  ],
  [
    "chainId fractional",
    "evm",
    "PERMIT2_DOMAIN_INVALID",
    {},
    (p) => {
      A(p).domain.chainId += 0.5;
    },
  ],
  [
    "chainId 2^256",
    "evm",
    "PERMIT2_DOMAIN_INVALID",
    {},
    (p) => {
      A(p).domain.chainId = String(2n ** 256n);
    },
  ],
  [
    "domain version",
    "evm",
    "PERMIT2_DOMAIN_INVALID",
    {},
    (p) => {
      A(p).domain.version = "1";
    },
  ],
  [
    "domain salt",
    "evm",
    "PERMIT2_DOMAIN_INVALID",
    {},
    (p) => {
      A(p).domain.salt = `0x${"00".repeat(32)}`;
    },
  ],
  [
    "domain without name",
    "evm",
    "PERMIT2_DOMAIN_NAME_MISMATCH",
    {},
    (p) => {
      delete A(p).domain.name;
    },
  ],
  [
    "domain name with a trailing space",
    "evm",
    "PERMIT2_DOMAIN_NAME_MISMATCH",
    {},
    (p) => {
      A(p).domain.name = "Permit2 ";
    },
  ],
  [
    "Permit2 address lowercase (no checksum)",
    "evm",
    "same digest",
    {},
    (p) => {
      A(p).domain.verifyingContract = EVM.permit2.toLowerCase();
      P(p).permit2ContractAddress = EVM.permit2.toLowerCase();
    },
  ],
  [
    "Permit2 address with a broken checksum",
    "evm",
    "PERMIT2_ADDRESS_INVALID",
    {},
    (p) => {
      A(p).domain.verifyingContract = `0x${EVM.permit2.slice(2).toUpperCase()}`;
    },
  ],
  [
    "Tron Permit2 as 41-hex",
    "tron",
    "PERMIT2_ADDRESS_INVALID",
    {},
    (p) => {
      P(p).permit2ContractAddress = `41${EVM.permit2.slice(2)}`;
    },
  ],
  [
    "Tron Permit2 as 0x hex",
    "tron",
    "PERMIT2_ADDRESS_INVALID",
    {},
    (p) => {
      P(p).permit2ContractAddress = EVM.permit2;
      A(p).domain.verifyingContract = EVM.permit2;
    },
  ],
  [
    "Tron token as 0x hex",
    "tron",
    "PERMIT2_ADDRESS_INVALID",
    {},
    (p) => {
      p.quote.sourceToken = EVM.token;
    },
  ],
  [
    "Tron escrow as 0x hex",
    "tron",
    "PERMIT2_ADDRESS_INVALID",
    {},
    (p) => {
      P(p).escrowContractAddress = EVM.escrow;
    },
  ],
  [
    "EVM permit with a Tron Permit2",
    "evm",
    "PERMIT2_ADDRESS_INVALID",
    {},
    (p) => {
      P(p).permit2ContractAddress = TRON.permit2;
      A(p).domain.verifyingContract = TRON.permit2;
    },
  ],
  [
    "an extra unused type",
    "evm",
    "PERMIT2_TYPES_INVALID",
    {},
    (p) => {
      A(p).types.Zzz = [{ name: "a", type: "uint256" }];
    },
  ],
  [
    "witness typed SwapWitness[]",
    "evm",
    "PERMIT2_TYPES_INVALID",
    {},
    (p) => {
      A(p).types.PermitWitnessTransferFrom[4].type = "SwapWitness[]";
    },
  ],
  [
    "permitted typed TokenPermissions[] (batch)",
    "evm",
    "PERMIT2_TYPES_INVALID",
    {},
    (p) => {
      A(p).types.PermitWitnessTransferFrom[0].type = "TokenPermissions[]";
    },
  ],
  [
    "recipient typed bytes",
    "evm",
    "PERMIT2_TYPES_INVALID",
    {},
    (p) => {
      A(p).types.SwapWitness[4].type = "bytes";
    },
  ],
  [
    "minDestAmount typed uint8",
    "evm",
    "PERMIT2_TYPES_INVALID",
    {},
    (p) => {
      A(p).types.SwapWitness[5].type = "uint8";
    },
  ],
  [
    "destChain typed uint32",
    "evm",
    "PERMIT2_TYPES_INVALID",
    {},
    (p) => {
      A(p).types.SwapWitness[2].type = "uint32";
      rehash(p);
    },
  ],
  [
    "witness type named bytes33",
    "evm",
    "PERMIT2_TYPES_INVALID",
    {},
    (p) => {
      A(p).types.PermitWitnessTransferFrom[4].type = "bytes33";
    },
  ],
  [
    "witness type named uint7",
    "evm",
    "PERMIT2_TYPES_INVALID",
    {},
    (p) => {
      A(p).types.PermitWitnessTransferFrom[4].type = "uint7";
    },
  ],
  [
    "witness type named constructor",
    "evm",
    "PERMIT2_TYPES_INVALID",
    { witnessTypeName: "constructor" },
    () => {},
  ],
  [
    "witness type named hasOwnProperty",
    "evm",
    "PERMIT2_TYPES_INVALID",
    { witnessTypeName: "hasOwnProperty" },
    () => {},
  ],
  [
    "a PermitBatchWitnessTransferFrom type alongside",
    "evm",
    "PERMIT2_TYPES_INVALID",
    {},
    (p) => {
      A(p).types.PermitBatchWitnessTransferFrom = A(p).types.PermitWitnessTransferFrom;
    },
  ],
  [
    "EIP712Domain with version",
    "evm",
    "PERMIT2_TYPES_INVALID",
    {},
    (p) => {
      A(p).types.EIP712Domain.push({ name: "version", type: "string" });
    },
  ],
  [
    "an extra witness field, hashed in",
    "evm",
    "PERMIT2_TYPES_INVALID",
    {},
    (p) => {
      A(p).types.SwapWitness.push({ name: "extra", type: "uint256" });
      A(p).witness.extra = "1";
      rehash(p);
    },
  ],
  [
    "an extra witness value",
    "evm",
    "PERMIT2_WITNESS_INVALID",
    {},
    (p) => {
      A(p).witness.extra = "1";
    },
  ],
  [
    "witness_type_string with a trailing space",
    "evm",
    "PERMIT2_WITNESS_TYPE_STRING_MISMATCH",
    {},
    (p) => {
      A(p).witnessTypeString += " ";
    },
  ],
  [
    "witness_type_string in another case",
    "evm",
    "PERMIT2_WITNESS_TYPE_STRING_MISMATCH",
    {},
    (p) => {
      A(p).witnessTypeString = A(p).witnessTypeString.replace("SwapWitness witness", "swapWitness witness");
    },
  ],
  [
    "witness_type_string without TokenPermissions",
    "evm",
    "PERMIT2_WITNESS_TYPE_STRING_MISMATCH",
    {},
    (p) => {
      A(p).witnessTypeString = A(p).witnessTypeString.replace(/TokenPermissions\(.*$/, "");
    },
  ],
  [
    "minDestAmount as a JSON number",
    "evm",
    "same digest",
    {},
    (p) => {
      A(p).witness.minDestAmount = 3900;
    },
  ],
  [
    "minDestAmount as hex",
    "evm",
    "PERMIT2_WITNESS_INVALID",
    {},
    (p) => {
      A(p).witness.minDestAmount = "0xf3c";
    },
  ],
  [
    "minDestAmount with a leading zero",
    "evm",
    "PERMIT2_WITNESS_INVALID",
    {},
    (p) => {
      A(p).witness.minDestAmount = "03900";
    },
  ],
  [
    "minDestAmount 3900.0",
    "evm",
    "PERMIT2_WITNESS_INVALID",
    {},
    (p) => {
      A(p).witness.minDestAmount = "3900.0";
    },
  ],
  [
    "destChain 4 + 2^256",
    "evm",
    "PERMIT2_WITNESS_INVALID",
    {},
    (p) => {
      A(p).witness.destChain = String(4n + 2n ** 256n);
    },
  ],
  [
    "intentId in upper case hex",
    "evm",
    "same digest",
    {},
    (p) => {
      A(p).witness.intentId = `0x${A(p).witness.intentId.slice(2).toUpperCase()}`;
    },
  ],
  [
    "witness_hash in upper case",
    "evm",
    "same digest",
    {},
    (p) => {
      A(p).witnessHash = `0x${A(p).witnessHash.slice(2).toUpperCase()}`;
    },
  ],
  [
    "recipient with a trailing space",
    "evm",
    "PERMIT2_RECIPIENT_MISMATCH",
    { witness: { recipient: "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080 " } },
    () => {},
  ],
  [
    "destToken BTC (quote alike)",
    "evm",
    "PERMIT2_DEST_TOKEN_MISMATCH",
    { witness: { destToken: "BTC" } },
    (p) => {
      p.quote.destToken = "BTC";
    },
  ],
  [
    "destToken in fullwidth letters",
    "evm",
    "PERMIT2_DEST_TOKEN_MISMATCH",
    { witness: { destToken: "ｂｔｃ" } },
    (p) => {
      p.quote.destToken = "ｂｔｃ";
    },
  ],
  [
    "destToken with a line break",
    "evm",
    "PERMIT2_TEXT_UNSAFE",
    {},
    (p) => {
      p.quote.destToken = "btc\nValid until 2099";
    },
  ],
  [
    "deadline in milliseconds",
    "evm",
    "PERMIT2_DEADLINE_TOO_FAR",
    {},
    (p) => {
      p.intent.deadlineSecs *= 1000;
    },
  ],
  [
    "deadline as a string",
    "evm",
    "PERMIT2_DEADLINE_MISMATCH",
    {},
    (p) => {
      p.intent.deadlineSecs = String(p.intent.deadlineSecs);
    },
  ],
  [
    "deadline fractional",
    "tron",
    "PERMIT2_DEADLINE_MISMATCH",
    {},
    (p) => {
      p.intent.deadlineSecs += 0.5;
    },
  ],
  [
    "nonce as a number",
    "evm",
    "PERMIT2_NONCE_MISMATCH",
    {},
    (p) => {
      P(p).nonce = 5;
    },
  ],
  [
    "nonce 2^256",
    "evm",
    "PERMIT2_NONCE_MISMATCH",
    {},
    (p) => {
      P(p).nonce = 2n ** 256n;
    },
  ],
  [
    "amount 0",
    "tron",
    "PERMIT2_AMOUNT_MISMATCH",
    {},
    (p) => {
      p.quote.sourceAmountLots = 0n;
    },
  ],
  [
    "amount as a number",
    "evm",
    "PERMIT2_AMOUNT_MISMATCH",
    {},
    (p) => {
      p.quote.sourceAmountLots = 2_500_000;
    },
  ],
  [
    "amount 2^256",
    "evm",
    "PERMIT2_AMOUNT_MISMATCH",
    {},
    (p) => {
      p.quote.sourceAmountLots = 2n ** 256n;
    },
  ],
  [
    "spender = Permit2",
    "evm",
    "PERMIT2_SPENDER_MISMATCH",
    {},
    (p) => {
      P(p).escrowContractAddress = EVM.permit2;
    },
  ],
  [
    "a sent message with permitted as an array (batch)",
    "evm",
    "PERMIT2_PARAMS_INVALID",
    {},
    (p) => {
      A(p).message = sentMessage(p, [{ token: EVM.token, amount: "2500000" }]);
    },
  ],
  [
    "a sent message with another token",
    "evm",
    "PERMIT2_TOKEN_MISMATCH",
    {},
    (p) => {
      A(p).message = sentMessage(p, { token: EVM.escrow, amount: "2500000" });
    },
  ],
  [
    "a sent message with another amount",
    "evm",
    "PERMIT2_AMOUNT_MISMATCH",
    {},
    (p) => {
      A(p).message = sentMessage(p, { token: EVM.token, amount: "2500001" });
    },
  ],
  [
    "a sent primaryType PermitBatchWitnessTransferFrom (never read)",
    "evm",
    "same digest",
    {},
    (p) => {
      A(p).primaryType = "PermitBatchWitnessTransferFrom";
    },
  ],
  [
    "types with an own __proto__ key",
    "evm",
    "PERMIT2_TYPES_INVALID",
    {},
    (p) => {
      A(p).types = JSON.parse(
        JSON.stringify(A(p).types).replace('"TokenPermissions":', '"__proto__":[],"TokenPermissions":'),
      );
    },
  ],
  [
    "quote.destChain as a string",
    "evm",
    "PERMIT2_DEST_CHAIN_MISMATCH",
    {},
    (p) => {
      p.quote.destChain = "4";
    },
  ],
  [
    "quote.destAmountDecimals 300",
    "evm",
    "PERMIT2_PARAMS_INVALID",
    {},
    (p) => {
      p.quote.destAmountDecimals = 300;
    },
  ],
  [
    "additional.secretHash differs",
    "evm",
    "PERMIT2_SECRET_HASH_MISMATCH",
    {},
    (p) => {
      A(p).secretHash = `0x${"cd".repeat(32)}`;
    },
  ],
  [
    "intent id not a UUID",
    "evm",
    "PERMIT2_INTENT_ID_MISMATCH",
    {},
    (p) => {
      p.intent.intentId = "x";
    },
  ],
  [
    "types as an array",
    "evm",
    "PERMIT2_PARAMS_INVALID",
    {},
    (p) => {
      A(p).types = [];
    },
  ],
];

describe("JSON payloads", () => {
  const baseline = {
    evm: verifyPermit2Approval(parametersOf("evm", {}, () => {})).digest,
    tron: verifyPermit2Approval(parametersOf("tron", {}, () => {})).digest,
  };

  it.each(PAYLOADS)("%s (%s): %s", (_name, chain, expected, options, mutate) => {
    const parameters = parametersOf(chain, options, mutate);
    let outcome: string;
    try {
      const { digest } = verifyPermit2Approval(parameters);
      outcome = digest === baseline[chain] ? "same digest" : `accepted with digest ${digest}`;
    } catch (error) {
      if (!isSwapIntentError(error)) throw error;
      outcome = error.code;
    }
    expect(outcome).toBe(expected);
  });
});
