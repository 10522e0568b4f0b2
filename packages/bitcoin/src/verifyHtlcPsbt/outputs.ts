// Internal to `verifyHtlcPsbt`: every output but the HTLC pays the user (one change output, above dust).
import type { Transaction } from "bitcoinjs-lib";
import { createBitcoinError } from "../errors.js";
import { bytesToHex, equalBytes } from "../internal/bytes.js";
import { DUST_LIMIT_LOTS } from "../internal/scriptTypes.js";
import type { HtlcPolicy } from "../types.js";
import { assertMoneyRange, type ListedInput, type UserScripts } from "./common.js";

/**
 * Every output but the HTLC pays the user; no output is dust; at most one change output. The change is of
 * `policy.changeScriptType` when set, else of the type of the listed inputs when they are all of one type (a wallet
 * watches the type its coins are of: BIP-84 and BIP-86 derive different keys, and single-key wallets show one
 * address type at a time). Returns the sum of all outputs.
 */
export function checkOutputs(args: {
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
