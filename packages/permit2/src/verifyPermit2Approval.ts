import type { HexString, TypedDataField } from "@swapintent/client";
import * as AbiParameters from "ox/AbiParameters";
import * as Address from "ox/Address";
import * as Hash from "ox/Hash";
import * as OxHex from "ox/Hex";
import * as TypedData from "ox/TypedData";
import * as Value from "ox/Value";
import {
  CANONICAL_PERMIT2_ADDRESS,
  DEFAULT_MAX_DEADLINE_SECS,
  PERMIT2_PRIMARY_TYPE,
  PERMIT2_WITNESS_TYPE_STUB,
  TRON_CHAIN_ID_MASK,
} from "./constants.js";
import type { Permit2ErrorDetails } from "./errors.js";
import { getPermit2WitnessTypeString } from "./getPermit2WitnessTypeString.js";
import { anyAddressTo20, type ChainKind, detectChainKind, toAddress20 } from "./internal/addresses.js";
import { assertDisplayText } from "./internal/assertDisplayText.js";
import { createPermit2Error } from "./internal/fail.js";
import { snapshotInput } from "./internal/snapshotInput.js";
import type {
  Permit2ApprovalSummary,
  Permit2DestinationExpectation,
  Permit2Domain,
  Permit2Expectation,
  Permit2FactSources,
  Permit2Message,
  Permit2TypedData,
  VerifyPermit2ApprovalErrorType,
  VerifyPermit2ApprovalParameters,
  VerifyPermit2ApprovalReturnType,
} from "./types.js";

const MAX_UINT256 = 2n ** 256n - 1n;
const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";
const NATIVE_PLACEHOLDER = "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee";

/** The witness fields a signer must be able to check, with their EIP-712 types (docs/approvals.md). */
const WITNESS_FIELDS: Readonly<Record<string, string>> = {
  intentId: "bytes32",
  secretHash: "bytes32",
  destChain: "uint256",
  destToken: "string",
  recipient: "string",
  minDestAmount: "uint256",
  maxDestAmount: "uint256",
};
/**
 * EIP-712 atomic type names. A struct named like one is ambiguous: encoders that look up structs first (ox, viem)
 * would hash `address token` or `string recipient` fields as that struct, others refuse the name.
 */
const ATOMIC_TYPE_NAME = /^(address|bool|string|bytes([0-9]+)?|u?int([0-9]+)?)$/;
const DOMAIN_FIELDS = [
  { name: "name", type: "string" },
  { name: "chainId", type: "uint256" },
  { name: "verifyingContract", type: "address" },
] as const;
const TOKEN_PERMISSIONS_FIELDS = [
  { name: "token", type: "address" },
  { name: "amount", type: "uint256" },
] as const;
const PRIMARY_FIELDS_BEFORE_WITNESS = [
  { name: "permitted", type: "TokenPermissions" },
  { name: "spender", type: "address" },
  { name: "nonce", type: "uint256" },
  { name: "deadline", type: "uint256" },
] as const;

/**
 * Checks a `permit2` intent's `params_to_sign` against the quote the user accepted and the wallet's own state,
 * and returns the exact typed data to sign plus a summary for the confirmation screen. Pure: needs neither
 * viem nor tronweb, never mutates its inputs, makes no network call.
 *
 * Verified (each failure is a `SwapIntentError` with its own code, see {@link Permit2ErrorCode}): mechanism; address
 * forms (EVM checksum, Tron base58check); `types` (exactly Permit2's primary type, `TokenPermissions` and a
 * witness type with the fields intentId, secretHash, destChain, destToken, recipient, minDestAmount, maxDestAmount);
 * domain (only name `Permit2`, the wallet's chain id, `verifyingContract == permit2_contract_address`, canonical
 * (EVM only) or allowed); `witness_hash` recomputed; `witness_type_string` rebuilt; spender = escrow; token and amount = quote;
 * deadline = `deadline_secs`, in the future, not too far; the user's own `expected.sourceToken`,
 * `expected.sourceAmountLots` and `expected.sourceDecimals` when given (the quote comes from the service); witness amounts, recipient, destination chain and token,
 * intent id and secret hash = quote and intent; maximum not below minimum; `expected.destination` when given
 * (network, token, decimals, and a signed minimum of at least `minAmountLots`); every service string that is
 * signed as text or shown (witness strings, the quote's destination token) free of control, bidi and invisible
 * characters (`PERMIT2_TEXT_UNSAFE`). The summary marks which facts the wallet confirmed (`summary.sources`).
 *
 * A malformed `expected` or option (the wallet's own input: a caller bug) is `PERMIT2_EXPECTED_INVALID`; malformed
 * service data is `PERMIT2_PARAMS_INVALID`; a well-formed fact that differs has its own mismatch code.
 *
 * @throws `Permit2Error` ({@link VerifyPermit2ApprovalErrorType}) on the first check that fails.
 *
 * @example
 * ```ts
 * import { verifyPermit2Approval } from "@swapintent/permit2";
 *
 * // Before the wallet prompt: check the intent, show `summary.lines`, then sign `typedData` (or use a signer).
 * const verified = verifyPermit2Approval({
 *   intent, // from client.createIntent
 *   quote, // the quote the user accepted
 *   expected: {
 *     chainId: 1,
 *     recipient: userDestinationAddress,
 *     spender: escrowFromWalletConfig,
 *     sourceToken: usdcAddress,
 *     sourceAmountLots: 2_500_000n,
 *     sourceDecimals: 6,
 *     destination: { network: 5, token: solUsdcMint, decimals: 6, minAmountLots: 2_480_000n },
 *   },
 * });
 * console.log(verified.summary.lines.join("\n"));
 * ```
 */
export function verifyPermit2Approval(
  parameters: VerifyPermit2ApprovalParameters,
): VerifyPermit2ApprovalReturnType {
  const input = readParameters(parameters);
  const { intent, quote, expected, params, additional, destination } = input;
  const { kind, permit2, escrow, token } = readAddresses(input);

  const witnessTypeName = assertTypes(additional.types as Record<string, unknown>);
  const signedChainId = assertDomain({
    domain: additional.domain as Record<string, unknown>,
    kind,
    expectedChainId: expected.chainId,
    permit2,
    permit2ContractAddress: params.permit2ContractAddress,
    allowed: input.allowed,
  });
  const { types, witness, witnessHash, witnessTypeString } = verifyWitness(witnessTypeName, additional);

  const { amount, spenderUnchecked } = assertSourceSide({
    escrow,
    permit2,
    token,
    expected,
    quote,
    escrowContractAddress: params.escrowContractAddress,
  });
  const { nonce, deadlineSecs } = assertNonceAndDeadline({
    nonce: params.nonce,
    deadlineSecs: intent.deadlineSecs,
    nowMs: input.nowMs,
    maxDeadlineSecs: input.maxDeadlineSecs,
  });
  assertSentMessage(additional, kind, { token, amount, escrow, nonce, deadline: BigInt(deadlineSecs) });

  // Witness contents against intent, quote and the wallet's own destination facts.
  assertWitnessContents({ witness, intent, quote, additional, recipient: expected.recipient });
  if (destination !== null) assertDestination({ destination, quote });

  const chainId = Number(signedChainId);
  const { typedData, hashedTypedData, digest } = buildTypedData({
    kind,
    chainId,
    permit2: [permit2, params.permit2ContractAddress],
    token: [token, quote.sourceToken],
    escrow: [escrow, params.escrowContractAddress],
    amount,
    nonce,
    deadlineSecs,
    witness,
    types,
    witnessTypeString,
    witnessHash,
  });
  if (expected.digest !== undefined && expected.digest.toLowerCase() !== digest)
    throw createPermit2Error("PERMIT2_DIGEST_MISMATCH", "The permit is not the one the user confirmed.", {
      expected: expected.digest,
      actual: digest,
    });
  const summary = buildSummary({
    kind,
    chainId,
    typedData,
    deadlineSecs,
    quote,
    intentId: intent.intentId,
    owner: expected.owner ?? null,
    witness,
    sources: factSources(expected, spenderUnchecked, destination !== null),
  });
  return { chainType: kind, typedData, hashedTypedData, digest, witnessHash, witnessTypeString, summary };
}

/** Which summary facts the wallet gave (and so were checked) and which are only the service's word. */
function factSources(
  expected: Permit2Expectation,
  spenderUnchecked: boolean,
  hasDestination: boolean,
): Permit2FactSources {
  return {
    sourceToken: expected.sourceToken === undefined ? "service" : "wallet",
    sourceAmount: expected.sourceAmountLots === undefined ? "service" : "wallet",
    sourceDecimals: expected.sourceDecimals === undefined ? "service" : "wallet",
    spender: spenderUnchecked ? "service" : "wallet",
    destination: hasDestination ? "wallet" : "service",
  };
}

type ReadParameters = ReturnType<typeof readParameters>;

/**
 * The parameters with defaults, each checked for shape: what the service sent (`PERMIT2_MECHANISM_MISMATCH`,
 * `PERMIT2_PARAMS_INVALID`) and the wallet's own input (`PERMIT2_EXPECTED_INVALID`).
 */
function readParameters(input: VerifyPermit2ApprovalParameters) {
  // Every check below and the typed data read one copy, each value read once: an accessor or proxy in the input
  // cannot answer a check one way and the signing (or the summary) another.
  const parameters = snapshotInput(input) as VerifyPermit2ApprovalParameters;
  if (!isObject(parameters))
    throw createPermit2Error("PERMIT2_EXPECTED_INVALID", "parameters is not an object.", {
      field: "parameters",
    });
  const { intent, quote, expected } = parameters;
  const { params, additional } = readIntent(intent);
  readQuote(quote);
  const { destination } = readExpectation(expected);
  const { nowMs, maxDeadlineSecs, allowed } = readOptions(parameters);
  return { intent, quote, expected, params, additional, destination, nowMs, maxDeadlineSecs, allowed };
}

/** The intent uses `permit2` and its `params_to_sign` holds every part (`PERMIT2_PARAMS_INVALID`). */
function readIntent(intent: VerifyPermit2ApprovalParameters["intent"]) {
  if (!isObject(intent) || intent.approvalMechanism !== "permit2")
    throw createPermit2Error("PERMIT2_MECHANISM_MISMATCH", "The intent does not use a permit2 approval.", {
      approvalMechanism: isObject(intent) ? intent.approvalMechanism : undefined,
    });
  const params = intent.paramsToSign;
  const additional = isObject(params) ? params.additionalData : undefined;
  if (
    !isObject(params) ||
    !isObject(additional) ||
    !isObject(additional.domain) ||
    !isObject(additional.types) ||
    !isObject(additional.witness) ||
    typeof additional.witnessTypeString !== "string" ||
    typeof additional.witnessHash !== "string"
  )
    throw createPermit2Error(
      "PERMIT2_PARAMS_INVALID",
      "params_to_sign lacks domain, types, witness, witness_type_string or witness_hash.",
      { field: "params_to_sign" },
    );
  return { params, additional };
}

/** The quote is an object whose decimals the summary can format with (`PERMIT2_PARAMS_INVALID`). */
function readQuote(quote: unknown): void {
  if (!isObject(quote))
    throw createPermit2Error("PERMIT2_PARAMS_INVALID", "quote is not an object.", {
      field: "quote",
    });
  // The summary formats amounts with these: garbage must not pass.
  for (const field of ["sourceAmountDecimals", "destAmountDecimals"] as const) {
    const decimals: unknown = quote[field];
    if (!isDecimals(decimals))
      throw createPermit2Error("PERMIT2_PARAMS_INVALID", `quote.${field} is not an integer 0..255.`, {
        field: `quote.${field}`,
        value: typeof decimals === "bigint" ? `${decimals}` : decimals,
      });
  }
}

/** The caller's options with defaults: clock, deadline bound, allow list (`PERMIT2_EXPECTED_INVALID`). */
function readOptions(parameters: VerifyPermit2ApprovalParameters) {
  const invalid = (field: string, shortMessage: string) =>
    createPermit2Error("PERMIT2_EXPECTED_INVALID", `${field}${shortMessage}`, { field });
  const {
    allowedPermit2Addresses = [],
    maxDeadlineSecs = DEFAULT_MAX_DEADLINE_SECS,
    nowMs = Date.now(),
  } = parameters;
  if (typeof nowMs !== "number" || !Number.isFinite(nowMs))
    throw invalid("nowMs", " is not a finite number of milliseconds.");
  if (typeof maxDeadlineSecs !== "number" || !Number.isFinite(maxDeadlineSecs) || maxDeadlineSecs < 0)
    throw invalid("maxDeadlineSecs", " is not a non-negative number.");
  if (!Array.isArray(allowedPermit2Addresses)) throw invalid("allowedPermit2Addresses", " is not an array.");
  const allowed = new Set<HexString>();
  for (const address of allowedPermit2Addresses as unknown[]) {
    const address20 = typeof address === "string" ? anyAddressTo20(address) : null;
    if (address20 === null)
      throw invalid("allowedPermit2Addresses", " holds a value that is not an address.");
    allowed.add(address20);
  }
  return { nowMs, maxDeadlineSecs, allowed };
}

/** The address family, and the Permit2, escrow and token addresses as 20 bytes. */
function readAddresses(input: ReadParameters) {
  const { params, expected, quote } = input;
  const kind = detectChainKind(params.permit2ContractAddress);
  if (kind === null)
    throw createPermit2Error(
      "PERMIT2_ADDRESS_INVALID",
      "permit2_contract_address is neither an EVM nor a Tron address.",
      { field: "permit2_contract_address", value: params.permit2ContractAddress },
    );
  if (expected.chainType !== undefined && expected.chainType !== kind)
    throw createPermit2Error(
      "PERMIT2_CHAIN_TYPE_MISMATCH",
      `The permit is for a ${kind} chain, the wallet expects ${expected.chainType}.`,
      { expected: expected.chainType, actual: kind },
    );
  return {
    kind,
    permit2: toAddress20(kind, params.permit2ContractAddress, "permit2_contract_address"),
    escrow: toAddress20(kind, params.escrowContractAddress, "escrow_contract_address"),
    token: toAddress20(kind, quote.sourceToken, "quote.sourceToken"),
  };
}

/** The witness values, their hash (= `witness_hash`) and the type string (= `witness_type_string`). */
function verifyWitness(witnessTypeName: string, additional: Record<string, unknown>) {
  const types = copyTypes(additional.types as Record<string, unknown>);
  const witness = parseWitness(types[witnessTypeName]!, additional.witness as Record<string, unknown>);
  const witnessHash = hashWitness(witnessTypeName, types, witness);
  const sentWitnessHash = additional.witnessHash as string;
  if (witnessHash !== sentWitnessHash.toLowerCase())
    throw createPermit2Error(
      "PERMIT2_WITNESS_HASH_MISMATCH",
      "witness_hash is not the hash of the witness it was sent with.",
      { expected: witnessHash, actual: sentWitnessHash },
    );
  const witnessTypeString = getPermit2WitnessTypeString({ types });
  if (witnessTypeString !== additional.witnessTypeString)
    throw createPermit2Error(
      "PERMIT2_WITNESS_TYPE_STRING_MISMATCH",
      "witness_type_string does not match the witness types.",
      { expected: witnessTypeString, actual: additional.witnessTypeString },
    );
  return { types, witness, witnessHash, witnessTypeString };
}

/**
 * The domain holds exactly name `Permit2`, the wallet's chain id (Tron: masked) and the Permit2 contract, which is
 * canonical (EVM only) or allowed. Returns the chain id as signed.
 */
function assertDomain(input: {
  domain: Record<string, unknown>;
  kind: ChainKind;
  expectedChainId: unknown;
  permit2: HexString;
  permit2ContractAddress: unknown;
  allowed: ReadonlySet<HexString>;
}): bigint {
  const { domain, kind, permit2, allowed } = input;
  const { expectedChainId: expectedChainIdInput, permit2ContractAddress } = input;
  const extraDomainKeys = Object.keys(domain).filter((key) => !DOMAIN_FIELDS.some((f) => f.name === key));
  if (
    extraDomainKeys.length > 0 ||
    !Object.hasOwn(domain, "chainId") ||
    !Object.hasOwn(domain, "verifyingContract")
  )
    throw createPermit2Error(
      "PERMIT2_DOMAIN_INVALID",
      "The domain must hold exactly name, chainId and verifyingContract.",
      { keys: Object.keys(domain) },
    );
  if (domain.name !== "Permit2")
    throw createPermit2Error("PERMIT2_DOMAIN_NAME_MISMATCH", 'The domain name is not "Permit2".', {
      expected: "Permit2",
      actual: domain.name,
    });
  const domainChainId = parseUint(domain.chainId);
  const expectedChainId = parseUint(expectedChainIdInput);
  if (domainChainId === null || domainChainId === 0n)
    throw createPermit2Error("PERMIT2_DOMAIN_INVALID", "The domain chainId is not a positive integer.", {
      chainId: domain.chainId,
    });
  const signedChainId = kind === "tron" ? domainChainId & TRON_CHAIN_ID_MASK : domainChainId;
  const walletChainId =
    expectedChainId === null
      ? null
      : kind === "tron"
        ? expectedChainId & TRON_CHAIN_ID_MASK
        : expectedChainId;
  if (walletChainId !== signedChainId)
    throw createPermit2Error(
      "PERMIT2_CHAIN_ID_MISMATCH",
      "The permit is for another chain than the wallet's.",
      {
        expected: expectedChainIdInput,
        actual: domain.chainId,
      },
    );
  if (signedChainId > BigInt(Number.MAX_SAFE_INTEGER))
    throw createPermit2Error("PERMIT2_DOMAIN_INVALID", "The domain chainId is too large.", {
      chainId: domain.chainId,
    });
  const verifyingContract = toAddress20(kind, domain.verifyingContract, "domain.verifyingContract");
  if (verifyingContract !== permit2)
    throw createPermit2Error(
      "PERMIT2_VERIFYING_CONTRACT_MISMATCH",
      "domain.verifyingContract differs from permit2_contract_address.",
      { verifyingContract: domain.verifyingContract, permit2ContractAddress },
    );
  // Canonical on EVM only: on Tron (a 0x41 address prefix) no Permit2 lives at those 20 bytes.
  if ((kind === "tron" || permit2 !== CANONICAL_PERMIT2_ADDRESS.toLowerCase()) && !allowed.has(permit2))
    throw createPermit2Error(
      "PERMIT2_CONTRACT_NOT_ALLOWED",
      "The Permit2 contract is neither the canonical deployment nor one the caller allowed.",
      { permit2ContractAddress },
    );
  return signedChainId;
}

/** Spender = escrow (and the wallet's), token and amount = quote (and the wallet's), source decimals = wallet's. */
function assertSourceSide(input: {
  escrow: HexString;
  permit2: HexString;
  token: HexString;
  expected: VerifyPermit2ApprovalParameters["expected"];
  quote: VerifyPermit2ApprovalParameters["quote"];
  escrowContractAddress: unknown;
}): { amount: bigint; spenderUnchecked: boolean } {
  const { escrow, permit2, token, expected, quote } = input;
  const { escrowContractAddress } = input;
  if (escrow === ZERO_ADDRESS || escrow === permit2)
    throw createPermit2Error(
      "PERMIT2_SPENDER_MISMATCH",
      "The spender is the zero address or the Permit2 contract itself.",
      { actual: escrowContractAddress },
    );
  // Its shape was checked with the rest of `expected` (readExpectation): an address, or `{ unchecked: true }`.
  const expectedSpender: unknown = expected.spender;
  const spenderUnchecked = typeof expectedSpender !== "string";
  if (typeof expectedSpender === "string" && anyAddressTo20(expectedSpender) !== escrow)
    throw createPermit2Error(
      "PERMIT2_SPENDER_MISMATCH",
      "The spender is not the escrow the wallet expects.",
      {
        expected: expectedSpender,
        actual: escrowContractAddress,
      },
    );
  if (token === NATIVE_PLACEHOLDER || token === ZERO_ADDRESS)
    throw createPermit2Error(
      "PERMIT2_TOKEN_MISMATCH",
      "Permit2 moves ERC-20 tokens only; the quote's source token is a native-token placeholder.",
      { actual: quote.sourceToken },
    );
  // No token is the escrow or Permit2 itself: such a permit names a contract of the swap as what it moves.
  if (token === escrow || token === permit2)
    throw createPermit2Error(
      "PERMIT2_TOKEN_MISMATCH",
      "The quote's source token is the escrow or the Permit2 contract, not a token.",
      { actual: quote.sourceToken },
    );
  if (expected.sourceToken !== undefined && anyAddressTo20(expected.sourceToken) !== token)
    throw createPermit2Error(
      "PERMIT2_TOKEN_MISMATCH",
      "The quote's source token is not the token the user chose.",
      { expected: expected.sourceToken, actual: quote.sourceToken },
    );
  const amount = quote.sourceAmountLots;
  if (typeof amount !== "bigint" || amount <= 0n || amount > MAX_UINT256)
    throw createPermit2Error(
      "PERMIT2_AMOUNT_MISMATCH",
      "The quote's source amount is not a positive uint256.",
      { actual: amount },
    );
  if (expected.sourceAmountLots !== undefined && expected.sourceAmountLots !== amount)
    throw createPermit2Error(
      "PERMIT2_AMOUNT_MISMATCH",
      "The quote's source amount is not the amount the user asked for.",
      { expected: expected.sourceAmountLots, actual: amount },
    );
  if (expected.sourceDecimals !== undefined && expected.sourceDecimals !== quote.sourceAmountDecimals)
    throw createPermit2Error(
      "PERMIT2_DECIMALS_MISMATCH",
      "The quote's source decimals are not the token's decimals the wallet knows.",
      { expected: expected.sourceDecimals, actual: quote.sourceAmountDecimals },
    );
  return { amount, spenderUnchecked };
}

/** The nonce is a uint256; the deadline a positive integer, in the future, at most `maxDeadlineSecs` away. */
function assertNonceAndDeadline(input: {
  nonce: unknown;
  deadlineSecs: unknown;
  nowMs: number;
  maxDeadlineSecs: number;
}): { nonce: bigint; deadlineSecs: number } {
  const { nonce, deadlineSecs, nowMs, maxDeadlineSecs } = input;
  if (typeof nonce !== "bigint" || nonce < 0n || nonce > MAX_UINT256)
    throw createPermit2Error("PERMIT2_NONCE_MISMATCH", "The nonce is not a uint256.", { actual: nonce });
  if (typeof deadlineSecs !== "number" || !Number.isSafeInteger(deadlineSecs) || deadlineSecs <= 0)
    throw createPermit2Error(
      "PERMIT2_DEADLINE_MISMATCH",
      "The intent's deadline is not a positive integer.",
      { actual: deadlineSecs },
    );
  if (deadlineSecs * 1000 <= nowMs)
    throw createPermit2Error("PERMIT2_DEADLINE_PASSED", "The permit deadline has passed.", {
      deadlineSecs,
      nowMs,
    });
  // Also past the last instant a Date holds (8.64e15 ms), whatever the bound: the summary could not show it.
  if (deadlineSecs * 1000 - nowMs > maxDeadlineSecs * 1000 || deadlineSecs > 8.64e12)
    throw createPermit2Error("PERMIT2_DEADLINE_TOO_FAR", "The permit deadline lies too far in the future.", {
      deadlineSecs,
      nowMs,
      maxDeadlineSecs,
    });
  return { nonce, deadlineSecs };
}

/** The typed data in the chain's form (for the wallet) and in the hashed form, and the digest of the latter. */
function buildTypedData(input: {
  kind: ChainKind;
  chainId: number;
  /** Each address as [20 bytes, the form the service sent]. */
  permit2: [HexString, unknown];
  token: [HexString, unknown];
  escrow: [HexString, unknown];
  amount: bigint;
  nonce: bigint;
  deadlineSecs: number;
  witness: Record<string, bigint | string>;
  types: Record<string, TypedDataField[]>;
  witnessTypeString: string;
  witnessHash: HexString;
}): { typedData: Permit2TypedData; hashedTypedData: Permit2TypedData; digest: HexString } {
  const { kind, chainId, amount, nonce, deadlineSecs, witness, types, witnessTypeString, witnessHash } =
    input;
  const [permit2, permit2AsSent] = input.permit2;
  const [token, tokenAsSent] = input.token;
  const [escrow, escrowAsSent] = input.escrow;
  const display = (address20: HexString, original: unknown): string =>
    kind === "evm" ? Address.checksum(address20) : (original as string);
  const build = (form: "display" | "hashed"): Permit2TypedData => {
    const addr = (a20: HexString, original: unknown) =>
      form === "hashed" ? Address.checksum(a20) : display(a20, original);
    const domainOut: Permit2Domain = {
      name: "Permit2",
      chainId,
      verifyingContract: addr(permit2, permit2AsSent),
    };
    const message: Permit2Message = {
      permitted: { token: addr(token, tokenAsSent), amount },
      spender: addr(escrow, escrowAsSent),
      nonce,
      deadline: BigInt(deadlineSecs),
      witness: { ...witness },
    };
    return { domain: domainOut, types: copyTypes(types), primaryType: PERMIT2_PRIMARY_TYPE, message };
  };
  const typedData = build("display");
  const hashedTypedData = build("hashed");
  const digest = hashPermit2Digest({
    typedData: hashedTypedData,
    typeString: PERMIT2_WITNESS_TYPE_STUB + witnessTypeString,
    witnessHash,
  });
  return { typedData, hashedTypedData, digest };
}

/** The witness's intent id, secret hash, destination chain and token, recipient and amounts = intent and quote. */
function assertWitnessContents(input: {
  witness: Record<string, bigint | string>;
  intent: VerifyPermit2ApprovalParameters["intent"];
  quote: VerifyPermit2ApprovalParameters["quote"];
  additional: Record<string, unknown>;
  recipient: string;
}): void {
  const { witness, intent, quote, additional } = input;
  const { recipient } = input;
  const intentIdBytes32 = uuidToBytes32(intent.intentId);
  if (intentIdBytes32 === null || witness.intentId !== intentIdBytes32)
    throw createPermit2Error("PERMIT2_INTENT_ID_MISMATCH", "The witness intent id is not this intent's id.", {
      expected: intentIdBytes32 ?? intent.intentId,
      actual: witness.intentId,
    });
  const secretHash = typeof intent.secretHash === "string" ? intent.secretHash.toLowerCase() : null;
  if (witness.secretHash !== secretHash)
    throw createPermit2Error("PERMIT2_SECRET_HASH_MISMATCH", "The witness secret hash is not the intent's.", {
      expected: intent.secretHash,
      actual: witness.secretHash,
    });
  if (
    additional.secretHash !== undefined &&
    (typeof additional.secretHash !== "string" || additional.secretHash.toLowerCase() !== secretHash)
  )
    throw createPermit2Error(
      "PERMIT2_SECRET_HASH_MISMATCH",
      "additional_data.secretHash is not the intent's secret hash.",
      { expected: intent.secretHash, actual: additional.secretHash, field: "additional_data.secretHash" },
    );
  assertSameDestination({
    actual: { chain: witness.destChain, token: witness.destToken, of: "The witness" },
    expected: { chain: quote.destChain, token: quote.destToken, of: "the quote's" },
    // The quote's token is shown and signed as text: it must be safe to show before it is compared.
    checkExpectedToken: true,
  });
  if (!sameDestinationString(witness.recipient as string, recipient))
    throw createPermit2Error(
      "PERMIT2_RECIPIENT_MISMATCH",
      "The witness recipient is not the destination address the user entered.",
      { expected: recipient, actual: witness.recipient },
    );
  if (witness.minDestAmount !== quote.minDestAmountLots)
    throw createPermit2Error(
      "PERMIT2_MIN_AMOUNT_MISMATCH",
      "The witness minimum destination amount is not the quote's.",
      { expected: quote.minDestAmountLots, actual: witness.minDestAmount },
    );
  if (witness.maxDestAmount !== quote.maxDestAmountLots)
    throw createPermit2Error(
      "PERMIT2_MAX_AMOUNT_MISMATCH",
      "The witness maximum destination amount is not the quote's.",
      { expected: quote.maxDestAmountLots, actual: witness.maxDestAmount },
    );
  if (quote.maxDestAmountLots < quote.minDestAmountLots)
    throw createPermit2Error(
      "PERMIT2_MAX_AMOUNT_MISMATCH",
      "The maximum destination amount is below the minimum: no delivery can satisfy the permit.",
      { min: quote.minDestAmountLots, actual: quote.maxDestAmountLots },
    );
}

/**
 * The EIP-712 digest `keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(permit))`, with the permit's struct hash
 * composed the way Permit2 computes it on chain: the type hash of `stub + witnessTypeString` and the already
 * verified witness hash (so the witness is hashed once). Tests check it equals ethers' and viem's full encoders.
 */
function hashPermit2Digest(input: {
  typedData: Permit2TypedData;
  typeString: string;
  witnessHash: HexString;
}): HexString {
  const { domain, types, message } = input.typedData;
  const permitted = TypedData.hashStruct({
    primaryType: "TokenPermissions",
    types: types as unknown as TypedData.TypedData,
    data: message.permitted,
  });
  const permitHash = Hash.keccak256(
    AbiParameters.encode(
      [
        { type: "bytes32" },
        { type: "bytes32" },
        { type: "address" },
        { type: "uint256" },
        { type: "uint256" },
        { type: "bytes32" },
      ],
      [
        Hash.keccak256(OxHex.fromString(input.typeString)),
        permitted,
        message.spender as HexString,
        message.nonce,
        message.deadline,
        input.witnessHash,
      ],
    ),
  );
  const domainSeparator = TypedData.hashDomain({
    domain: { ...domain, verifyingContract: domain.verifyingContract as HexString },
  });
  return Hash.keccak256(OxHex.concat("0x1901", domainSeparator, permitHash));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseUint(value: unknown): bigint | null {
  if (typeof value === "bigint") return value >= 0n && value <= MAX_UINT256 ? value : null;
  if (typeof value === "number") return Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : null;
  if (typeof value === "string" && /^(0|[1-9][0-9]{0,77})$/.test(value)) {
    const parsed = BigInt(value);
    return parsed <= MAX_UINT256 ? parsed : null;
  }
  return null;
}

function sameFields(actual: unknown, expected: readonly { name: string; type: string }[]): boolean {
  return (
    Array.isArray(actual) &&
    actual.length === expected.length &&
    actual.every(
      (field, i) =>
        isObject(field) &&
        Object.keys(field).length === 2 &&
        field.name === expected[i]!.name &&
        field.type === expected[i]!.type,
    )
  );
}

/** Checks the shape of `types` and returns the witness type's name. */
function assertTypes(types: Record<string, unknown>): string {
  const invalid = (shortMessage: string, details: Permit2ErrorDetails["PERMIT2_TYPES_INVALID"]) =>
    createPermit2Error("PERMIT2_TYPES_INVALID", shortMessage, details);
  const primary = types[PERMIT2_PRIMARY_TYPE];
  if (!Array.isArray(primary) || primary.length !== 5)
    throw invalid(`${PERMIT2_PRIMARY_TYPE} must have exactly 5 fields.`, { fields: primary });
  const witnessField = primary[4];
  if (
    !sameFields(primary.slice(0, 4), PRIMARY_FIELDS_BEFORE_WITNESS) ||
    !isObject(witnessField) ||
    Object.keys(witnessField).length !== 2 ||
    witnessField.name !== "witness" ||
    typeof witnessField.type !== "string"
  )
    throw invalid(
      `${PERMIT2_PRIMARY_TYPE} must be (TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,<Witness> witness).`,
      { fields: primary },
    );
  const witnessTypeName: string = witnessField.type;
  if (
    !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(witnessTypeName) ||
    ATOMIC_TYPE_NAME.test(witnessTypeName) ||
    // `__proto__`, `constructor`, `toString`, ...: a lookup by such a key reaches Object.prototype, not `types`.
    witnessTypeName in Object.prototype ||
    [PERMIT2_PRIMARY_TYPE, "TokenPermissions", "EIP712Domain"].includes(witnessTypeName)
  )
    throw invalid("The witness type name is not a valid struct name.", { name: witnessTypeName });
  if (!sameFields(types.TokenPermissions, TOKEN_PERMISSIONS_FIELDS))
    throw invalid("TokenPermissions must be (address token,uint256 amount).", {
      fields: types.TokenPermissions,
    });
  if (types.EIP712Domain !== undefined && !sameFields(types.EIP712Domain, DOMAIN_FIELDS))
    throw invalid("EIP712Domain must be (string name,uint256 chainId,address verifyingContract).", {
      fields: types.EIP712Domain,
    });
  const known = new Set([PERMIT2_PRIMARY_TYPE, "TokenPermissions", "EIP712Domain", witnessTypeName]);
  const extra = Object.keys(types).filter((name) => !known.has(name));
  if (extra.length > 0) throw invalid("types holds types Permit2 does not use.", { extraTypes: extra });
  const witnessFields = types[witnessTypeName];
  const expectedNames = Object.keys(WITNESS_FIELDS);
  if (
    !Array.isArray(witnessFields) ||
    witnessFields.length !== expectedNames.length ||
    !witnessFields.every(
      (field) =>
        isObject(field) &&
        Object.keys(field).length === 2 &&
        typeof field.name === "string" &&
        Object.hasOwn(WITNESS_FIELDS, field.name) &&
        WITNESS_FIELDS[field.name] === field.type,
    ) ||
    new Set(witnessFields.map((field: { name: string }) => field.name)).size !== expectedNames.length
  )
    throw invalid(
      `The witness type must have exactly the fields ${expectedNames.map((n) => `${WITNESS_FIELDS[n]} ${n}`).join(", ")} (any order).`,
      { fields: witnessFields },
    );
  return witnessTypeName;
}

/** A deep copy of the struct types without `EIP712Domain`. */
function copyTypes(types: Record<string, unknown>): Record<string, TypedDataField[]> {
  const out: Record<string, TypedDataField[]> = {};
  for (const [name, fields] of Object.entries(types)) {
    if (name === "EIP712Domain") continue;
    out[name] = (fields as TypedDataField[]).map((f) => ({ name: f.name, type: f.type }));
  }
  return out;
}

function parseWitness(
  fields: readonly TypedDataField[],
  raw: Record<string, unknown>,
): Record<string, bigint | string> {
  const names = new Set(fields.map((f) => f.name));
  const extra = Object.keys(raw).filter((key) => !names.has(key));
  if (extra.length > 0)
    throw createPermit2Error(
      "PERMIT2_WITNESS_INVALID",
      "The witness holds values its type does not declare.",
      {
        extraKeys: extra,
      },
    );
  const out: Record<string, bigint | string> = {};
  for (const { name, type } of fields) {
    const value = raw[name];
    if (type === "uint256") {
      const parsed = parseUint(value);
      if (parsed === null)
        throw createPermit2Error("PERMIT2_WITNESS_INVALID", `witness.${name} is not a uint256.`, { value });
      out[name] = parsed;
    } else if (type === "bytes32") {
      if (typeof value !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(value))
        throw createPermit2Error("PERMIT2_WITNESS_INVALID", `witness.${name} is not 32 bytes of hex.`, {
          value,
        });
      out[name] = value.toLowerCase();
    } else {
      if (typeof value !== "string")
        throw createPermit2Error("PERMIT2_WITNESS_INVALID", `witness.${name} is not a string.`, { value });
      // Signed as text and shown by wallets' own typed-data screens and by the summary.
      assertDisplayText(value, `witness.${name}`);
      out[name] = value;
    }
  }
  return out;
}

function hashWitness(
  witnessTypeName: string,
  types: Record<string, TypedDataField[]>,
  witness: Record<string, bigint | string>,
): HexString {
  try {
    return TypedData.hashStruct({
      primaryType: witnessTypeName,
      types: types as unknown as TypedData.TypedData,
      data: witness,
    }).toLowerCase() as HexString;
  } catch (cause) {
    throw createPermit2Error(
      "PERMIT2_WITNESS_INVALID",
      "The witness cannot be EIP-712 encoded.",
      {
        field: "witness",
      },
      cause,
    );
  }
}

/** A message some deployments send along (`additional_data.message`): tolerated, but it must match what we build. */
function assertSentMessage(
  additional: Record<string, unknown>,
  kind: ChainKind,
  built: { token: HexString; amount: bigint; escrow: HexString; nonce: bigint; deadline: bigint },
): void {
  const sent = additional.message;
  if (sent === undefined) return;
  if (!isObject(sent) || !isObject(sent.permitted))
    throw createPermit2Error("PERMIT2_PARAMS_INVALID", "additional_data.message is not a permit message.", {
      field: "additional_data.message",
    });
  const tokenMatches = (() => {
    try {
      return toAddress20(kind, sent.permitted.token, "message.permitted.token") === built.token;
    } catch {
      return false;
    }
  })();
  if (!tokenMatches)
    throw createPermit2Error(
      "PERMIT2_TOKEN_MISMATCH",
      "The permitted token is not the quote's source token.",
      {
        actual: sent.permitted.token,
      },
    );
  if (parseUint(sent.permitted.amount) !== built.amount)
    throw createPermit2Error(
      "PERMIT2_AMOUNT_MISMATCH",
      "The permitted amount is not the quote's source amount.",
      {
        expected: built.amount,
        actual: sent.permitted.amount,
      },
    );
  if (anyAddressTo20(String(sent.spender)) !== built.escrow)
    throw createPermit2Error("PERMIT2_SPENDER_MISMATCH", "The message spender is not the escrow contract.", {
      actual: sent.spender,
    });
  if (parseUint(sent.nonce) !== built.nonce)
    throw createPermit2Error("PERMIT2_NONCE_MISMATCH", "The message nonce is not params_to_sign.nonce.", {
      expected: built.nonce,
      actual: sent.nonce,
    });
  if (parseUint(sent.deadline) !== built.deadline)
    throw createPermit2Error(
      "PERMIT2_DEADLINE_MISMATCH",
      "The message deadline is not the intent's deadline.",
      {
        expected: built.deadline,
        actual: sent.deadline,
      },
    );
}

/** The intent UUID's 16 bytes left-padded to 32, lowercase; null when the id is not a UUID. */
function uuidToBytes32(intentId: unknown): string | null {
  if (typeof intentId !== "string") return null;
  if (!/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(intentId))
    return null;
  return `0x${"0".repeat(32)}${intentId.replaceAll("-", "").toLowerCase()}`;
}

/**
 * Destination addresses and tokens are strings of another chain. Equal when identical; EVM hex compares
 * case-insensitively; a single-case bech32 string (Bitcoin) compares case-insensitively too.
 */
function sameDestinationString(actual: string, expected: unknown): boolean {
  if (typeof expected !== "string") return false;
  if (actual === expected) return true;
  if (/^0x[0-9a-fA-F]{40}$/.test(actual) && /^0x[0-9a-fA-F]{40}$/.test(expected))
    return actual.toLowerCase() === expected.toLowerCase();
  // one case of letters and digits, with a `1` that has a character on each side; not `^[a-z0-9]+1[a-z0-9]+$`,
  // which retries from every `1` of a long run of them (quadratic)
  const bech32 = (s: string) => (/^[a-z0-9]+$/.test(s) || /^[A-Z0-9]+$/.test(s)) && /.1./.test(s);
  return bech32(actual) && bech32(expected) && actual.toLowerCase() === expected.toLowerCase();
}

/**
 * The wallet's own `expected` (a caller bug when wrong, so `PERMIT2_EXPECTED_INVALID`, never a mismatch code):
 * every given fact has the type and range its check compares with. Returns the parsed destination (null when
 * the wallet gave none).
 */
function readExpectation(expected: unknown): { destination: Permit2DestinationExpectation | null } {
  // The wallet's own value is never echoed: a key pasted into the wrong field must not reach a log.
  const invalid = (field: string, shortMessage: string) =>
    createPermit2Error("PERMIT2_EXPECTED_INVALID", `expected${field}${shortMessage}`, {
      field: `expected${field}`,
    });
  if (!isObject(expected)) throw invalid("", " is required (an object).");
  const { chainId, recipient, spender, owner, chainType } = expected;
  const { sourceToken, sourceAmountLots, sourceDecimals } = expected;
  const chainIdValue = parseUint(chainId);
  if (chainIdValue === null || chainIdValue === 0n) throw invalid(".chainId", " is not a positive integer.");
  if (typeof recipient !== "string" || recipient.length === 0)
    throw invalid(".recipient", " is not a non-empty string.");
  const unchecked = isObject(spender) && spender.unchecked === true;
  if (!unchecked && (typeof spender !== "string" || anyAddressTo20(spender) === null))
    throw invalid(
      ".spender",
      " is required: pass the escrow contract the wallet trusts, or { unchecked: true } to skip the check.",
    );
  if (owner !== undefined && (typeof owner !== "string" || anyAddressTo20(owner) === null))
    throw invalid(".owner", " is not an address.");
  if (chainType !== undefined && chainType !== "evm" && chainType !== "tron")
    throw invalid(".chainType", ' is not "evm" or "tron".');
  if (sourceToken !== undefined && (typeof sourceToken !== "string" || anyAddressTo20(sourceToken) === null))
    throw invalid(".sourceToken", " is not an address.");
  if (sourceAmountLots !== undefined && !isUint256(sourceAmountLots, 1n))
    throw invalid(".sourceAmountLots", " is not a positive uint256 bigint.");
  if (sourceDecimals !== undefined && !isDecimals(sourceDecimals))
    throw invalid(".sourceDecimals", " is not an integer 0..255.");
  if (expected.digest !== undefined && !/^0x[0-9a-fA-F]{64}$/.test(expected.digest as string))
    throw invalid(".digest", " is not 32 bytes of 0x hex.");
  return { destination: readDestinationExpectation(expected.destination) };
}

/** Validates the wallet's `expected.destination` (its own facts); null when the wallet gave none. */
function readDestinationExpectation(value: unknown): Permit2DestinationExpectation | null {
  if (value === undefined) return null;
  const invalid = (field: string, shortMessage: string) =>
    createPermit2Error("PERMIT2_EXPECTED_INVALID", `expected.destination${field}${shortMessage}`, {
      field: `expected.destination${field}`,
    });
  if (!isObject(value)) throw invalid("", " is not an object.");
  const { network, token, decimals, minAmountLots } = value;
  if (!Number.isSafeInteger(network) || (network as number) < 0)
    throw invalid(".network", " is not a non-negative integer.");
  if (typeof token !== "string" || token.length === 0) throw invalid(".token", " is not a non-empty string.");
  if (!isDecimals(decimals)) throw invalid(".decimals", " is not an integer 0..255.");
  if (!isUint256(minAmountLots, 0n)) throw invalid(".minAmountLots", " is not a uint256 bigint.");
  return { network: network as number, token, decimals, minAmountLots };
}

function isDecimals(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 255;
}

function isUint256(value: unknown, least: bigint): value is bigint {
  return typeof value === "bigint" && value >= least && value <= MAX_UINT256;
}

/**
 * The quote's destination (already equal to the witness) against the wallet's own facts: network, token, decimals,
 * and a signed minimum no smaller than the least the user accepts. Catches a service that lowers the destination
 * decimals and the min/max lots together (the formatted amounts read the same, the signed minimum is smaller).
 */
function assertDestination(input: {
  destination: Permit2DestinationExpectation;
  quote: VerifyPermit2ApprovalParameters["quote"];
}): void {
  const { destination, quote } = input;
  assertSameDestination({
    actual: { chain: quote.destChain, token: quote.destToken, of: "The quote's" },
    expected: { chain: destination.network, token: destination.token, of: "the one the wallet expects" },
  });
  if (quote.destAmountDecimals !== destination.decimals)
    throw createPermit2Error(
      "PERMIT2_DEST_DECIMALS_MISMATCH",
      "The quote's destination decimals are not the token's decimals the wallet knows.",
      { expected: destination.decimals, actual: quote.destAmountDecimals },
    );
  if (quote.minDestAmountLots < destination.minAmountLots)
    throw createPermit2Error(
      "PERMIT2_MIN_AMOUNT_TOO_LOW",
      "The signed minimum destination amount is below the least the user accepts.",
      { expected: destination.minAmountLots, actual: quote.minDestAmountLots },
    );
}

/** One end's destination chain and token, and how a message names it. */
interface DestinationEnd {
  chain: unknown;
  token: unknown;
  of: string;
}

/**
 * A destination (chain, then token) equals the one it is checked against: the witness against the quote, the
 * quote against the wallet's own `expected.destination`. Chains compare as integers (the witness holds a uint256).
 */
function assertSameDestination(input: {
  actual: DestinationEnd;
  expected: DestinationEnd;
  checkExpectedToken?: boolean;
}): void {
  const { actual, expected } = input;
  const chainOf = (value: unknown) =>
    typeof value === "bigint" ? value : Number.isSafeInteger(value) ? BigInt(value as number) : null;
  // The side checked against is a network id (a JSON number); the checked side may be the witness's uint256.
  const chain = Number.isSafeInteger(expected.chain) ? BigInt(expected.chain as number) : null;
  if (chain === null || chainOf(actual.chain) !== chain)
    throw createPermit2Error(
      "PERMIT2_DEST_CHAIN_MISMATCH",
      `${actual.of} destination chain is not ${expected.of}.`,
      { expected: expected.chain, actual: actual.chain },
    );
  if (input.checkExpectedToken && typeof expected.token === "string")
    assertDisplayText(expected.token, "quote.destToken");
  if (typeof actual.token !== "string" || !sameDestinationString(actual.token, expected.token))
    throw createPermit2Error(
      "PERMIT2_DEST_TOKEN_MISMATCH",
      `${actual.of} destination token is not ${expected.of}.`,
      { expected: expected.token, actual: actual.token },
    );
}

const SERVICE_MARK = " (as the service reports it, not checked by the wallet)";

function buildSummary(input: {
  kind: ChainKind;
  chainId: number;
  typedData: Permit2TypedData;
  deadlineSecs: number;
  quote: VerifyPermit2ApprovalParameters["quote"];
  intentId: string;
  owner: string | null;
  witness: Record<string, bigint | string>;
  sources: Permit2FactSources;
}): Permit2ApprovalSummary {
  const { kind, chainId, typedData, deadlineSecs, quote, intentId, owner, sources } = input;
  const mark = (source: "wallet" | "service") => (source === "service" ? SERVICE_MARK : "");
  const amountLots = typedData.message.permitted.amount;
  // Equal to the wallet's decimals when it passed them (checked above); otherwise the service's word.
  const sourceDecimals = quote.sourceAmountDecimals;
  const destDecimals = quote.destAmountDecimals;
  const amountFormatted = Value.format(amountLots, sourceDecimals);
  const minDestAmountLots = input.witness.minDestAmount as bigint;
  const maxDestAmountLots = input.witness.maxDestAmount as bigint;
  const minFormatted = Value.format(minDestAmountLots, destDecimals);
  const maxFormatted = Value.format(maxDestAmountLots, destDecimals);
  const deadlineIso = new Date(deadlineSecs * 1000).toISOString();
  const token = typedData.message.permitted.token;
  const spender = typedData.message.spender;
  const recipient = input.witness.recipient as string;
  const destToken = input.witness.destToken as string;
  const destChain = Number(input.witness.destChain as bigint);
  const lines = [
    `Allow ${spender}${mark(sources.spender)} to transfer ${amountFormatted}${mark(sources.sourceDecimals)} of token ${token}${mark(sources.sourceToken)} (${amountLots} lots${mark(sources.sourceAmount)})`,
    sources.destination === "wallet"
      ? `Receive at least ${minFormatted} (at most ${maxFormatted}) of ${destToken} on network ${destChain} (${minDestAmountLots} to ${maxDestAmountLots} lots of ${destDecimals} decimals)`
      : `Receive at least ${minDestAmountLots} lots (at most ${maxDestAmountLots} lots) of ${destToken} on network ${destChain}, ${minFormatted} to ${maxFormatted} with ${destDecimals} decimals${SERVICE_MARK}`,
    `Recipient: ${recipient}`,
    `Valid until ${deadlineIso}`,
    `Permit2 ${typedData.domain.verifyingContract} on ${kind === "tron" ? "Tron" : "EVM"} chain ${chainId}`,
  ];
  if (owner !== null) lines.push(`Signed by ${owner}`);
  return {
    chainType: kind,
    chainId,
    permit2Address: typedData.domain.verifyingContract,
    token,
    amountLots,
    amountFormatted,
    sourceDecimals,
    spender,
    deadlineSecs,
    deadlineIso,
    minDestAmountLots,
    minDestAmountFormatted: minFormatted,
    maxDestAmountLots,
    maxDestAmountFormatted: maxFormatted,
    destDecimals,
    recipient,
    destChain,
    destToken,
    intentId,
    owner,
    sources,
    lines,
  };
}
