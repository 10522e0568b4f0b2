import { solanaError } from "../errors.js";

const HEX_CHARS = "0123456789abcdef";

/** Lower-case hex of `bytes`, without a 0x prefix. Plain Uint8Array, no Node Buffer. */
export function bytesToHex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += HEX_CHARS[byte >> 4]! + HEX_CHARS[byte & 15]!;
  return out;
}

/** Bytes of a hex string (an optional 0x prefix is accepted); throws `SOL_TX_DECODE_FAILED` on malformed hex. */
export function hexToBytes(hex: string): Uint8Array {
  const body = hex.startsWith("0x") || hex.startsWith("0X") ? hex.slice(2) : hex;
  if (body.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(body)) {
    throw solanaError("SOL_TX_DECODE_FAILED", "The transaction is not valid hex.", { reason: "not hex" });
  }
  const out = new Uint8Array(body.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(body.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Whether two byte arrays are equal. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A copy of `value` when it is a genuine `Uint8Array` (or a Node `Buffer`), read from its internal slots with no
 * code of the value's own running (no Proxy trap, getter, iterator or overridden method); undefined otherwise. What
 * an untrusted answer (a wallet's, a signer's) holds is copied first and only the copy is checked and used, so the
 * bytes checked are the bytes used.
 */
export function ownBytes(value: unknown): Uint8Array | undefined {
  // The intrinsic getters of every typed array (a Proxy or an own property cannot answer for them).
  const typedArray = Object.getPrototypeOf(Uint8Array.prototype) as object;
  const typedArrayName = Object.getOwnPropertyDescriptor(typedArray, Symbol.toStringTag)!.get!;
  const byteLength = Object.getOwnPropertyDescriptor(typedArray, "byteLength")!.get!;
  if (typedArrayName.call(value) !== "Uint8Array") return undefined;
  const source = value as Uint8Array;
  const copy = new Uint8Array(Reflect.apply(byteLength, source, []) as number);
  Reflect.apply(Uint8Array.prototype.set, copy, [source]);
  return copy;
}
