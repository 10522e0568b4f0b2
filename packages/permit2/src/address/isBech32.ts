/** BIP-173 data characters, in value order. */
const CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
const GENERATORS = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
/** The checksum constants of bech32 (BIP-173) and bech32m (BIP-350). */
const BECH32_CONST = 1;
const BECH32M_CONST = 0x2bc830a3;

/**
 * Whether `value` is a bech32 or bech32m string: one case, at most 90 characters, a human-readable part of
 * 1 to 83 printable characters, the last `1` as separator, at least 6 data characters of the BIP-173 alphabet, and
 * a valid checksum. Only the checksum rule, kept this small so the root entry needs no codec library; the tests
 * hold it equal to `@scure/base`'s decoder.
 */
export function isBech32(value: string): boolean {
  if (value.length < 8 || value.length > 90) return false;
  const lower = value.toLowerCase();
  if (value !== lower && value !== value.toUpperCase()) return false;
  const separator = lower.lastIndexOf("1");
  if (separator < 1 || separator + 7 > lower.length) return false;
  let checksum = 1;
  const step = (v: number) => {
    const top = checksum >>> 25;
    checksum = ((checksum & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) checksum ^= GENERATORS[i]!;
  };
  for (let i = 0; i < separator; i++) {
    const code = lower.charCodeAt(i);
    if (code < 33 || code > 126) return false;
    step(code >>> 5);
  }
  step(0);
  for (let i = 0; i < separator; i++) step(lower.charCodeAt(i) & 31);
  for (let i = separator + 1; i < lower.length; i++) {
    const v = CHARSET.indexOf(lower[i]!);
    if (v === -1) return false;
    step(v);
  }
  return checksum === BECH32_CONST || checksum === BECH32M_CONST;
}
