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
type Payload = [string, Chain, string, FixtureOptions, (p: Json) => void];

/** A row on the sandbox's own fixture (no fixture options), changed by `mutate`. */
const payload = (name: string, chain: Chain, expected: string, mutate: (p: Json) => void): Payload => [
  name,
  chain,
  expected,
  {},
  mutate,
];

const PAYLOADS: Payload[] = [
  payload("Tron chainId + 2^32 (TIP-712 masks it)", "tron", "same digest", (p) => {
    A(p).domain.chainId += 2 ** 32;
  }),
  payload("Tron chainId + 2^40 as a string", "tron", "same digest", (p) => {
    A(p).domain.chainId = String(BigInt(TRON.chainId) + 2n ** 40n);
  }),
  payload("EVM chainId + 2^32", "evm", "PERMIT2_CHAIN_ID_MISMATCH", (p) => {
    A(p).domain.chainId += 2 ** 32;
  }),
  payload("chainId as hex string", "evm", "PERMIT2_DOMAIN_INVALID", (p) => {
    A(p).domain.chainId = `0x${EVM.chainId.toString(16)}`;
  }),
  payload("chainId as decimal string", "evm", "same digest", (p) => {
    A(p).domain.chainId = String(EVM.chainId);
  }),
  payload("chainId fractional", "evm", "PERMIT2_DOMAIN_INVALID", (p) => {
    A(p).domain.chainId += 0.5;
  }),
  payload("chainId 2^256", "evm", "PERMIT2_DOMAIN_INVALID", (p) => {
    A(p).domain.chainId = String(2n ** 256n);
  }),
  payload("domain version", "evm", "PERMIT2_DOMAIN_INVALID", (p) => {
    A(p).domain.version = "1";
  }),
  payload("domain salt", "evm", "PERMIT2_DOMAIN_INVALID", (p) => {
    A(p).domain.salt = `0x${"00".repeat(32)}`;
  }),
  payload("domain without name", "evm", "PERMIT2_DOMAIN_NAME_MISMATCH", (p) => {
    delete A(p).domain.name;
  }),
  payload("domain name with a trailing space", "evm", "PERMIT2_DOMAIN_NAME_MISMATCH", (p) => {
    A(p).domain.name = "Permit2 ";
  }),
  payload("Permit2 address lowercase (no checksum)", "evm", "same digest", (p) => {
    A(p).domain.verifyingContract = EVM.permit2.toLowerCase();
    P(p).permit2ContractAddress = EVM.permit2.toLowerCase();
  }),
  payload("Permit2 address with a broken checksum", "evm", "PERMIT2_ADDRESS_INVALID", (p) => {
    A(p).domain.verifyingContract = `0x${EVM.permit2.slice(2).toUpperCase()}`;
  }),
  payload("Tron Permit2 as 41-hex", "tron", "PERMIT2_ADDRESS_INVALID", (p) => {
    P(p).permit2ContractAddress = `41${EVM.permit2.slice(2)}`;
  }),
  payload("Tron Permit2 as 0x hex", "tron", "PERMIT2_ADDRESS_INVALID", (p) => {
    P(p).permit2ContractAddress = EVM.permit2;
    A(p).domain.verifyingContract = EVM.permit2;
  }),
  payload("Tron token as 0x hex", "tron", "PERMIT2_ADDRESS_INVALID", (p) => {
    p.quote.sourceToken = EVM.token;
  }),
  payload("Tron escrow as 0x hex", "tron", "PERMIT2_ADDRESS_INVALID", (p) => {
    P(p).escrowContractAddress = EVM.escrow;
  }),
  payload("EVM permit with a Tron Permit2", "evm", "PERMIT2_ADDRESS_INVALID", (p) => {
    P(p).permit2ContractAddress = TRON.permit2;
    A(p).domain.verifyingContract = TRON.permit2;
  }),
  payload("an extra unused type", "evm", "PERMIT2_TYPES_INVALID", (p) => {
    A(p).types.Zzz = [{ name: "a", type: "uint256" }];
  }),
  payload("witness typed SwapWitness[]", "evm", "PERMIT2_TYPES_INVALID", (p) => {
    A(p).types.PermitWitnessTransferFrom[4].type = "SwapWitness[]";
  }),
  payload("permitted typed TokenPermissions[] (batch)", "evm", "PERMIT2_TYPES_INVALID", (p) => {
    A(p).types.PermitWitnessTransferFrom[0].type = "TokenPermissions[]";
  }),
  payload("recipient typed bytes", "evm", "PERMIT2_TYPES_INVALID", (p) => {
    A(p).types.SwapWitness[4].type = "bytes";
  }),
  payload("minDestAmount typed uint8", "evm", "PERMIT2_TYPES_INVALID", (p) => {
    A(p).types.SwapWitness[5].type = "uint8";
  }),
  payload("destChain typed uint32", "evm", "PERMIT2_TYPES_INVALID", (p) => {
    A(p).types.SwapWitness[2].type = "uint32";
    rehash(p);
  }),
  payload("witness type named bytes33", "evm", "PERMIT2_TYPES_INVALID", (p) => {
    A(p).types.PermitWitnessTransferFrom[4].type = "bytes33";
  }),
  payload("witness type named uint7", "evm", "PERMIT2_TYPES_INVALID", (p) => {
    A(p).types.PermitWitnessTransferFrom[4].type = "uint7";
  }),
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
  payload("a PermitBatchWitnessTransferFrom type alongside", "evm", "PERMIT2_TYPES_INVALID", (p) => {
    A(p).types.PermitBatchWitnessTransferFrom = A(p).types.PermitWitnessTransferFrom;
  }),
  payload("EIP712Domain with version", "evm", "PERMIT2_TYPES_INVALID", (p) => {
    A(p).types.EIP712Domain.push({ name: "version", type: "string" });
  }),
  payload("an extra witness field, hashed in", "evm", "PERMIT2_TYPES_INVALID", (p) => {
    A(p).types.SwapWitness.push({ name: "extra", type: "uint256" });
    A(p).witness.extra = "1";
    rehash(p);
  }),
  payload("an extra witness value", "evm", "PERMIT2_WITNESS_INVALID", (p) => {
    A(p).witness.extra = "1";
  }),
  payload("witness_type_string with a trailing space", "evm", "PERMIT2_WITNESS_TYPE_STRING_MISMATCH", (p) => {
    A(p).witnessTypeString += " ";
  }),
  payload("witness_type_string in another case", "evm", "PERMIT2_WITNESS_TYPE_STRING_MISMATCH", (p) => {
    A(p).witnessTypeString = A(p).witnessTypeString.replace("SwapWitness witness", "swapWitness witness");
  }),
  payload(
    "witness_type_string without TokenPermissions",
    "evm",
    "PERMIT2_WITNESS_TYPE_STRING_MISMATCH",
    (p) => {
      A(p).witnessTypeString = A(p).witnessTypeString.replace(/TokenPermissions\(.*$/, "");
    },
  ),
  payload("minDestAmount as a JSON number", "evm", "same digest", (p) => {
    A(p).witness.minDestAmount = 3900;
  }),
  payload("minDestAmount as hex", "evm", "PERMIT2_WITNESS_INVALID", (p) => {
    A(p).witness.minDestAmount = "0xf3c";
  }),
  payload("minDestAmount with a leading zero", "evm", "PERMIT2_WITNESS_INVALID", (p) => {
    A(p).witness.minDestAmount = "03900";
  }),
  payload("minDestAmount 3900.0", "evm", "PERMIT2_WITNESS_INVALID", (p) => {
    A(p).witness.minDestAmount = "3900.0";
  }),
  payload("destChain 4 + 2^256", "evm", "PERMIT2_WITNESS_INVALID", (p) => {
    A(p).witness.destChain = String(4n + 2n ** 256n);
  }),
  payload("intentId in upper case hex", "evm", "same digest", (p) => {
    A(p).witness.intentId = `0x${A(p).witness.intentId.slice(2).toUpperCase()}`;
  }),
  payload("witness_hash in upper case", "evm", "same digest", (p) => {
    A(p).witnessHash = `0x${A(p).witnessHash.slice(2).toUpperCase()}`;
  }),
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
  payload("destToken with a line break", "evm", "PERMIT2_TEXT_UNSAFE", (p) => {
    p.quote.destToken = "btc\nValid until 2099";
  }),
  payload("deadline in milliseconds", "evm", "PERMIT2_DEADLINE_TOO_FAR", (p) => {
    p.intent.deadlineSecs *= 1000;
  }),
  payload("deadline as a string", "evm", "PERMIT2_DEADLINE_MISMATCH", (p) => {
    p.intent.deadlineSecs = String(p.intent.deadlineSecs);
  }),
  payload("deadline fractional", "tron", "PERMIT2_DEADLINE_MISMATCH", (p) => {
    p.intent.deadlineSecs += 0.5;
  }),
  payload("nonce as a number", "evm", "PERMIT2_NONCE_MISMATCH", (p) => {
    P(p).nonce = 5;
  }),
  payload("nonce 2^256", "evm", "PERMIT2_NONCE_MISMATCH", (p) => {
    P(p).nonce = 2n ** 256n;
  }),
  payload("amount 0", "tron", "PERMIT2_AMOUNT_MISMATCH", (p) => {
    p.quote.sourceAmountLots = 0n;
  }),
  payload("amount as a number", "evm", "PERMIT2_AMOUNT_MISMATCH", (p) => {
    p.quote.sourceAmountLots = 2_500_000;
  }),
  payload("amount 2^256", "evm", "PERMIT2_AMOUNT_MISMATCH", (p) => {
    p.quote.sourceAmountLots = 2n ** 256n;
  }),
  payload("spender = Permit2", "evm", "PERMIT2_SPENDER_MISMATCH", (p) => {
    P(p).escrowContractAddress = EVM.permit2;
  }),
  payload("a sent message with permitted as an array (batch)", "evm", "PERMIT2_PARAMS_INVALID", (p) => {
    A(p).message = sentMessage(p, [{ token: EVM.token, amount: "2500000" }]);
  }),
  payload("a sent message with another token", "evm", "PERMIT2_TOKEN_MISMATCH", (p) => {
    A(p).message = sentMessage(p, { token: EVM.escrow, amount: "2500000" });
  }),
  payload("a sent message with another amount", "evm", "PERMIT2_AMOUNT_MISMATCH", (p) => {
    A(p).message = sentMessage(p, { token: EVM.token, amount: "2500001" });
  }),
  payload("a sent primaryType PermitBatchWitnessTransferFrom (never read)", "evm", "same digest", (p) => {
    A(p).primaryType = "PermitBatchWitnessTransferFrom";
  }),
  payload("types with an own __proto__ key", "evm", "PERMIT2_TYPES_INVALID", (p) => {
    A(p).types = JSON.parse(
      JSON.stringify(A(p).types).replace('"TokenPermissions":', '"__proto__":[],"TokenPermissions":'),
    );
  }),
  payload("quote.destChain as a string", "evm", "PERMIT2_DEST_CHAIN_MISMATCH", (p) => {
    p.quote.destChain = "4";
  }),
  payload("quote.destAmountDecimals 300", "evm", "PERMIT2_PARAMS_INVALID", (p) => {
    p.quote.destAmountDecimals = 300;
  }),
  payload("additional.secretHash differs", "evm", "PERMIT2_SECRET_HASH_MISMATCH", (p) => {
    A(p).secretHash = `0x${"cd".repeat(32)}`;
  }),
  payload("intent id not a UUID", "evm", "PERMIT2_INTENT_ID_MISMATCH", (p) => {
    p.intent.intentId = "x";
  }),
  payload("types as an array", "evm", "PERMIT2_PARAMS_INVALID", (p) => {
    A(p).types = [];
  }),
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
