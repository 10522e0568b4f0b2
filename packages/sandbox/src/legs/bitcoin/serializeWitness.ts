/** Serialize a witness stack (BIP-144) for `finalScriptWitness`. */
export function serializeWitness(items: Uint8Array[]): Uint8Array {
  const varint = (n: number) => {
    if (n < 0xfd) return [n];
    return [0xfd, n & 0xff, n >> 8];
  };
  const parts: number[] = [...varint(items.length)];
  for (const item of items) parts.push(...varint(item.length), ...item);
  return Uint8Array.from(parts);
}
