import { createVerify, type KeyObject } from "node:crypto";

/**
 * Verify an `x-api-signature` (base64 RSASSA-PKCS1-v1_5 / SHA-256) over a canonical request string.
 */
export function verifyRequestSignature({
  key,
  canonical,
  signature,
}: {
  key: KeyObject;
  canonical: string;
  signature: string;
}): boolean {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) return false;
  const verifier = createVerify("RSA-SHA256");
  verifier.update(canonical, "utf8");
  try {
    return verifier.verify(key, Buffer.from(signature, "base64"));
  } catch {
    return false;
  }
}
