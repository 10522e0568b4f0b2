import { type Address, address, getAddressDecoder, isAddress } from "@solana/kit";
import { findAssociatedTokenPda, getTokenDecoder, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import type { LegToken } from "../types.js";
import { LegRejection } from "../types.js";
import {
  FEE_RESERVE,
  NATIVE_SOL_ADDRESS,
  SOL_DECIMALS,
  USDC_DECIMALS,
  WRAPPED_SOL_MINT,
} from "./constants.js";
import type { ResolvedToken, StartedSolanaLeg } from "./types.js";

/** A catalogue token by address or symbol (SOL, wSOL, USDC); anything else: `TOKEN_UNKNOWN`. */
export function resolveSolanaToken({ leg, token }: { leg: StartedSolanaLeg; token: string }): ResolvedToken {
  if (token === NATIVE_SOL_ADDRESS || token === "SOL") return { kind: "native" };
  if (token === WRAPPED_SOL_MINT || token === "wSOL")
    return { kind: "spl", mint: WRAPPED_SOL_MINT, decimals: SOL_DECIMALS };
  if (token === leg.keys.usdcMint.address || token === "USDC")
    return { kind: "spl", mint: leg.keys.usdcMint.address, decimals: USDC_DECIMALS };
  throw new LegRejection("TOKEN_UNKNOWN", `unknown Solana token ${token}`);
}

/** A base58 Solana address; anything else: `ADDRESS_INVALID` naming the field `what`. */
export function parseSolanaAddress({ value, what }: { value: string; what: string }): Address {
  if (!isAddress(value)) throw new LegRejection("ADDRESS_INVALID", `the ${what} is not a Solana address`);
  return address(value);
}

/** Whether `publicKeyHex` (32 bytes of hex) is the key behind the address `value`. */
export function solanaKeyMatchesAddress(value: string, publicKeyHex: string | null): boolean {
  if (publicKeyHex === null || !/^[0-9a-fA-F]{64}$/.test(publicKeyHex)) return false;
  return getAddressDecoder().decode(Buffer.from(publicKeyHex, "hex")) === value;
}

/** The associated token account of `owner` for `mint`. */
export async function getAta({ owner, mint }: { owner: Address; mint: Address }): Promise<Address> {
  return (await findAssociatedTokenPda({ owner, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];
}

/** The amount a token account holds (0 when it does not exist or is not an SPL Token account). */
export function getTokenAccountBalance({
  leg,
  account,
}: {
  leg: StartedSolanaLeg;
  account: Address;
}): bigint {
  const info = leg.engine.svm.getAccount(account);
  if (!info.exists || info.programAddress !== TOKEN_PROGRAM_ADDRESS) return 0n;
  return getTokenDecoder().decode(info.data).amount;
}

/** `ChainLeg.balanceOf` of the Solana leg: lamports for SOL, the owner's associated token account otherwise. */
export async function getSolanaBalance({
  leg,
  owner,
  token,
}: {
  leg: StartedSolanaLeg;
  owner: string;
  token: string;
}): Promise<bigint> {
  const resolved = resolveSolanaToken({ leg, token });
  const account = parseSolanaAddress({ value: owner, what: "address" });
  if (resolved.kind === "native") return leg.engine.lamports(account);
  return getTokenAccountBalance({ leg, account: await getAta({ owner: account, mint: resolved.mint }) });
}

/** `ChainLeg.inventory` of the Solana leg: the resolver's balance, less its fee reserve for SOL. */
export async function getSolanaInventory({
  leg,
  token,
}: {
  leg: StartedSolanaLeg;
  token: string;
}): Promise<bigint> {
  const resolved = resolveSolanaToken({ leg, token });
  const resolver = leg.keys.resolver.address;
  if (resolved.kind === "native") {
    const balance = leg.engine.lamports(resolver) - FEE_RESERVE;
    return balance > 0n ? balance : 0n;
  }
  return getTokenAccountBalance({ leg, account: await getAta({ owner: resolver, mint: resolved.mint }) });
}

/** The leg's catalogue: SOL (wrapping to wSOL), wSOL and the sandbox USDC. */
export function listSolanaTokens({ leg }: { leg: StartedSolanaLeg }): LegToken[] {
  return [
    {
      symbol: "SOL",
      name: "Solana",
      decimals: SOL_DECIMALS,
      contractAddress: NATIVE_SOL_ADDRESS,
      wrappedTokenAddress: WRAPPED_SOL_MINT,
      iconUrl: "",
    },
    {
      symbol: "wSOL",
      name: "Wrapped SOL",
      decimals: SOL_DECIMALS,
      contractAddress: WRAPPED_SOL_MINT,
      wrappedTokenAddress: null,
      iconUrl: "",
    },
    {
      symbol: "USDC",
      name: "USD Coin (sandbox)",
      decimals: USDC_DECIMALS,
      contractAddress: leg.keys.usdcMint.address,
      wrappedTokenAddress: null,
      iconUrl: "",
    },
  ];
}

/** A payment's token, recipient and amount, checked: `TOKEN_UNKNOWN`, `ADDRESS_INVALID`, `AMOUNT_INVALID` (not positive). */
export function parseSolanaPayment({
  leg,
  token,
  recipient,
  amountLots,
  what,
}: {
  leg: StartedSolanaLeg;
  token: string;
  recipient: string;
  amountLots: bigint;
  /** The recipient field's name, for the error. */
  what: string;
}): { token: ResolvedToken; recipient: Address } {
  const resolved = resolveSolanaToken({ leg, token });
  const parsed = parseSolanaAddress({ value: recipient, what });
  if (amountLots <= 0n) throw new LegRejection("AMOUNT_INVALID", "the amount must be positive");
  return { token: resolved, recipient: parsed };
}
