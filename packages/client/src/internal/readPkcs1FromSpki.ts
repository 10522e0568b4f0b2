/** DER of the rsaEncryption OID, 1.2.840.113549.1.1.1. */
const rsaEncryptionOid = [0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01];

interface Tlv {
  tag: number;
  /** First byte of the value. */
  start: number;
  /** One past the last byte of the value. */
  end: number;
}

/** Reads one DER tag-length-value at `offset` (definite lengths only, as DER requires). */
function readTlv(der: Uint8Array, offset: number, limit: number): Tlv {
  if (offset + 2 > limit) throw new Error("truncated DER");
  const tag = der[offset] as number;
  let length = der[offset + 1] as number;
  let start = offset + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4 || start + count > limit) throw new Error("unsupported DER length");
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + (der[start + i] as number);
    start += count;
  }
  const end = start + length;
  if (end > limit) throw new Error("truncated DER");
  return { tag, start, end };
}

/**
 * Returns the PKCS#1 `RSAPublicKey` DER inside an RSA SubjectPublicKeyInfo DER: the content of its BIT STRING,
 * the same bytes as node's `createPublicKey(key).export({ type: "pkcs1", format: "der" })`.
 *
 * @throws `Error` when `spki` is not a well-formed SPKI of an rsaEncryption key.
 */
export function readPkcs1FromSpki(spki: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const outer = readTlv(spki, 0, spki.length);
  if (outer.tag !== 0x30 || outer.end !== spki.length) throw new Error("expected one DER SEQUENCE");
  const algorithm = readTlv(spki, outer.start, outer.end);
  if (algorithm.tag !== 0x30) throw new Error("expected the AlgorithmIdentifier SEQUENCE");
  const oid = spki.subarray(algorithm.start, algorithm.start + rsaEncryptionOid.length);
  if (oid.length !== rsaEncryptionOid.length || oid.some((byte, i) => byte !== rsaEncryptionOid[i]))
    throw new Error("not an rsaEncryption key");
  const bits = readTlv(spki, algorithm.end, outer.end);
  if (bits.tag !== 0x03 || bits.end !== outer.end)
    throw new Error("expected the subjectPublicKey BIT STRING");
  if (spki[bits.start] !== 0) throw new Error("the BIT STRING has unused bits");
  return assertRsaPublicKeyDer(spki.subarray(bits.start + 1, bits.end));
}

/**
 * Returns `pkcs1` when it is a DER `RSAPublicKey`: one SEQUENCE of exactly two INTEGERs (modulus, exponent).
 *
 * @throws `Error` otherwise.
 */
export function assertRsaPublicKeyDer(pkcs1: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const sequence = readTlv(pkcs1, 0, pkcs1.length);
  if (sequence.tag !== 0x30 || sequence.end !== pkcs1.length)
    throw new Error("expected the RSAPublicKey SEQUENCE");
  const modulus = readTlv(pkcs1, sequence.start, sequence.end);
  const exponent = readTlv(pkcs1, modulus.end, sequence.end);
  if (modulus.tag !== 0x02 || exponent.tag !== 0x02 || exponent.end !== sequence.end)
    throw new Error("expected the modulus and exponent INTEGERs");
  return pkcs1;
}
