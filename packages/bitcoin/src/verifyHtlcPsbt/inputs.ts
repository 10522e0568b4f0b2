// Internal to `verifyHtlcPsbt`: the inputs. Listed ones are the user's plain key spends; unlisted ones never ask for
// the user's key; every one spends a native segwit output with consistent UTXO data; the amounts are committed.
import { crypto as btcCrypto, type Psbt, Transaction } from "bitcoinjs-lib";
import { createBitcoinError } from "../errors.js";
import { bytesToHex, equalBytes } from "../internal/bytes.js";
import { getSegwitKind, type SegwitKind } from "../internal/scriptTypes.js";
import {
  assertMoneyRange,
  type ListedInput,
  presentFields,
  SIGHASH_ALL,
  SIGHASH_DEFAULT,
  type UserScripts,
} from "./common.js";

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
export function assertPsbtFields(args: { psbt: Psbt; user: UserScripts }): void {
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
export function readInputs(args: { psbt: Psbt; tx: Transaction }): {
  inputTotal: bigint;
  kinds: SegwitKind[];
} {
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

/** An input's `nonWitnessUtxo` parses, is the transaction its outpoint names, and agrees with its `witnessUtxo`. */
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
export function checkListedInput(args: { psbt: Psbt; index: number; user: UserScripts }): ListedInput {
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
export function assertUnlistedInputs(args: { psbt: Psbt; listed: number[]; user: UserScripts }): void {
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
export function assertAmountsCommitted(args: { psbt: Psbt; inputs: ListedInput[] }): void {
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
