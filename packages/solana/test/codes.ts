import type { SolanaErrorCode } from "../src/errors.js";

/**
 * Test support: every code of `@swapintent/solana`, once. The record type makes the compiler check that the list
 * is complete and holds no code outside the union.
 */
export const SOLANA_ERROR_CODES: Readonly<Record<SolanaErrorCode, true>> = {
  SOL_INVALID_PARAMETERS: true,
  SOL_MECHANISM_MISMATCH: true,
  SOL_INVALID_ADDRESS: true,
  SOL_ESCROW_NOT_SPECIFIED: true,
  SOL_TX_DECODE_FAILED: true,
  SOL_TX_VERSION_UNSUPPORTED: true,
  SOL_USER_NOT_SIGNER: true,
  SOL_USER_IS_FEE_PAYER: true,
  SOL_LOOKUP_TABLE_UNRESOLVED: true,
  SOL_DURABLE_NONCE: true,
  SOL_PROGRAM_NOT_ALLOWED: true,
  SOL_INSTRUCTION_UNKNOWN: true,
  SOL_AUTHORITY_GRANT: true,
  SOL_USER_ROLE_NOT_ALLOWED: true,
  SOL_OTHER_AUTHORITY: true,
  SOL_MINT_MISMATCH: true,
  SOL_DECIMALS_MISMATCH: true,
  SOL_DESTINATION_NOT_ALLOWED: true,
  SOL_EXTRA_OUTFLOW: true,
  SOL_AMOUNT_MISMATCH: true,
  SOL_NATIVE_OUTFLOW_TOO_HIGH: true,
  SOL_MEMO_MISMATCH: true,
  SOL_MEMO_NOT_UTF8: true,
  SOL_MEMO_UNSAFE_TEXT: true,
  SOL_SIGNER_INVALID: true,
  SOL_WALLET_MESSAGE_CHANGED: true,
  SOL_SIGNATURE_INVALID: true,
};
