import { createHash, createPublicKey, type KeyObject } from "node:crypto";

/** A partner's public key, indexed by the `x-api-key` it signs with. */
export interface SigningKey {
  /** base64 of SHA-256 over the key's SPKI DER bytes. */
  keyId: string;
  key: KeyObject;
}

/** Import an SPKI PEM RSA public key and compute its key id (design §2). */
export function importSigningKey(pem: string): SigningKey {
  const key = createPublicKey(pem);
  const der = key.export({ type: "spki", format: "der" });
  return { keyId: createHash("sha256").update(der).digest("base64"), key };
}
