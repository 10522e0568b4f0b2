/** System Program. */
export const SYSTEM_PROGRAM_ADDRESS = "11111111111111111111111111111111";
/** SPL Token program. */
export const TOKEN_PROGRAM_ADDRESS = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
/** SPL Token-2022 program. */
export const TOKEN_2022_PROGRAM_ADDRESS = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb";
/** Associated Token Account program. */
export const ASSOCIATED_TOKEN_PROGRAM_ADDRESS = "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL";
/** Compute Budget program. */
export const COMPUTE_BUDGET_PROGRAM_ADDRESS = "ComputeBudget111111111111111111111111111111";
/** Memo program (v2). */
export const MEMO_PROGRAM_ADDRESS = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr";
/** Memo program (v1, legacy). */
export const MEMO_V1_PROGRAM_ADDRESS = "Memo1UhkJRfHyvLMcVucJwxXeuD728EQVDDwQDxFMNo";
/** The wrapped SOL (native) mint of SPL Token. */
export const WRAPPED_SOL_MINT_ADDRESS = "So11111111111111111111111111111111111111112";
/**
 * The `contract_address` of native SOL in the sandbox catalogue (the System Program id). Native SOL must be
 * wrapped before a swap, so a quote whose source token is this address is checked against the wrapped SOL mint.
 */
export const NATIVE_SOL_ADDRESS = SYSTEM_PROGRAM_ADDRESS;

/** Programs a cosign transaction may call without the caller allowing more. */
export const DEFAULT_ALLOWED_PROGRAMS: readonly string[] = Object.freeze([
  SYSTEM_PROGRAM_ADDRESS,
  TOKEN_PROGRAM_ADDRESS,
  TOKEN_2022_PROGRAM_ADDRESS,
  ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
  COMPUTE_BUDGET_PROGRAM_ADDRESS,
  MEMO_PROGRAM_ADDRESS,
  MEMO_V1_PROGRAM_ADDRESS,
]);
