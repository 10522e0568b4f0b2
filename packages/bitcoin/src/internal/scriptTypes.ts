// Internal: script types of inputs and outputs, their dust limits and the witness sizes the fee estimate uses.

/** Native segwit output types this package accepts as deposit inputs (their spends cannot change the txid). */
export type SegwitKind = "p2wpkh" | "p2wsh" | "p2tr";

/** The native segwit type of an output script, or null (legacy, P2SH-wrapped, or an unknown witness version). */
export function getSegwitKind(script: Uint8Array): SegwitKind | null {
  if (script.length === 22 && script[0] === 0x00 && script[1] === 0x14) return "p2wpkh";
  if (script.length === 34 && script[0] === 0x00 && script[1] === 0x20) return "p2wsh";
  if (script.length === 34 && script[0] === 0x51 && script[1] === 0x20) return "p2tr";
  return null;
}

/** 21,000,000 BTC in satoshis: consensus refuses any amount, or sum of amounts, above it (`MoneyRange`). */
export const MAX_MONEY_LOTS = 2_100_000_000_000_000n;

/**
 * Bitcoin Core's dust limits (default dustrelayfee, 3 sat/vB) for the output types a deposit may create: an
 * output below it is not relayed.
 */
export const DUST_LIMIT_LOTS: Record<"p2wpkh" | "p2tr", bigint> = { p2wpkh: 294n, p2tr: 330n };

/**
 * Witness weight (BIP-141 weight units) counted for an input of each type, from its script type alone and never
 * from witness data in the PSBT: P2TR key path (count, length, 64-byte signature; 65 with an explicit sighash
 * byte), P2WPKH (count, 72-byte signature, 33-byte key), P2WSH the smallest witness that can exist (count,
 * length, 1-byte script). A larger real witness only lowers the real fee rate, so the cap stays a cap.
 */
export function witnessWeightOf(kind: SegwitKind, sighashType: number | undefined): bigint {
  if (kind === "p2tr") return sighashType !== undefined && sighashType !== 0 ? 67n : 66n;
  if (kind === "p2wpkh") return 108n;
  return 3n;
}
