import bitcore from "bitcore-lib";

const I = bitcore.Script.Interpreter;
/** Standard segwit + taproot flags (never the BCH ones: their bits collide with TAPROOT). */
export const FLAGS =
  I.SCRIPT_VERIFY_P2SH |
  I.SCRIPT_VERIFY_STRICTENC |
  I.SCRIPT_VERIFY_DERSIG |
  I.SCRIPT_VERIFY_LOW_S |
  I.SCRIPT_VERIFY_NULLDUMMY |
  I.SCRIPT_VERIFY_CHECKLOCKTIMEVERIFY |
  I.SCRIPT_VERIFY_CHECKSEQUENCEVERIFY |
  I.SCRIPT_VERIFY_WITNESS |
  I.SCRIPT_VERIFY_MINIMALIF |
  I.SCRIPT_VERIFY_NULLFAIL |
  I.SCRIPT_VERIFY_WITNESS_PUBKEYTYPE |
  I.SCRIPT_VERIFY_TAPROOT;

/**
 * Run bitcore-lib's script interpreter (an implementation we did not write) over every input of a signed
 * transaction, with every prevout set. Returns one entry per input: `null` when it passes, else the error.
 */
export function runInterpreter(args: {
  txHex: string;
  prevouts: { script: Uint8Array; value: bigint }[];
}): (string | null)[] {
  const tx = new bitcore.Transaction(args.txHex);
  tx.inputs.forEach((input, i) => {
    const prev = args.prevouts[i]!;
    input.output = new bitcore.Transaction.Output({
      script: new bitcore.Script(Buffer.from(prev.script)),
      satoshis: Number(prev.value),
    });
  });
  return tx.inputs.map((input, i) => {
    const interpreter = new I();
    const prev = args.prevouts[i]!;
    const ok = interpreter.verify(
      input.script,
      new bitcore.Script(Buffer.from(prev.script)),
      tx,
      i,
      FLAGS,
      input.getWitnesses(),
      Number(prev.value),
    );
    return ok ? null : interpreter.errstr || "SCRIPT_ERR_UNKNOWN";
  });
}
