/**
 * The programs a cosign transaction is made of, by role, base58. One frozen object (rather than one constant per
 * program) so that no name here is also an export of `@solana/kit`, `@solana/web3.js`, `@solana/spl-token` or the
 * `@solana-program/*` clients a wallet already imports.
 */
export const SOLANA_PROGRAM_ADDRESSES: Readonly<{
  /** System Program. */
  system: "11111111111111111111111111111111";
  /** SPL Token program. */
  token: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
  /** SPL Token-2022 program. */
  token2022: "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb";
  /** Associated Token Account program. */
  associatedToken: "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL";
  /** Compute Budget program. */
  computeBudget: "ComputeBudget111111111111111111111111111111";
  /** Memo program (v2). */
  memo: "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr";
  /** Memo program (v1, legacy). */
  memoV1: "Memo1UhkJRfHyvLMcVucJwxXeuD728EQVDDwQDxFMNo";
}> = Object.freeze({
  system: "11111111111111111111111111111111",
  token: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
  token2022: "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb",
  associatedToken: "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL",
  computeBudget: "ComputeBudget111111111111111111111111111111",
  memo: "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr",
  memoV1: "Memo1UhkJRfHyvLMcVucJwxXeuD728EQVDDwQDxFMNo",
});

/** The wrapped SOL (native) mint of SPL Token. */
export const WRAPPED_SOL_MINT_ADDRESS = "So11111111111111111111111111111111111111112";
/**
 * The `contract_address` of native SOL in the sandbox catalogue (the System Program id). Native SOL must be
 * wrapped before a swap, so a quote whose source token is this address is checked against the wrapped SOL mint.
 */
export const NATIVE_SOL_ADDRESS = SOLANA_PROGRAM_ADDRESSES.system;

/** Programs a cosign transaction may call without the caller allowing more. */
export const DEFAULT_ALLOWED_PROGRAMS: readonly string[] = Object.freeze(
  Object.values(SOLANA_PROGRAM_ADDRESSES),
);

/** @deprecated Use `SOLANA_PROGRAM_ADDRESSES.system` (the same address; this name is also `@solana-program/system`'s). */
export const SYSTEM_PROGRAM_ADDRESS = SOLANA_PROGRAM_ADDRESSES.system;
/** @deprecated Use `SOLANA_PROGRAM_ADDRESSES.token` (the same address; this name is also `@solana-program/token`'s). */
export const TOKEN_PROGRAM_ADDRESS = SOLANA_PROGRAM_ADDRESSES.token;
/** @deprecated Use `SOLANA_PROGRAM_ADDRESSES.token2022` (the same address; this name is also `@solana-program/token-2022`'s). */
export const TOKEN_2022_PROGRAM_ADDRESS = SOLANA_PROGRAM_ADDRESSES.token2022;
/** @deprecated Use `SOLANA_PROGRAM_ADDRESSES.associatedToken` (the same address; this name is also `@solana-program/token`'s). */
export const ASSOCIATED_TOKEN_PROGRAM_ADDRESS = SOLANA_PROGRAM_ADDRESSES.associatedToken;
/** @deprecated Use `SOLANA_PROGRAM_ADDRESSES.computeBudget` (the same address; this name is also `@solana-program/compute-budget`'s). */
export const COMPUTE_BUDGET_PROGRAM_ADDRESS = SOLANA_PROGRAM_ADDRESSES.computeBudget;
/** @deprecated Use `SOLANA_PROGRAM_ADDRESSES.memo` (the same address; this name is also `@solana-program/memo`'s). */
export const MEMO_PROGRAM_ADDRESS = SOLANA_PROGRAM_ADDRESSES.memo;
/** @deprecated Use `SOLANA_PROGRAM_ADDRESSES.memoV1` (the same address). */
export const MEMO_V1_PROGRAM_ADDRESS = SOLANA_PROGRAM_ADDRESSES.memoV1;
