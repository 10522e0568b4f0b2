// Internal byte helpers (not exported from the package).

export function hexToBytes(hex: string): Uint8Array | null {
  const clean = hex.startsWith("0x") ? hex.slice(2) : hex;
  if (clean.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(clean)) return null;
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(clean.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export function bytesToHex(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += b.toString(16).padStart(2, "0");
  return s;
}

/**
 * A signer's `publicKey` as an error may print it: its hex when it is 33 bytes starting 02 or 03 (a compressed key's
 * shape), else nothing of it (whatever else sits there may be the private key, 32 bytes, in the wrong field).
 */
export function publicKeyForError(value: Uint8Array): string {
  return value?.length === 33 && (value[0]! | 1) === 3 ? bytesToHex(value) : "(not a public key)";
}

export function equalBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Split a serialized witness stack (BIP-144 encoding) into its items, or null when malformed. */
export function decodeWitnessStack(bytes: Uint8Array): Uint8Array[] | null {
  let pos = 0;
  const readVarInt = (): number | null => {
    const first = bytes[pos];
    if (first === undefined) return null;
    pos += 1;
    if (first < 0xfd) return first;
    const size = first === 0xfd ? 2 : first === 0xfe ? 4 : 8;
    if (pos + size > bytes.length) return null;
    let n = 0;
    for (let i = size - 1; i >= 0; i--) n = n * 256 + (bytes[pos + i] ?? 0);
    pos += size;
    return n;
  };
  const count = readVarInt();
  if (count === null) return null;
  const items: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const len = readVarInt();
    if (len === null || pos + len > bytes.length) return null;
    items.push(bytes.slice(pos, pos + len));
    pos += len;
  }
  return pos === bytes.length ? items : null;
}

/** Bitcoin's CompactSize encoding of `n` (a length prefix). */
export function compactSize(n: number): Uint8Array {
  if (n < 0xfd) return Uint8Array.of(n);
  if (n <= 0xffff) return Uint8Array.of(0xfd, n & 0xff, n >>> 8);
  return Uint8Array.of(0xfe, n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24);
}

/** Lexicographic comparison of two byte strings (negative, zero or positive). */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}
