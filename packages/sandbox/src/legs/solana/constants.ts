import { address } from "@solana/kit";

/** The `contract_address` of native SOL in the catalogue (the System Program id); it wraps to wSOL. */
export const NATIVE_SOL_ADDRESS = "11111111111111111111111111111111";
/** The wrapped SOL mint (litesvm's native mint, the real address). */
export const WRAPPED_SOL_MINT = address("So11111111111111111111111111111111111111112");
/** The Memo program (v2). */
export const MEMO_PROGRAM_ADDRESS = address("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr");

/** Lamports the resolver starts with (100,000 SOL). */
export const RESOLVER_AIRDROP = 100_000_000_000_000n;
/** Lamports the resolver keeps out of its native inventory for fees and rent. */
export const FEE_RESERVE = 10_000_000_000n;
/** Initial inventory of the resolver: 10,000,000 USDC. */
export const USDC_INVENTORY = 10_000_000_000_000n;
/** Initial inventory of the resolver: 10,000 wSOL. */
export const WSOL_INVENTORY = 10_000_000_000_000n;
export const USDC_DECIMALS = 6;
export const SOL_DECIMALS = 9;
