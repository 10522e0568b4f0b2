// Just enough typing of bitcore-lib (it ships none) for running its script interpreter in tests.
declare module "bitcore-lib" {
  interface BitcoreScript {
    toHex(): string;
  }
  interface BitcoreInput {
    script: BitcoreScript;
    output: BitcoreOutput | undefined;
    getWitnesses(): Uint8Array[];
  }
  type BitcoreOutput = object;
  interface BitcoreTransaction {
    inputs: BitcoreInput[];
  }
  interface BitcoreInterpreter {
    errstr: string;
    verify(
      scriptSig: BitcoreScript,
      scriptPubkey: BitcoreScript,
      tx: BitcoreTransaction,
      nin: number,
      flags: number,
      witness: Uint8Array[],
      satoshis: number,
    ): boolean;
  }
  interface InterpreterConstructor {
    new (): BitcoreInterpreter;
    SCRIPT_VERIFY_P2SH: number;
    SCRIPT_VERIFY_STRICTENC: number;
    SCRIPT_VERIFY_DERSIG: number;
    SCRIPT_VERIFY_LOW_S: number;
    SCRIPT_VERIFY_NULLDUMMY: number;
    SCRIPT_VERIFY_CHECKLOCKTIMEVERIFY: number;
    SCRIPT_VERIFY_CHECKSEQUENCEVERIFY: number;
    SCRIPT_VERIFY_WITNESS: number;
    SCRIPT_VERIFY_MINIMALIF: number;
    SCRIPT_VERIFY_NULLFAIL: number;
    SCRIPT_VERIFY_WITNESS_PUBKEYTYPE: number;
    SCRIPT_VERIFY_TAPROOT: number;
  }
  interface ScriptConstructor {
    new (hexOrBuffer: string | Uint8Array): BitcoreScript;
    Interpreter: InterpreterConstructor;
  }
  interface TransactionConstructor {
    new (hex: string): BitcoreTransaction;
    Output: new (args: { script: BitcoreScript; satoshis: number }) => BitcoreOutput;
  }
  const bitcore: { Script: ScriptConstructor; Transaction: TransactionConstructor };
  export default bitcore;
}
