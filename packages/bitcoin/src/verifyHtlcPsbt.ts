import type { Intent, Quote } from "@swapintent/client";
import { crypto as btcCrypto, Psbt, Transaction } from "bitcoinjs-lib";
import { bytesToHex, compactSize, compareBytes, equalBytes, hexToBytes } from "./bytes.js";
import { DEFAULT_HTLC_POLICY, NUMS_INTERNAL_KEY_HEX, TAPSCRIPT_LEAF_VERSION } from "./constants.js";
import { escapeForDisplay } from "./displaySafe.js";
import { type BitcoinError, createBitcoinError } from "./errors.js";
import { getUserScripts } from "./getUserScripts.js";
import { parseHtlcLeaves } from "./parseHtlcLeaves.js";
import { readBytes, readEcc, readRecord } from "./readParameters.js";
import {
  DUST_LIMIT_LOTS,
  getSegwitKind,
  MAX_MONEY_LOTS,
  type SegwitKind,
  witnessWeightOf,
} from "./scriptTypes.js";
import type { BitcoinEcc, HtlcOutput, HtlcPolicy, HtlcPolicyParameters } from "./types.js";
import { useEcc } from "./useEcc.js";

/** What `verifyHtlcPsbt` returns: the verified deposit. */
export interface VerifyHtlcPsbtReturnType {
  /** A private copy of the parsed PSBT (the caller's data is never changed); `signHtlcPsbt` signs this copy. */
  psbt: Psbt;
  /** The unsigned transaction as the PSBT carries it; signing must leave it byte-identical. */
  unsignedTx: Uint8Array;
  /**
   * The deposit's txid. Every input spends a native segwit output, so signing cannot change it: the refund
   * (`signHtlcRefund`) spends `txid:0`.
   */
  txid: string;
  /** The inputs the user signs, and for each whether it spends the user's P2TR or P2WPKH output. */
  inputs: { index: number; kind: "p2tr" | "p2wpkh" }[];
  /** The HTLC output (always output 0). */
  htlc: HtlcOutput;
  /** Sum of the inputs' values minus sum of the outputs' values, in satoshis. */
  feeLots: bigint;
  /**
   * Virtual size of the signed transaction, estimated from the inputs' script types only (witness data the
   * service put in the PSBT is never counted).
   */
  estimatedVsize: bigint;
  /** The user's 33-byte compressed key. */
  userPublicKey: Uint8Array;
}

/** Parameters of `verifyHtlcPsbt`. */
export interface VerifyHtlcPsbtParameters {
  /** The secp256k1 backend: `tiny-secp256k1` or `@bitcoinerlab/secp256k1`. */
  ecc: BitcoinEcc;
  /** The `htlc` intent as the service returned it (checked, not trusted). */
  intent: Intent;
  /** The quote the user accepted: the HTLC must lock exactly `sourceAmountLots`. */
  quote: Pick<Quote, "sourceAmountLots">;
  /** The user's 33-byte compressed key, hex (the intent's `user_source_public_key`). */
  userPublicKey: string | Uint8Array;
  /** Limits; each field left out (or `undefined`) takes its `DEFAULT_HTLC_POLICY` value. */
  policy?: HtlcPolicyParameters | undefined;
  /**
   * The caller's clock, unix milliseconds (default `Date.now()`): the intent's deadline must lie after it, and a
   * time locktime at least two hours before it. Pass the clock your wallet trusts (a test's or sandbox's clock).
   */
  nowMs?: number | undefined;
}

/** What `verifyHtlcPsbt` may throw: a `SwapIntentError` whose code names the first check that failed (README table). */
export type VerifyHtlcPsbtErrorType = BitcoinError;

type UserScripts = ReturnType<typeof getUserScripts>;
type ListedInput = VerifyHtlcPsbtReturnType["inputs"][number];

const SIGHASH_DEFAULT = 0x00;
const SIGHASH_ALL = 0x01;
const MAX_BIP68_BLOCKS = 0xffff;
const SEQUENCE_FINAL = 0xffffffff;
const SEQUENCE_DISABLE_FLAG = 0x80000000;
const LOCKTIME_THRESHOLD = 500_000_000;
const SEGWIT_MARKER_AND_FLAG_WU = 2n;
/** An input without its witness: outpoint (36 bytes), empty scriptSig (1) and sequence (4), times 4. */
const INPUT_WITHOUT_WITNESS_WU = 164n;
/**
 * Consensus checks a time locktime against the median time of the last 11 blocks (BIP-113), which lags the clock
 * by about an hour and can lag more: a time locktime is accepted only when it is this far in the past.
 */
const MEDIAN_TIME_PAST_MARGIN_SECS = 7_200;
/** Transaction versions Bitcoin Core relays without extra rules (version 3 is TRUC, with its own limits). */
const STANDARD_TX_VERSIONS: ReadonlySet<number> = new Set([1, 2]);
/** Bitcoin Core's MAX_STANDARD_TX_WEIGHT: a heavier transaction is not relayed. */
const MAX_STANDARD_TX_WEIGHT = 400_000n;
/** Fields of an unlisted input that are not searched for the user's key (see `assertUnlistedInputs`). */
const UNSEARCHED_UNLISTED_FIELDS: ReadonlySet<string> = new Set([
  "nonWitnessUtxo",
  "finalScriptWitness",
  "finalScriptSig",
]);

/** PSBT fields a listed input may carry, per kind; anything else is refused before any key is used. */
const LISTED_INPUT_FIELDS: Record<ListedInput["kind"], ReadonlySet<string>> = {
  p2tr: new Set(["witnessUtxo", "nonWitnessUtxo", "sighashType", "tapInternalKey", "tapBip32Derivation"]),
  p2wpkh: new Set(["witnessUtxo", "nonWitnessUtxo", "sighashType", "bip32Derivation"]),
};

/**
 * Check a Bitcoin deposit PSBT (`params_to_sign` of an `htlc` intent) against the intent and quote the user
 * accepted, before anything is signed. Throws a `SwapIntentError` whose `code` names the first check that failed
 * (README, "What is verified"): the intent's deadline is still ahead; the listed inputs are the user's (P2TR BIP-86 key path or P2WPKH of
 * `userPublicKey`) with only the PSBT fields a key spend needs and SIGHASH_DEFAULT/ALL; every input spends a
 * native segwit output (so the txid is final before signing); no unlisted input asks for the user's key;
 * output 0 is the Taproot HTLC (NUMS internal key, claim leaf locked to the intent's `secretHash`, refund leaf to
 * the user's key after a CSV delay within the policy) paying exactly `quote.sourceAmountLots`; every other
 * output pays the user and is above the dust limit; the fee is between the minimum relay rate and the policy's
 * absolute and per-vbyte caps, with the size estimated from script types.
 *
 * @example
 * ```ts
 * import * as ecc from "tiny-secp256k1";
 * import { verifyHtlcPsbt } from "@swapintent/bitcoin";
 *
 * const verified = verifyHtlcPsbt({ ecc, intent, quote, userPublicKey: "02…" });
 * console.log(verified.htlc.valueLots, verified.feeLots, verified.txid);
 * ```
 */
export function verifyHtlcPsbt(parameters: VerifyHtlcPsbtParameters): VerifyHtlcPsbtReturnType {
  const args = readVerifyParameters(parameters);
  const { ecc } = args;
  const policy = resolvePolicy(args.policy);
  const nowMs = readNow(args.nowMs);
  const { psbtBase64, listed, secretHashHex } = readIntent({ intent: args.intent, nowMs, policy });
  const amountLots = readQuoteAmount(args.quote);
  useEcc(ecc);
  const user = getUserScripts({ ecc, publicKey: args.userPublicKey as Uint8Array });
  const psbt = parsePsbt(psbtBase64);
  const unsignedTx = psbt.data.globalMap.unsignedTx.toBuffer();
  // Read inputs and outputs from the unsigned transaction (bitcoinjs' txInputs/txOutputs getters also derive
  // addresses, which costs about a millisecond).
  const tx = Transaction.fromBuffer(unsignedTx);
  assertWeightFloor(tx);
  assertListedIndexes(listed, tx.ins.length);

  // The deposit must be valid now: a locktime or relative lock would let the service hold a signed deposit that
  // only becomes valid later, after the quote and the intent's deadline.
  assertNotTimelocked({ tx, policy, nowMs });
  assertStandardVersion(tx);
  assertPsbtFields({ psbt, user });
  const { inputTotal, kinds } = readInputs({ psbt, tx });
  const inputs = listed.map((index) => checkListedInput({ psbt, index, user }));
  assertUnlistedInputs({ psbt, listed, user });
  assertAmountsCommitted({ psbt, inputs });

  const htlc = readHtlcOutput({ ecc, psbt, output: tx.outs[0], user, policy, secretHashHex });
  if (htlc.valueLots !== amountLots) {
    throw createBitcoinError(
      "BTC_HTLC_AMOUNT_MISMATCH",
      "The HTLC does not lock exactly the quoted amount.",
      {
        expected: amountLots,
        actual: htlc.valueLots,
      },
    );
  }
  const outputTotal = checkOutputs({ tx, user, policy, inputs });
  const { feeLots, estimatedVsize } = checkFee({
    psbt,
    tx,
    kinds,
    listed,
    inputTotal,
    outputTotal,
    policy,
    amountLots,
  });
  return {
    psbt,
    unsignedTx,
    txid: tx.getId(),
    inputs,
    htlc,
    feeLots,
    estimatedVsize,
    userPublicKey: user.publicKey,
  };
}

/** What `readVerifyParameters` copies: every parameter of `verifyHtlcPsbt`, read once. */
interface ReadParameters {
  ecc: BitcoinEcc;
  intent: {
    approvalMechanism: unknown;
    deadlineSecs: unknown;
    secretHash: unknown;
    paramsToSign: ReadParams;
  };
  quote: { sourceAmountLots: unknown };
  userPublicKey: unknown;
  policy: unknown;
  nowMs: unknown;
}
type ReadParams = { psbt: unknown; inputs: unknown };

/**
 * Every parameter this check reads, read once into a plain copy (`readParameters.ts`): a getter that throws or a
 * revoked proxy anywhere is `BTC_PARAMETER_INVALID`, and nothing later reads the caller's objects again.
 */
function readVerifyParameters(parameters: VerifyHtlcPsbtParameters): ReadParameters {
  const top = readRecord("", parameters) ?? {};
  const intent = readRecord("intent", top.intent) ?? {};
  const params = readRecord("intent.paramsToSign", intent.paramsToSign) ?? {};
  return {
    ecc: readEcc(top.ecc),
    intent: {
      ...intent,
      paramsToSign: { psbt: params.psbt, inputs: readBytes("intent.paramsToSign.inputs", params.inputs) },
    } as ReadParameters["intent"],
    quote: (readRecord("quote", top.quote) ?? {}) as ReadParameters["quote"],
    userPublicKey: readBytes("userPublicKey", top.userPublicKey),
    policy: readRecord("policy", top.policy),
    nowMs: top.nowMs,
  };
}

/** The fields of the intent this check reads, each of the type it must have (the service could send anything). */
function readIntent(args: { intent: ReadParameters["intent"]; nowMs: number; policy: HtlcPolicy }): {
  psbtBase64: string;
  listed: unknown;
  secretHashHex: string;
} {
  const { intent, nowMs } = args;
  const mechanism = intent.approvalMechanism;
  if (mechanism !== "htlc") {
    throw createBitcoinError("BTC_MECHANISM_MISMATCH", "The intent is not a Bitcoin htlc intent.", {
      approvalMechanism: escapeForDisplay(mechanism),
    });
  }
  const params = intent.paramsToSign;
  const psbtBase64 = params.psbt;
  if (typeof psbtBase64 !== "string") {
    throw createBitcoinError("BTC_PSBT_INVALID", "params_to_sign.psbt is not a string.", {
      source: "params_to_sign.psbt",
    });
  }
  assertDeadlineAhead({
    deadlineSecs: intent.deadlineSecs,
    nowMs,
    maxDeadlineSecs: args.policy.maxDeadlineSecs,
  });
  const secretHashHex = intent.secretHash;
  if (typeof secretHashHex !== "string") {
    throw createBitcoinError("BTC_HTLC_SECRET_HASH_MISMATCH", "The intent's secret_hash is not a string.", {
      expected: escapeForDisplay(secretHashHex),
      actual: null,
    });
  }
  return { psbtBase64, listed: params.inputs, secretHashHex };
}

/**
 * The intent is still open: its `deadlineSecs` (unix seconds) is after the caller's clock. Bitcoin knows no
 * deadline, so a deposit signed for an expired intent stays valid on chain: whoever holds it can still have it
 * mined, locking the user's coins in an HTLC that no resolver will fill until the refund delay has passed. And the
 * deadline is at most `maxDeadlineSecs` ahead: until it passes the service may hold the signed deposit and broadcast
 * it when the price suits it (the refund delay only starts once it confirms), so a deadline years ahead is refused.
 */
function assertDeadlineAhead(args: { deadlineSecs: unknown; nowMs: number; maxDeadlineSecs: number }): void {
  const { deadlineSecs, nowMs, maxDeadlineSecs } = args;
  const valid = Number.isSafeInteger(deadlineSecs) && (deadlineSecs as number) >= 0;
  if (!valid || (deadlineSecs as number) * 1000 <= nowMs) {
    throw createBitcoinError(
      "BTC_DEADLINE_PASSED",
      "The intent's deadline has passed (or is not a number of seconds): its deposit would still be valid on chain.",
      { deadlineSecs: valid ? (deadlineSecs as number) : null, nowMs },
    );
  }
  if ((deadlineSecs as number) * 1000 - nowMs > maxDeadlineSecs * 1000) {
    throw createBitcoinError("BTC_DEADLINE_TOO_FAR", "The intent's deadline is too far ahead.", {
      deadlineSecs: deadlineSecs as number,
      nowMs,
      maxDeadlineSecs,
    });
  }
}

/** The caller's clock: `Date.now()` unless given, and then a non-negative integer (`BTC_POLICY_INVALID`). */
function readNow(nowMs: unknown): number {
  if (nowMs === undefined) return Date.now();
  if (!Number.isSafeInteger(nowMs) || (nowMs as number) < 0) {
    throw createBitcoinError("BTC_POLICY_INVALID", "nowMs is not a non-negative integer of milliseconds.", {
      policy: ["nowMs"],
    });
  }
  return nowMs as number;
}

function readQuoteAmount(quote: { sourceAmountLots: unknown }): bigint {
  const amount = quote.sourceAmountLots;
  if (typeof amount !== "bigint" || amount <= 0n || amount > MAX_MONEY_LOTS) {
    throw createBitcoinError(
      "BTC_QUOTE_INVALID",
      "quote.sourceAmountLots is not a positive bigint of at most 21,000,000 BTC.",
      // A value that is no bigint is named by its type only: it may be a seed or key passed by mistake.
      { sourceAmountLots: typeof amount === "bigint" ? `${amount}` : `(${typeof amount})` },
    );
  }
  return amount;
}

function parsePsbt(base64: string): Psbt {
  try {
    return Psbt.fromBase64(base64);
  } catch (cause) {
    throw createBitcoinError(
      "BTC_PSBT_INVALID",
      "params_to_sign.psbt is not a valid base64 PSBT.",
      { source: "params_to_sign.psbt" },
      cause,
    );
  }
}

function assertListedIndexes(listed: unknown, inputCount: number): asserts listed is number[] {
  if (
    !Array.isArray(listed) ||
    listed.length === 0 ||
    new Set(listed).size !== listed.length ||
    listed.some((i) => !Number.isSafeInteger(i) || i < 0 || i >= inputCount)
  ) {
    throw createBitcoinError(
      "BTC_INPUT_INDEX_INVALID",
      "params_to_sign.inputs is not a list of input indexes.",
      {
        inputs: escapeForDisplay(listed),
        inputCount,
      },
    );
  }
}

/** Every field of `HtlcPolicy`: the compiler keeps this list equal to the interface. */
const POLICY_FIELDS: Readonly<Record<keyof HtlcPolicy, true>> = {
  minCsvBlocks: true,
  maxCsvBlocks: true,
  maxFeeLots: true,
  maxFeeRateSatPerVbyte: true,
  maxFeeBps: true,
  minFeeRateSatPerVbyte: true,
  maxDeadlineSecs: true,
  maxLockTimeHeight: true,
  resolverPublicKey: true,
  changeScriptType: true,
};

/**
 * Defaults for the fields the caller left out (an explicit `undefined` too: spreading it would switch a cap off),
 * and a typed error for values that would make a check meaningless or throw, and for a field the policy does not
 * have: a misspelled cap (`maxFeeRateSatPerVByte`) would otherwise leave the default in force unseen.
 */
function resolvePolicy(given: unknown): HtlcPolicy {
  // No prototype: a field left out is the default or absent, never read from a polluted Object.prototype.
  const policy = { __proto__: null, ...DEFAULT_HTLC_POLICY } as HtlcPolicy;
  const entries = Object.entries(given ?? {});
  const unknown = entries.map(([key]) => key).filter((key) => !Object.hasOwn(POLICY_FIELDS, key));
  if (unknown.length > 0) {
    throw createBitcoinError("BTC_POLICY_INVALID", "The policy has fields it does not know.", {
      policy: unknown.map((key) => escapeForDisplay(key)),
    });
  }
  for (const [key, value] of entries) {
    if (value !== undefined) (policy as unknown as Record<string, unknown>)[key] = value;
  }
  const isCount = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;
  const isLots = (n: unknown) => typeof n === "bigint" && n >= 0n;
  // A CSV bound above 0xffff is no block count (BIP-68 flag bits), nor a height cap of 500,000,000 or more a height
  // (nLockTime reads it as a unix time), nor a deadline window that long a window (it is an absolute unix time): a
  // value on the wrong side of such a line is not what the caller meant.
  const isBlocks = (n: unknown) => isCount(n) && (n as number) <= MAX_BIP68_BLOCKS;
  const valid =
    isBlocks(policy.minCsvBlocks) &&
    isBlocks(policy.maxCsvBlocks) &&
    isCount(policy.maxDeadlineSecs) &&
    policy.maxDeadlineSecs < LOCKTIME_THRESHOLD &&
    isCount(policy.maxFeeBps) &&
    isLots(policy.maxFeeLots) &&
    isLots(policy.maxFeeRateSatPerVbyte) &&
    isLots(policy.minFeeRateSatPerVbyte) &&
    (policy.maxLockTimeHeight === undefined ||
      (isCount(policy.maxLockTimeHeight) && policy.maxLockTimeHeight < LOCKTIME_THRESHOLD)) &&
    // 32 or 33 bytes of hex: a pinned key of another shape is refused here, never echoed by the claim check.
    (policy.resolverPublicKey === undefined ||
      (typeof policy.resolverPublicKey === "string" &&
        /^(0x)?([\da-f]{2}){32,33}$/i.test(policy.resolverPublicKey))) &&
    (policy.changeScriptType === undefined ||
      policy.changeScriptType === "p2tr" ||
      policy.changeScriptType === "p2wpkh");
  if (!valid) {
    throw createBitcoinError(
      "BTC_POLICY_INVALID",
      "The policy has a field of the wrong type or range (README, BTC_POLICY_INVALID).",
      { policy: Object.keys(given ?? {}) },
    );
  }
  return policy;
}

function assertNotTimelocked(args: { tx: Transaction; policy: HtlcPolicy; nowMs: number }): void {
  const { tx, policy, nowMs } = args;
  const enforced = tx.ins.some((input) => input.sequence !== SEQUENCE_FINAL);
  if (enforced && tx.locktime !== 0) {
    const allowed =
      tx.locktime >= LOCKTIME_THRESHOLD
        ? tx.locktime <= Math.floor(nowMs / 1000) - MEDIAN_TIME_PAST_MARGIN_SECS
        : policy.maxLockTimeHeight !== undefined && tx.locktime <= policy.maxLockTimeHeight;
    if (!allowed) {
      throw createBitcoinError(
        "BTC_TX_TIMELOCKED",
        "The deposit's nLockTime delays it (a height above policy.maxLockTimeHeight, or a time less than two hours ago).",
        { locktime: tx.locktime, maxLockTimeHeight: policy.maxLockTimeHeight },
      );
    }
  }
  if (tx.version >= 2) {
    // BIP-68: with the disable bit clear, the low 16 bits (blocks, or 512-second units) delay the input.
    const index = tx.ins.findIndex(
      (input) => (input.sequence & SEQUENCE_DISABLE_FLAG) === 0 && (input.sequence & 0xffff) !== 0,
    );
    if (index !== -1) {
      throw createBitcoinError("BTC_TX_TIMELOCKED", "An input's nSequence sets a BIP-68 relative lock.", {
        input: index,
        sequence: tx.ins[index]!.sequence,
      });
    }
  }
}

/**
 * Only transaction versions that nodes relay. Any other version is valid by consensus but not relayed: the user
 * would see a deposit that never propagates, while the service could still have it mined directly at a time it
 * chooses, until the user spends the inputs elsewhere.
 */
function assertStandardVersion(tx: Transaction): void {
  const version = tx.version >>> 0;
  if (!STANDARD_TX_VERSIONS.has(version)) {
    throw createBitcoinError(
      "BTC_TX_NOT_STANDARD",
      "The deposit's transaction version is not 1 or 2: nodes would not relay it.",
      { version },
    );
  }
}

/**
 * The unsigned transaction alone (no witness) already outweighs what nodes relay: refused before any per-input
 * work, so a PSBT of tens of thousands of inputs costs one parse, not a pass over every input (the full estimate
 * with each input's witness follows in `checkFee`).
 */
function assertWeightFloor(tx: Transaction): void {
  const floor = BigInt(tx.byteLength(false)) * 4n + SEGWIT_MARKER_AND_FLAG_WU;
  if (floor > MAX_STANDARD_TX_WEIGHT) {
    throw createBitcoinError(
      "BTC_TX_NOT_STANDARD",
      "The deposit is heavier than 400,000 weight units: nodes would not relay it.",
      { estimatedWeight: floor },
    );
  }
}

/** Field names of a PSBT map that carry a value (an empty list counts as absent). */
function presentFields(map: object): string[] {
  return Object.entries(map)
    .filter(([, value]) => value !== undefined && !(Array.isArray(value) && value.length === 0))
    .map(([key]) => key);
}

/**
 * True when `map[key]` is BIP-32 derivation data naming only the user's key (key path only for Taproot); false for
 * any other field.
 */
function derivationNamesOnlyUser(args: {
  map: Pick<Psbt["data"]["inputs"][number], "bip32Derivation" | "tapBip32Derivation">;
  key: string;
  user: UserScripts;
}): boolean {
  const { map, key, user } = args;
  if (key === "bip32Derivation")
    return map.bip32Derivation!.every((d) => equalBytes(d.pubkey, user.publicKey));
  if (key === "tapBip32Derivation")
    return map.tapBip32Derivation!.every(
      (d) => equalBytes(d.pubkey, user.xOnly) && d.leafHashes.length === 0,
    );
  return false;
}

/**
 * Global and output fields: only the unsigned transaction globally; output 0 only its BIP-371 HTLC fields; other
 * outputs only derivation data naming the user's own key (wallets use it to recognize change).
 */
function assertPsbtFields(args: { psbt: Psbt; user: UserScripts }): void {
  const { psbt, user } = args;
  const refuse = (where: string, fields: string[]) => {
    throw createBitcoinError(
      "BTC_PSBT_FIELD_NOT_ALLOWED",
      "The PSBT carries fields a deposit does not have.",
      {
        where,
        fields,
      },
    );
  };
  const globalExtra = presentFields(psbt.data.globalMap).filter((key) => key !== "unsignedTx");
  if (globalExtra.length > 0) refuse("global", globalExtra);
  psbt.data.outputs.forEach((output, index) => {
    const extra = presentFields(output).filter((key) => {
      if (index === 0) return key !== "tapInternalKey" && key !== "tapTree";
      if (key === "tapInternalKey") return !equalBytes(output.tapInternalKey, user.xOnly);
      return !derivationNamesOnlyUser({ map: output, key, user });
    });
    if (extra.length > 0) refuse(`output ${index}`, extra);
  });
}

/**
 * Every input: UTXO data present and consistent, and a native segwit prevout with no scriptSig. A legacy or
 * wrapped input's scriptSig is part of the txid, so the service could change the deposit's txid after the user
 * signed, and a refund built for `txid:0` would spend an outpoint that never exists.
 */
function readInputs(args: { psbt: Psbt; tx: Transaction }): { inputTotal: bigint; kinds: SegwitKind[] } {
  const { psbt, tx } = args;
  let inputTotal = 0n;
  const kinds: SegwitKind[] = [];
  tx.ins.forEach((txInput, index) => {
    const input = psbt.data.inputs[index]!;
    if (!input.witnessUtxo) {
      throw createBitcoinError("BTC_UTXO_MISSING", "An input has no witnessUtxo; its value is unknown.", {
        input: index,
      });
    }
    const kind = getSegwitKind(input.witnessUtxo.script);
    if (!kind || input.finalScriptSig?.length) {
      throw createBitcoinError(
        "BTC_INPUT_NOT_SEGWIT",
        "An input does not spend a native segwit output (P2WPKH, P2WSH or P2TR) with an empty scriptSig: its signature could change the deposit's txid.",
        { input: index, script: bytesToHex(input.witnessUtxo.script) },
      );
    }
    assertMoneyRange(`input ${index}`, input.witnessUtxo.value);
    if (input.nonWitnessUtxo) assertPreviousTransaction({ index, txInput, input });
    kinds.push(kind);
    inputTotal += input.witnessUtxo.value;
  });
  assertMoneyRange("inputs", inputTotal);
  return { inputTotal, kinds };
}

/**
 * Consensus's MoneyRange: no input or output amount, and neither sum, below zero or above 21,000,000 BTC. A deposit
 * outside it is never valid (CheckTransaction refuses the outputs, CheckTxInputs the inputs), yet its stated amounts
 * could balance and pass every fee check: the service's coin stated above it, its value handed back as change. Below
 * zero: bitcoinjs reads amounts as signed (eight 0xff bytes are -1 sat), consensus and other parsers as unsigned.
 */
function assertMoneyRange(where: string, valueLots: bigint): void {
  if (valueLots < 0n || valueLots > MAX_MONEY_LOTS) {
    throw createBitcoinError(
      "BTC_AMOUNT_OUT_OF_RANGE",
      "An amount is below zero or above 21,000,000 BTC: the chain refuses the deposit.",
      { where, valueLots, maxLots: MAX_MONEY_LOTS },
    );
  }
}

function assertPreviousTransaction(args: {
  index: number;
  txInput: Transaction["ins"][number];
  input: Psbt["data"]["inputs"][number];
}): void {
  const { index, txInput, input } = args;
  let prev: Transaction;
  try {
    prev = Transaction.fromBuffer(input.nonWitnessUtxo!);
  } catch (cause) {
    throw createBitcoinError(
      "BTC_UTXO_MISMATCH",
      "An input's nonWitnessUtxo does not parse.",
      { input: index },
      cause,
    );
  }
  const prevOut = prev.outs[txInput.index];
  if (
    !equalBytes(prev.getHash(), txInput.hash) ||
    !prevOut ||
    prevOut.value !== input.witnessUtxo!.value ||
    !equalBytes(prevOut.script, input.witnessUtxo!.script)
  ) {
    throw createBitcoinError(
      "BTC_UTXO_MISMATCH",
      "An input's witnessUtxo disagrees with its nonWitnessUtxo (previous transaction).",
      { input: index },
    );
  }
}

/**
 * A listed input: the user's own output, with only the PSBT fields a plain key spend needs (an allow-list, so a
 * field this code never heard of is refused too), signed with SIGHASH_DEFAULT/ALL.
 */
function checkListedInput(args: { psbt: Psbt; index: number; user: UserScripts }): ListedInput {
  const { psbt, index, user } = args;
  const input = psbt.data.inputs[index]!;
  const script = input.witnessUtxo!.script;
  const kind = equalBytes(script, user.p2tr) ? "p2tr" : equalBytes(script, user.p2wpkh) ? "p2wpkh" : null;
  if (!kind) {
    throw createBitcoinError("BTC_INPUT_NOT_USERS", "A listed input does not spend the user's address.", {
      input: index,
      script: bytesToHex(script),
      reason: "script",
    });
  }
  if (kind === "p2tr" && !equalBytes(input.tapInternalKey, user.xOnly)) {
    throw createBitcoinError(
      "BTC_INPUT_NOT_USERS",
      "A listed P2TR input is not a BIP-86 key-path spend of the user's key (tapInternalKey missing or foreign).",
      { input: index, script: bytesToHex(script), reason: "tapInternalKey" },
    );
  }
  const unexpected = presentFields(input).filter((key) => {
    if (!LISTED_INPUT_FIELDS[kind].has(key)) return true;
    if (key === "bip32Derivation" || key === "tapBip32Derivation")
      return !derivationNamesOnlyUser({ map: input, key, user });
    return false;
  });
  if (unexpected.length > 0) {
    throw createBitcoinError(
      "BTC_INPUT_FIELD_NOT_ALLOWED",
      "A listed input carries PSBT fields that a plain key spend of the user's key does not have.",
      { input: index, fields: unexpected },
    );
  }
  const sighash = input.sighashType;
  const allowed = kind === "p2tr" ? [SIGHASH_DEFAULT, SIGHASH_ALL] : [SIGHASH_ALL];
  if (sighash !== undefined && !allowed.includes(sighash)) {
    throw createBitcoinError(
      "BTC_SIGHASH_NOT_ALLOWED",
      "A listed input asks for a sighash type other than DEFAULT/ALL.",
      {
        input: index,
        sighashType: sighash,
        expected: allowed,
      },
    );
  }
  return { index, kind };
}

/**
 * Unlisted inputs must not ask for the user's key, in any field: a wallet's `signPsbt` signs every input it
 * recognizes in some wallets, so a service coin whose script, leaf script, derivation or signature names the
 * user's key (a user+service multisig, a tapscript leaf with the user's key) with SIGHASH_NONE|ANYONECANPAY would
 * otherwise get a user signature valid in any transaction. Every field but the previous transaction and final
 * scripts (which need no signature) is searched for the user's x-only key (inside the compressed key too) and key
 * hash; unknown and proprietary fields are refused, since their meaning to a wallet is unknown.
 */
function assertUnlistedInputs(args: { psbt: Psbt; listed: number[]; user: UserScripts }): void {
  const { psbt, listed, user } = args;
  const keyHash = btcCrypto.hash160(user.publicKey);
  psbt.data.inputs.forEach((input, index) => {
    if (listed.includes(index)) return;
    const script = input.witnessUtxo!.script;
    const unknown = presentFields(input).filter((key) => key === "unknownKeyVals");
    if (unknown.length > 0) {
      throw createBitcoinError(
        "BTC_PSBT_FIELD_NOT_ALLOWED",
        "The PSBT carries fields a deposit does not have.",
        { where: `input ${index}`, fields: unknown },
      );
    }
    const searched = Object.entries(input)
      .filter(([key]) => !UNSEARCHED_UNLISTED_FIELDS.has(key))
      .flatMap(([, value]) => collectBytes(value));
    const mentionsUser =
      equalBytes(script, user.p2tr) ||
      equalBytes(script, user.p2wpkh) ||
      searched.some((bytes) => containsBytes(bytes, user.xOnly) || containsBytes(bytes, keyHash));
    if (mentionsUser) {
      throw createBitcoinError(
        "BTC_INPUT_NOT_LISTED_SIGNED",
        "An input that is not listed would be signed by (or asks for) the user's key.",
        { input: index },
      );
    }
  });
}

/** Every byte string inside a PSBT field value (arrays and objects walked). */
function collectBytes(value: unknown): Uint8Array[] {
  if (value instanceof Uint8Array) return [value];
  if (Array.isArray(value)) return value.flatMap(collectBytes);
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(collectBytes);
  return [];
}

function containsBytes(haystack: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * Amounts the signatures do not commit to. A segwit v0 signature (BIP-143) commits only to its own input's
 * amount, so a service can lie about the other inputs' amounts or scripts, ask for the same transaction twice
 * with different lies, and combine the two valid halves into a transaction whose real fee it never showed.
 * A Taproot SIGHASH_DEFAULT/ALL signature commits to every input's amount and script (BIP-341), so one listed
 * P2TR input makes the data honest; a lone input cannot be combined with anything. Otherwise every input must
 * carry its previous transaction (checked against the txid and witnessUtxo in `readInputs`).
 */
function assertAmountsCommitted(args: { psbt: Psbt; inputs: ListedInput[] }): void {
  const { psbt, inputs } = args;
  if (psbt.data.inputs.length > 1 && !inputs.some((i) => i.kind === "p2tr")) {
    const missing = psbt.data.inputs.findIndex((input) => !input.nonWitnessUtxo);
    if (missing !== -1) {
      throw createBitcoinError(
        "BTC_NON_WITNESS_UTXO_REQUIRED",
        "With no Taproot input to commit to every amount, each input needs its previous transaction (nonWitnessUtxo).",
        { input: missing },
      );
    }
  }
}

/**
 * Every output but the HTLC pays the user; no output is dust; at most one change output. The change is of
 * `policy.changeScriptType` when set, else of the type of the listed inputs when they are all of one type (a wallet
 * watches the type its coins are of: BIP-84 and BIP-86 derive different keys, and single-key wallets show one
 * address type at a time). Returns the sum of all outputs.
 */
function checkOutputs(args: {
  tx: Transaction;
  user: UserScripts;
  policy: HtlcPolicy;
  inputs: ListedInput[];
}): bigint {
  const { tx, user, inputs } = args;
  const { kind: first } = inputs[0]!;
  const changeKind =
    args.policy.changeScriptType ?? (inputs.every((i) => i.kind === first) ? first : undefined);
  let outputTotal = 0n;
  tx.outs.forEach((output, index) => {
    assertMoneyRange(`output ${index}`, output.value);
    outputTotal += output.value;
    const kind =
      index === 0 || equalBytes(output.script, user.p2tr)
        ? "p2tr"
        : equalBytes(output.script, user.p2wpkh)
          ? "p2wpkh"
          : null;
    if (!kind) {
      throw createBitcoinError(
        "BTC_OUTPUT_NOT_USERS",
        "An output other than the HTLC does not pay the user.",
        {
          output: index,
          script: bytesToHex(output.script),
          valueLots: output.value,
        },
      );
    }
    // The same key's other script type is not an address an HD wallet watches (BIP-86 and BIP-84 derive different
    // keys), so change sent there would be invisible to it: a wallet pins its own source address's type.
    if (index > 0 && changeKind !== undefined && kind !== changeKind) {
      throw createBitcoinError(
        "BTC_CHANGE_SCRIPT_MISMATCH",
        "The change goes to a script type of the user's key other than the expected one.",
        { output: index, kind, changeScriptType: changeKind },
      );
    }
    if (output.value < DUST_LIMIT_LOTS[kind]) {
      throw createBitcoinError(
        "BTC_OUTPUT_DUST",
        "An output is below its type's dust limit: nodes would not relay the deposit.",
        {
          output: index,
          valueLots: output.value,
          dustLimitLots: DUST_LIMIT_LOTS[kind],
        },
      );
    }
  });
  // One change output at most: more would split the user's change into outputs that each cost a fee to create and
  // another to spend (at 330 sat each, worth nothing above about 6 sat/vB), all within the fee caps.
  if (tx.outs.length > 2) {
    throw createBitcoinError(
      "BTC_CHANGE_SPLIT",
      "The deposit has more than one change output: the user's change would be split.",
      { changeOutputs: tx.outs.length - 1 },
    );
  }
  assertMoneyRange("outputs", outputTotal);
  return outputTotal;
}

/**
 * The fee: not negative, at least the minimum relay rate, at most the policy's caps. The size comes from the
 * unsigned transaction and each input's script type (`witnessWeightOf`), never from witness or script data the
 * service put in the PSBT: a fake 12 kB witness on its own input would otherwise make any fee look cheap. The
 * per-vbyte cap also holds for the user's share (the fee less what unlisted inputs bring) over the user's part of
 * the size: the service's own coins (its dust) would otherwise raise the cap by their size while adding nothing.
 */
function checkFee(args: {
  psbt: Psbt;
  tx: Transaction;
  kinds: SegwitKind[];
  listed: number[];
  inputTotal: bigint;
  outputTotal: bigint;
  policy: HtlcPolicy;
  amountLots: bigint;
}): { feeLots: bigint; estimatedVsize: bigint } {
  const { psbt, tx, kinds, inputTotal, outputTotal, policy } = args;
  const feeLots = inputTotal - outputTotal;
  if (feeLots < 0n) {
    throw createBitcoinError("BTC_FEE_INVALID", "The outputs spend more than the inputs.", {
      inputTotal,
      outputTotal,
    });
  }
  let weight = BigInt(tx.byteLength(false)) * 4n + SEGWIT_MARKER_AND_FLAG_WU;
  let serviceWeight = 0n;
  let serviceLots = 0n;
  const listed = new Set(args.listed);
  kinds.forEach((kind, index) => {
    const input = psbt.data.inputs[index]!;
    const witness = witnessWeightOf(kind, input.sighashType);
    weight += witness;
    if (listed.has(index)) return;
    serviceWeight += INPUT_WITHOUT_WITNESS_WU + witness;
    serviceLots += input.witnessUtxo!.value;
  });
  if (weight > MAX_STANDARD_TX_WEIGHT) {
    throw createBitcoinError(
      "BTC_TX_NOT_STANDARD",
      "The deposit is heavier than 400,000 weight units: nodes would not relay it.",
      { estimatedWeight: weight },
    );
  }
  const estimatedVsize = (weight + 3n) / 4n;
  const details = {
    feeLots,
    estimatedVsize,
    minFeeRateSatPerVbyte: policy.minFeeRateSatPerVbyte,
    maxFeeLots: policy.maxFeeLots,
    maxFeeRateSatPerVbyte: policy.maxFeeRateSatPerVbyte,
    maxFeeBps: policy.maxFeeBps,
  };
  if (feeLots < policy.minFeeRateSatPerVbyte * estimatedVsize) {
    throw createBitcoinError(
      "BTC_FEE_TOO_LOW",
      "The fee is below the minimum relay rate: nodes would not relay the deposit.",
      details,
    );
  }
  if (
    feeLots > policy.maxFeeLots ||
    feeLots > policy.maxFeeRateSatPerVbyte * estimatedVsize ||
    feeLots - serviceLots > policy.maxFeeRateSatPerVbyte * ((weight - serviceWeight + 3n) / 4n) ||
    feeLots * 10_000n > args.amountLots * BigInt(policy.maxFeeBps)
  ) {
    throw createBitcoinError("BTC_FEE_TOO_HIGH", "The fee is above the cap.", details);
  }
  return { feeLots, estimatedVsize };
}

/** BIP-341 output script of `internalKey` with a two-leaf tree at depth 1 (public APIs only). */
function taprootScriptOf(args: {
  ecc: BitcoinEcc;
  internalKey: Uint8Array;
  leaves: [Uint8Array, Uint8Array];
}): Uint8Array | undefined {
  const leafHash = (leaf: Uint8Array) =>
    btcCrypto.taggedHash(
      "TapLeaf",
      Uint8Array.from([TAPSCRIPT_LEAF_VERSION, ...compactSize(leaf.length), ...leaf]),
    );
  const [a, b] = args.leaves.map(leafHash) as [Uint8Array, Uint8Array];
  const [first, second] = compareBytes(a, b) <= 0 ? [a, b] : [b, a];
  const root = btcCrypto.taggedHash("TapBranch", Uint8Array.from([...first, ...second]));
  const tweak = btcCrypto.taggedHash("TapTweak", Uint8Array.from([...args.internalKey, ...root]));
  const outputKey = args.ecc.xOnlyPointAddTweak(args.internalKey, tweak);
  return outputKey ? Uint8Array.from([0x51, 0x20, ...outputKey.xOnlyPubkey]) : undefined;
}

/** Output 0 as the HTLC: its tap tree and leaves (`readHtlcTree`), then the fields they lock (`assertHtlcFields`). */
function readHtlcOutput(args: {
  ecc: BitcoinEcc;
  psbt: Psbt;
  output: { script: Uint8Array; value: bigint } | undefined;
  user: { xOnly: Uint8Array };
  policy: HtlcPolicy;
  secretHashHex: string;
}): HtlcOutput {
  const { output } = args;
  const data = args.psbt.data.outputs[0];
  if (!output || !data?.tapInternalKey || !data.tapTree) {
    throw createBitcoinError(
      "BTC_HTLC_MISSING",
      "Output 0 is not an HTLC: it carries no BIP-371 tapInternalKey and tapTree.",
      { output: 0 },
    );
  }
  const { claim, refund } = readHtlcTree({
    ecc: args.ecc,
    output,
    internalKey: data.tapInternalKey,
    leaves: data.tapTree.leaves,
  });
  const fields = parseHtlcLeaves({ claim, refund });
  if (!fields) {
    throw createBitcoinError(
      "BTC_HTLC_SCRIPT_MISMATCH",
      "The HTLC's leaves are not the documented claim and refund scripts.",
      { part: "leaves" },
    );
  }
  assertHtlcFields({ fields, user: args.user, policy: args.policy, secretHashHex: args.secretHashHex });
  return {
    outputIndex: 0,
    valueLots: output.value,
    script: output.script,
    ...fields,
    claimLeaf: claim,
    refundLeaf: refund,
  };
}

/**
 * The HTLC's Taproot commitment: the unspendable NUMS internal key, two tapscript leaves at depth 1, and an output
 * script that is the Taproot output of exactly those. Returns the two leaf scripts (claim, refund).
 */
function readHtlcTree(args: {
  ecc: BitcoinEcc;
  output: { script: Uint8Array };
  internalKey: Uint8Array;
  leaves: { depth: number; leafVersion: number; script: Uint8Array }[];
}): { claim: Uint8Array; refund: Uint8Array } {
  const { output, internalKey, leaves } = args;
  if (bytesToHex(internalKey) !== NUMS_INTERNAL_KEY_HEX) {
    throw createBitcoinError(
      "BTC_HTLC_INTERNAL_KEY_MISMATCH",
      "The HTLC's internal key is not the unspendable NUMS key, so someone could spend it by key path.",
      { tapInternalKey: bytesToHex(internalKey) },
    );
  }
  const [claimLeaf, refundLeaf] = leaves;
  if (
    leaves.length !== 2 ||
    !claimLeaf ||
    !refundLeaf ||
    leaves.some((l) => l.depth !== 1 || l.leafVersion !== TAPSCRIPT_LEAF_VERSION)
  ) {
    throw createBitcoinError(
      "BTC_HTLC_SCRIPT_MISMATCH",
      "The HTLC's tap tree is not two tapscript leaves at depth 1.",
      { part: "tree", leaves: leaves.length },
    );
  }
  // BIP-341: output key = internal key tweaked by the Merkle root of the two leaves.
  const rebuilt = taprootScriptOf({
    ecc: args.ecc,
    internalKey,
    leaves: [claimLeaf.script, refundLeaf.script],
  });
  if (!rebuilt || !equalBytes(rebuilt, output.script)) {
    throw createBitcoinError(
      "BTC_HTLC_SCRIPT_MISMATCH",
      "Output 0's script is not the Taproot output of its tapInternalKey and tapTree.",
      { part: "outputScript", script: bytesToHex(output.script) },
    );
  }
  return { claim: claimLeaf.script, refund: refundLeaf.script };
}

/**
 * What the leaves lock: the intent's secret hash, the user's refund key, the pinned resolver key (when the policy
 * sets one), and a refund delay within the policy's bounds.
 */
function assertHtlcFields(args: {
  fields: NonNullable<ReturnType<typeof parseHtlcLeaves>>;
  user: { xOnly: Uint8Array };
  policy: HtlcPolicy;
  secretHashHex: string;
}): void {
  const { fields, user, policy } = args;
  const expectedHash = hexToBytes(args.secretHashHex);
  if (!expectedHash || !equalBytes(fields.secretHash, expectedHash)) {
    throw createBitcoinError(
      "BTC_HTLC_SECRET_HASH_MISMATCH",
      "The claim leaf is locked to another secret hash.",
      {
        expected: escapeForDisplay(args.secretHashHex),
        actual: `0x${bytesToHex(fields.secretHash)}`,
      },
    );
  }
  if (!equalBytes(fields.userXOnly, user.xOnly)) {
    throw createBitcoinError("BTC_HTLC_REFUND_KEY_MISMATCH", "The refund leaf does not pay the user's key.", {
      expected: bytesToHex(user.xOnly),
      actual: bytesToHex(fields.userXOnly),
    });
  }
  if (policy.resolverPublicKey !== undefined) {
    const pinned = hexToBytes(policy.resolverPublicKey);
    const pinnedXOnly = pinned?.length === 33 ? pinned.slice(1) : pinned;
    if (!pinnedXOnly || !equalBytes(pinnedXOnly, fields.resolverXOnly)) {
      throw createBitcoinError(
        "BTC_HTLC_CLAIM_KEY_MISMATCH",
        "The claim leaf pays a key other than the resolver's.",
        {
          expected: policy.resolverPublicKey,
          actual: bytesToHex(fields.resolverXOnly),
        },
      );
    }
  }
  // Above 0xffff the number sets BIP-68 flag bits whatever the policy says: bit 22 turns blocks into 512-second
  // units, bit 31 disables the lock, and bits 16-21 are ignored (65542 would mean 6 blocks).
  if (
    fields.csvBlocks < policy.minCsvBlocks ||
    fields.csvBlocks > policy.maxCsvBlocks ||
    fields.csvBlocks > MAX_BIP68_BLOCKS
  ) {
    throw createBitcoinError(
      "BTC_HTLC_TIMELOCK_OUT_OF_BOUNDS",
      "The refund delay is outside the allowed bounds.",
      {
        csvBlocks: fields.csvBlocks,
        minCsvBlocks: policy.minCsvBlocks,
        maxCsvBlocks: policy.maxCsvBlocks,
      },
    );
  }
}
