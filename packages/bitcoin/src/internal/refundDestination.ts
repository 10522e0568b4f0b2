// Internal to `signHtlcRefund`: the refund's output script and the dust threshold it must clear.
import type { Psbt } from "bitcoinjs-lib";
import { createBitcoinError } from "../errors.js";
import type { BitcoinEcc } from "../types.js";
import { bytesToHex, compactSize, equalBytes } from "./bytes.js";

/** Bitcoin Core's largest standard output script (MAX_SCRIPT_SIZE). */
const MAX_SCRIPT_BYTES = 10_000;
const OP_RETURN = 0x6a;

/**
 * The refund's output script, after checking the fee and script types. By default the user's script of the type
 * their wallet watches: the deposit's change type (which the signer verified), else that of the user's coins when
 * all of one type, else P2TR. A P2WPKH wallet does not show coins sent to the same key's P2TR script.
 */
export function readDestination(args: {
  parameters: { feeLots: unknown; destinationScript?: Uint8Array | undefined };
  user: { p2tr: Uint8Array; p2wpkh: Uint8Array };
  deposit: Psbt;
  ecc: BitcoinEcc;
}): Uint8Array {
  const { parameters, user } = args;
  const isUsers = (script: Uint8Array) => equalBytes(script, user.p2tr) || equalBytes(script, user.p2wpkh);
  const change = args.deposit.txOutputs.slice(1).find((output) => isUsers(output.script))?.script;
  const coins = args.deposit.data.inputs.map((input) => input.witnessUtxo!.script).filter(isUsers);
  const p2wpkhCoins = coins.length > 0 && coins.every((script) => equalBytes(script, user.p2wpkh));
  const destination = parameters.destinationScript ?? change ?? (p2wpkhCoins ? user.p2wpkh : user.p2tr);
  if (
    typeof parameters.feeLots !== "bigint" ||
    !(destination instanceof Uint8Array) ||
    destination.length === 0 ||
    destination.length > MAX_SCRIPT_BYTES
  ) {
    throw createBitcoinError(
      "BTC_REFUND_INVALID",
      "feeLots must be a bigint and destinationScript a non-empty output script (Uint8Array).",
      { feeLots: typeof parameters.feeLots, destinationScript: typeof parameters.destinationScript },
    );
  }
  // OP_RETURN burns the refund, and so do a witness v0 program of neither 20 nor 32 bytes (BIP-141) and a Taproot
  // x off the curve (BIP-341); pay-to-anchor hands it to anyone, the HTLC's own script to whoever holds the secret
  // and resolver key.
  const htlcScript = args.deposit.txOutputs[0]?.script;
  const version = witnessVersionOf(destination);
  const length = destination.length;
  if (
    destination[0] === OP_RETURN ||
    (version === 0 && length !== 22 && length !== 34) ||
    (version === 1 && length === 34 && !args.ecc.isXOnlyPoint(destination.subarray(2))) ||
    // pay-to-anchor, OP_1 0x4e73 (relayed since Bitcoin Core 28): anyone spends it with an empty witness
    (version === 1 && length === 4 && destination[2] === 0x4e && destination[3] === 0x73) ||
    (htlcScript && equalBytes(destination, htlcScript))
  ) {
    throw createBitcoinError("BTC_REFUND_INVALID", "The refund would pay a script the user cannot spend.", {
      destinationScript: bytesToHex(destination),
    });
  }
  return destination;
}

/**
 * Bitcoin Core's dust threshold of an output to `script` (GetDustThreshold, dustrelayfee 3 sat/vB): three times the
 * size of the output plus the input that spends it (67 vbytes for a witness program, 148 otherwise). 330 sat for
 * P2TR and P2WSH, 294 for P2WPKH, 546 for P2PKH, 540 for P2SH: nodes do not relay a refund below it.
 */
export function dustThresholdOf(script: Uint8Array): bigint {
  const spend = witnessVersionOf(script) < 0 ? 148 : 67;
  return BigInt((8 + compactSize(script.length).length + script.length + spend) * 3);
}

/** The witness version (0..16) of `script` when it is a witness program (Core's IsWitnessProgram), else -1. */
function witnessVersionOf(script: Uint8Array): number {
  const op = script[0]!;
  return script.length >= 4 &&
    script.length <= 42 &&
    script[1]! + 2 === script.length &&
    (op === 0 || (op >= 0x51 && op <= 0x60))
    ? op && op - 0x50
    : -1;
}
