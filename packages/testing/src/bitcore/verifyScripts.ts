/// <reference path="./bitcore-lib.d.ts" />
import bitcore from "bitcore-lib";

const I = bitcore.Script.Interpreter;

/**
 * Standard segwit + taproot verification flags. Never add bitcore's BCH flags: their bits collide with
 * TAPROOT (1<<17) and CONST_SCRIPTCODE (1<<16). Without TAPROOT a forged taproot signature passes.
 */
export const INTERPRETER_FLAGS =
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
 * Run bitcore-lib's script interpreter over every input of `txHex`, with every prevout set (Taproot sighashes
 * commit to all of them). `prevouts` must come from the ledger, never from the PSBT. Returns one entry per
 * input: `null` when the input's scripts and signatures pass, otherwise the interpreter's error.
 */
export function verifyScripts(args: {
  txHex: string;
  prevouts: { script: Uint8Array; value: bigint }[];
}): (string | null)[] {
  const tx = new bitcore.Transaction(args.txHex);
  if (tx.inputs.length !== args.prevouts.length) throw new Error("one prevout per input is required");
  tx.inputs.forEach((input, i) => {
    const prev = args.prevouts[i]!;
    input.output = new bitcore.Transaction.Output({
      script: new bitcore.Script(Buffer.from(prev.script)),
      satoshis: Number(prev.value),
    });
  });
  return tx.inputs.map((input, i) => {
    const prev = args.prevouts[i]!;
    const interpreter = new I();
    const ok = interpreter.verify(
      input.script,
      new bitcore.Script(Buffer.from(prev.script)),
      tx,
      i,
      INTERPRETER_FLAGS,
      input.getWitnesses(),
      Number(prev.value),
    );
    return ok ? null : interpreter.errstr || "SCRIPT_ERR_SIG (signature check failed)";
  });
}
