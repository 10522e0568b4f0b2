import type { Intent, Quote } from "@swapintent/client";
import { Psbt, Transaction } from "bitcoinjs-lib";
import { toHashTree, tweakKey } from "bitcoinjs-lib/src/payments/bip341";
import { bytesToHex, equalBytes, hexToBytes } from "./bytes.js";
import { DEFAULT_HTLC_POLICY, NUMS_INTERNAL_KEY_HEX, TAPSCRIPT_LEAF_VERSION } from "./constants.js";
import { createBitcoinError } from "./errors.js";
import { getUserScripts } from "./getUserScripts.js";
import { parseHtlcLeaves } from "./parseHtlcLeaves.js";
import type { BitcoinEcc, HtlcOutput, HtlcPolicy } from "./types.js";
import { useEcc } from "./useEcc.js";

/** The result of a successful `verifyHtlcPsbt`. */
export interface VerifiedHtlcPsbt {
  /** A private copy of the parsed PSBT (the caller's data is never changed); `signHtlcPsbt` signs this copy. */
  psbt: Psbt;
  /** The unsigned transaction as the PSBT carries it; signing must leave it byte-identical. */
  unsignedTx: Uint8Array;
  /** The inputs the user signs, and for each whether it spends the user's P2TR or P2WPKH output. */
  inputs: { index: number; kind: "p2tr" | "p2wpkh" }[];
  htlc: HtlcOutput;
  feeLots: bigint;
  /** Virtual size of the transaction once the listed inputs are signed (estimate; unknown witnesses count 0). */
  estimatedVsize: bigint;
  userPublicKey: Uint8Array;
}

const SIGHASH_DEFAULT = 0x00;
const SIGHASH_ALL = 0x01;
const MAX_BIP68_BLOCKS = 0xffff;
const SEQUENCE_FINAL = 0xffffffff;
const SEQUENCE_DISABLE_FLAG = 0x80000000;
const LOCKTIME_THRESHOLD = 500_000_000;
const P2TR_KEY_PATH_WITNESS_WU = 66n; // item count, length, 64-byte signature
const P2WPKH_WITNESS_WU = 108n; // item count, length + 72-byte signature, length + 33-byte key

/**
 * Check a Bitcoin deposit PSBT (`params_to_sign` of an `htlc` intent) against the intent and quote the user
 * accepted, before anything is signed. Throws a `BaseError` whose `code` names the first check that failed:
 * the listed inputs are the user's (P2TR BIP-86 key path or P2WPKH of `userPublicKey`) with consistent UTXO
 * data and SIGHASH_DEFAULT/ALL only; no unlisted input asks for the user's key; output 0 is the Taproot HTLC
 * (NUMS internal key, claim leaf locked to the intent's `secretHash`, refund leaf to the user's key after a CSV
 * delay within the policy) paying exactly `quote.sourceAmountLots`; every other output pays the user; the fee
 * is under the policy's absolute and per-vbyte caps.
 */
export function verifyHtlcPsbt(args: {
  ecc: BitcoinEcc;
  intent: Intent;
  quote: Pick<Quote, "sourceAmountLots">;
  /** The user's 33-byte compressed key, hex (the intent's `user_source_public_key`). */
  userPublicKey: string | Uint8Array;
  policy?: Partial<HtlcPolicy>;
}): VerifiedHtlcPsbt {
  const { ecc, intent } = args;
  const policy = resolvePolicy(args.policy);
  if (intent.approvalMechanism !== "htlc") {
    throw createBitcoinError("BTC_INTENT_NOT_HTLC", "The intent is not a Bitcoin htlc intent.", {
      approvalMechanism: intent.approvalMechanism,
    });
  }
  useEcc(ecc);
  const user = getUserScripts({ ecc, publicKey: args.userPublicKey });

  let psbt: Psbt;
  try {
    psbt = Psbt.fromBase64(intent.paramsToSign.psbt);
  } catch (cause) {
    throw createBitcoinError(
      "BTC_PSBT_INVALID",
      "params_to_sign.psbt is not a valid base64 PSBT.",
      {},
      cause,
    );
  }
  const unsignedTx = psbt.data.globalMap.unsignedTx.toBuffer();
  // Read inputs and outputs from the unsigned transaction (bitcoinjs' txInputs/txOutputs getters also derive
  // addresses, which costs about a millisecond).
  const tx = Transaction.fromBuffer(unsignedTx);
  const txInputs = tx.ins;
  const txOutputs = tx.outs;

  // Which inputs the user is asked to sign.
  const listed = intent.paramsToSign.inputs;
  if (
    !Array.isArray(listed) ||
    listed.length === 0 ||
    new Set(listed).size !== listed.length ||
    listed.some((i) => !Number.isInteger(i) || i < 0 || i >= txInputs.length)
  ) {
    throw createBitcoinError(
      "BTC_INPUT_INDEX_INVALID",
      "params_to_sign.inputs is not a list of input indexes.",
      {
        inputs: listed,
        inputCount: txInputs.length,
      },
    );
  }

  // The deposit must be valid now: a locktime or relative lock would let the service hold a signed deposit that
  // only becomes valid later, after the quote and the intent's deadline.
  assertNotTimelocked({ tx, policy });

  // Every input: UTXO data present and consistent.
  let inputTotal = 0n;
  for (let index = 0; index < txInputs.length; index++) {
    const input = psbt.data.inputs[index]!;
    const txInput = txInputs[index]!;
    if (!input.witnessUtxo) {
      throw createBitcoinError("BTC_UTXO_MISSING", "An input has no witnessUtxo; its value is unknown.", {
        input: index,
      });
    }
    if (input.nonWitnessUtxo) {
      let prev: Transaction;
      try {
        prev = Transaction.fromBuffer(input.nonWitnessUtxo);
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
        prevOut.value !== input.witnessUtxo.value ||
        !equalBytes(prevOut.script, input.witnessUtxo.script)
      ) {
        throw createBitcoinError(
          "BTC_UTXO_MISMATCH",
          "An input's witnessUtxo disagrees with its nonWitnessUtxo (previous transaction).",
          { input: index },
        );
      }
    }
    inputTotal += input.witnessUtxo.value;
  }

  // Listed inputs: the user's own outputs, signed with SIGHASH_DEFAULT/ALL.
  const inputs: VerifiedHtlcPsbt["inputs"] = [];
  for (const index of listed) {
    const input = psbt.data.inputs[index]!;
    const script = input.witnessUtxo!.script;
    let kind: "p2tr" | "p2wpkh";
    if (equalBytes(script, user.p2tr)) {
      kind = "p2tr";
      if (
        !equalBytes(input.tapInternalKey, user.xOnly) ||
        input.tapMerkleRoot ||
        input.tapLeafScript?.length
      ) {
        throw createBitcoinError(
          "BTC_INPUT_NOT_USERS",
          "A listed P2TR input is not a BIP-86 key-path spend of the user's key (tapInternalKey missing or foreign, or a script tree).",
          { input: index },
        );
      }
    } else if (equalBytes(script, user.p2wpkh)) {
      kind = "p2wpkh";
    } else {
      throw createBitcoinError("BTC_INPUT_NOT_USERS", "A listed input does not spend the user's address.", {
        input: index,
        script: bytesToHex(script),
      });
    }
    // Nothing that would change what is signed or finalized: no scripts a p2wpkh spend does not use, no
    // signatures or final witnesses already there, no request for a script-path signature.
    const unexpected = [
      input.redeemScript && "redeemScript",
      input.witnessScript && "witnessScript",
      input.partialSig?.length && "partialSig",
      input.tapKeySig && "tapKeySig",
      input.tapScriptSig?.length && "tapScriptSig",
      input.finalScriptSig && "finalScriptSig",
      input.finalScriptWitness && "finalScriptWitness",
      kind === "p2wpkh" && input.tapInternalKey && "tapInternalKey",
      input.tapBip32Derivation?.some((d) => d.leafHashes.length > 0) && "tapBip32Derivation.leafHashes",
    ].filter((field): field is string => typeof field === "string");
    if (unexpected.length > 0) {
      throw createBitcoinError(
        "BTC_INPUT_FIELD_NOT_ALLOWED",
        "A listed input carries PSBT fields that a plain key spend does not have.",
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
        },
      );
    }
    inputs.push({ index, kind });
  }

  // Unlisted inputs must not ask for the user's key.
  for (let index = 0; index < txInputs.length; index++) {
    if (listed.includes(index)) continue;
    const input = psbt.data.inputs[index]!;
    const script = input.witnessUtxo!.script;
    const mentionsUser =
      equalBytes(script, user.p2tr) ||
      equalBytes(script, user.p2wpkh) ||
      equalBytes(input.tapInternalKey, user.xOnly) ||
      (input.bip32Derivation ?? []).some((d) => equalBytes(d.pubkey, user.publicKey)) ||
      (input.tapBip32Derivation ?? []).some((d) => equalBytes(d.pubkey, user.xOnly)) ||
      (input.partialSig ?? []).some((s) => equalBytes(s.pubkey, user.publicKey));
    if (mentionsUser) {
      throw createBitcoinError(
        "BTC_INPUT_NOT_LISTED_SIGNED",
        "An input that is not listed would be signed by (or asks for) the user's key.",
        { input: index },
      );
    }
  }

  // Amounts the signatures do not commit to. A segwit v0 signature (BIP-143) commits only to its own input's
  // amount, so a service can lie about the other inputs' amounts or scripts, ask for the same transaction twice
  // with different lies, and combine the two valid halves into a transaction whose real fee it never showed.
  // A Taproot SIGHASH_DEFAULT/ALL signature commits to every input's amount and script (BIP-341), so one listed
  // P2TR input makes the data honest; a lone input cannot be combined with anything. Otherwise every input must
  // carry its previous transaction (checked above against the txid and witnessUtxo).
  if (txInputs.length > 1 && !inputs.some((i) => i.kind === "p2tr")) {
    const missing = psbt.data.inputs.findIndex((input) => !input.nonWitnessUtxo);
    if (missing !== -1) {
      throw createBitcoinError(
        "BTC_NON_WITNESS_UTXO_REQUIRED",
        "With no Taproot input to commit to every amount, each input needs its previous transaction (nonWitnessUtxo).",
        { input: missing },
      );
    }
  }

  // Output 0: the HTLC.
  const htlc = readHtlcOutput({ psbt, output: txOutputs[0], user, policy, secretHashHex: intent.secretHash });
  if (htlc.valueLots !== args.quote.sourceAmountLots) {
    throw createBitcoinError(
      "BTC_HTLC_AMOUNT_MISMATCH",
      "The HTLC does not lock exactly the quoted amount.",
      {
        expected: args.quote.sourceAmountLots,
        actual: htlc.valueLots,
      },
    );
  }

  // Every other output: back to the user.
  let outputTotal = 0n;
  for (let index = 0; index < txOutputs.length; index++) {
    const output = txOutputs[index]!;
    outputTotal += output.value;
    if (index === htlc.outputIndex) continue;
    if (!equalBytes(output.script, user.p2tr) && !equalBytes(output.script, user.p2wpkh)) {
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
  }

  // The fee.
  const feeLots = inputTotal - outputTotal;
  if (feeLots < 0n) {
    throw createBitcoinError("BTC_FEE_INVALID", "The outputs spend more than the inputs.", {
      inputTotal,
      outputTotal,
    });
  }
  let witnessWeight = 2n; // segwit marker and flag
  for (let index = 0; index < txInputs.length; index++) {
    const signed = inputs.find((i) => i.index === index);
    if (signed) witnessWeight += signed.kind === "p2tr" ? P2TR_KEY_PATH_WITNESS_WU : P2WPKH_WITNESS_WU;
    else witnessWeight += BigInt(psbt.data.inputs[index]!.finalScriptWitness?.length ?? 1);
  }
  const weight = BigInt(unsignedTx.length) * 4n + witnessWeight;
  const estimatedVsize = (weight + 3n) / 4n;
  if (feeLots > policy.maxFeeLots || feeLots > policy.maxFeeRateSatPerVbyte * estimatedVsize) {
    throw createBitcoinError("BTC_FEE_TOO_HIGH", "The fee is above the cap.", {
      feeLots,
      estimatedVsize,
      maxFeeLots: policy.maxFeeLots,
      maxFeeRateSatPerVbyte: policy.maxFeeRateSatPerVbyte,
    });
  }

  return {
    psbt,
    unsignedTx,
    inputs,
    htlc,
    feeLots,
    estimatedVsize,
    userPublicKey: user.publicKey,
  };
}

/**
 * Defaults for the fields the caller left out (an explicit `undefined` too: spreading it would switch a cap off),
 * and a typed error for values that would make a check meaningless or throw.
 */
function resolvePolicy(given: Partial<HtlcPolicy> | undefined): HtlcPolicy {
  const policy: HtlcPolicy = { ...DEFAULT_HTLC_POLICY };
  for (const [key, value] of Object.entries(given ?? {})) {
    if (value !== undefined) (policy as unknown as Record<string, unknown>)[key] = value;
  }
  const isCount = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;
  const valid =
    isCount(policy.minCsvBlocks) &&
    isCount(policy.maxCsvBlocks) &&
    typeof policy.maxFeeLots === "bigint" &&
    policy.maxFeeLots >= 0n &&
    typeof policy.maxFeeRateSatPerVbyte === "bigint" &&
    policy.maxFeeRateSatPerVbyte >= 0n &&
    (policy.maxLockTimeHeight === undefined || isCount(policy.maxLockTimeHeight)) &&
    (policy.resolverPublicKey === undefined || typeof policy.resolverPublicKey === "string");
  if (!valid) {
    throw createBitcoinError(
      "BTC_POLICY_INVALID",
      "The policy has a field of the wrong type (counts are integers, fee caps bigint lots).",
      { policy: Object.keys(given ?? {}) },
    );
  }
  return policy;
}

function assertNotTimelocked(args: { tx: Transaction; policy: HtlcPolicy }): void {
  const { tx, policy } = args;
  const enforced = tx.ins.some((input) => input.sequence !== SEQUENCE_FINAL);
  if (enforced && tx.locktime !== 0) {
    const allowed =
      tx.locktime >= LOCKTIME_THRESHOLD
        ? tx.locktime <= Math.floor(Date.now() / 1000)
        : policy.maxLockTimeHeight !== undefined && tx.locktime <= policy.maxLockTimeHeight;
    if (!allowed) {
      throw createBitcoinError(
        "BTC_TX_TIMELOCKED",
        "The deposit's nLockTime delays it (a height above policy.maxLockTimeHeight, or a future time).",
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

function readHtlcOutput(args: {
  psbt: Psbt;
  output: { script: Uint8Array; value: bigint } | undefined;
  user: { xOnly: Uint8Array };
  policy: HtlcPolicy;
  secretHashHex: string;
}): HtlcOutput {
  const { psbt, user, policy, output } = args;
  const data = psbt.data.outputs[0];
  if (!output || !data?.tapInternalKey || !data.tapTree) {
    throw createBitcoinError(
      "BTC_HTLC_MISSING",
      "Output 0 is not an HTLC: it carries no BIP-371 tapInternalKey and tapTree.",
      { output: 0 },
    );
  }
  if (bytesToHex(data.tapInternalKey) !== NUMS_INTERNAL_KEY_HEX) {
    throw createBitcoinError(
      "BTC_HTLC_INTERNAL_KEY_MISMATCH",
      "The HTLC's internal key is not the unspendable NUMS key, so someone could spend it by key path.",
      { tapInternalKey: bytesToHex(data.tapInternalKey) },
    );
  }
  const leaves = data.tapTree.leaves;
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
      { leaves: leaves.length },
    );
  }
  // BIP-341: output key = internal key tweaked by the Merkle root of the two leaves.
  const root = toHashTree([{ output: claimLeaf.script }, { output: refundLeaf.script }]).hash;
  const outputKey = tweakKey(data.tapInternalKey, root);
  const rebuilt = outputKey ? Uint8Array.from([0x51, 0x20, ...outputKey.x]) : undefined;
  if (!rebuilt || !equalBytes(rebuilt, output.script)) {
    throw createBitcoinError(
      "BTC_HTLC_SCRIPT_MISMATCH",
      "Output 0's script is not the Taproot output of its tapInternalKey and tapTree.",
      { script: bytesToHex(output.script) },
    );
  }
  const fields = parseHtlcLeaves({ claim: claimLeaf.script, refund: refundLeaf.script });
  if (!fields) {
    throw createBitcoinError(
      "BTC_HTLC_SCRIPT_MISMATCH",
      "The HTLC's leaves are not the documented claim and refund scripts.",
    );
  }
  const expectedHash = hexToBytes(args.secretHashHex);
  if (!expectedHash || !equalBytes(fields.secretHash, expectedHash)) {
    throw createBitcoinError(
      "BTC_HTLC_SECRET_HASH_MISMATCH",
      "The claim leaf is locked to another secret hash.",
      {
        expected: args.secretHashHex,
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
  return {
    outputIndex: 0,
    valueLots: output.value,
    script: output.script,
    ...fields,
    claimLeaf: claimLeaf.script,
    refundLeaf: refundLeaf.script,
  };
}
