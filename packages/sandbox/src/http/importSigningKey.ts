import { createHash, createPublicKey, type KeyObject } from "node:crypto";

/** A partner's RSA public key as configured: a PEM (SPKI or PKCS#1), optionally with the key id the partner was issued. */
export type PublicKeyConfig = string | { pem: string; keyId?: string };

/** A partner's public key and every `x-api-key` value that names it. */
export interface SigningKey {
  /**
   * The key's own id: the issued id when one is configured, otherwise base64 SHA-256 of the key's PKCS#1 DER
   * (the convention of the real service's published code). Partner scoping uses this id.
   */
  keyId: string;
  /** Every id accepted for this key: the issued id alone, or the PKCS#1 id plus the SPKI id of earlier clients. */
  acceptedIds: string[];
  key: KeyObject;
}

const sha256Base64 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("base64");

/**
 * Import a partner's RSA public key (PEM, SPKI or PKCS#1) and the key ids it signs with (design §2).
 * Without an issued id, `x-api-key` is base64(SHA-256(PKCS#1 DER)), and the SPKI-DER hash is accepted too for
 * clients written before the PKCS#1 convention; with an issued id, only that id names the key.
 * Throws an `Error` when the PEM is not an RSA public key.
 *
 * @example importSigningKey(readFileSync("partner.pub.pem", "utf8")).keyId
 */
export function importSigningKey(config: PublicKeyConfig): SigningKey {
  const { pem, keyId: issued } = typeof config === "string" ? { pem: config, keyId: undefined } : config;
  const key = createPublicKey(pem);
  if (key.asymmetricKeyType !== "rsa") throw new Error("a signing public key must be an RSA key");
  if (issued !== undefined) {
    if (issued === "") throw new Error("an issued key id must not be empty");
    return { keyId: issued, acceptedIds: [issued], key };
  }
  const pkcs1 = sha256Base64(key.export({ type: "pkcs1", format: "der" }));
  const spki = sha256Base64(key.export({ type: "spki", format: "der" }));
  return { keyId: pkcs1, acceptedIds: [pkcs1, spki], key };
}
