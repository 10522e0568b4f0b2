/** Little-endian unsigned integer of `size` bytes at `offset`, as bigint; `undefined` when the data is too short. */
export function readUintLE(data: Uint8Array, offset: number, size: number): bigint | undefined {
  if (offset < 0 || offset + size > data.length) return undefined;
  let value = 0n;
  for (let i = size - 1; i >= 0; i--) value = (value << 8n) | BigInt(data[offset + i]!);
  return value;
}
