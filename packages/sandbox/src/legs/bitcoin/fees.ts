/** Fee rate of every transaction the leg builds, satoshis per vbyte. */
export const FEE_RATE_SAT_PER_VBYTE = 2n;
/** Outputs below this many satoshis are dust: change under it goes to the fee, deliveries under it are refused. */
export const DUST_LOTS = 330n;

// Weight units (BIP-141) used to estimate fees before signing.
/** Version, locktime, counts (x4) + segwit marker and flag. */
export const TX_OVERHEAD_WU = 42n;
export const P2TR_INPUT_WU = 41n * 4n + 66n;
export const P2WPKH_INPUT_WU = 41n * 4n + 108n;
/** An HTLC claim input: signature, secret, leaf and control block in the witness. */
export const HTLC_CLAIM_INPUT_WU = 41n * 4n + 1n + 65n + 33n + 71n + 34n;
export const P2TR_OUTPUT_WU = 43n * 4n;
export const P2WPKH_OUTPUT_WU = 31n * 4n;

/** The fee of a transaction of `weight` weight units at the leg's fee rate (vbytes rounded up). */
export function getFee(weight: bigint): bigint {
  return FEE_RATE_SAT_PER_VBYTE * ((weight + 3n) / 4n);
}

/** The weight of an output paying `script` (P2TR when 34 bytes, P2WPKH otherwise). */
export function getOutputWeight(script: Uint8Array): bigint {
  return script.length === 34 ? P2TR_OUTPUT_WU : P2WPKH_OUTPUT_WU;
}

/** Bytes as lower-case hex. */
export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}

/** Hex to bytes. */
export function fromHex(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex, "hex"));
}

/** Largest value first (coin selection order). */
export function byValueDescending(a: { value: bigint }, b: { value: bigint }): number {
  return a.value > b.value ? -1 : a.value < b.value ? 1 : 0;
}
