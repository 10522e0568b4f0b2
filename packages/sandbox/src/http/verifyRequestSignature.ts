import { createHash, createPublicKey, createVerify, type KeyObject } from "node:crypto";
import { parseJsonLossless } from "../json/parseJsonLossless.js";
import { stringifyCanonicalJson } from "../json/stringifyCanonicalJson.js";

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

/**
 * Sort a raw query string by key (stable, so repeated keys keep their order) and re-encode each key and value
 * with `encodeURIComponent`, as the client signs it.
 */
export function formatSignedQuery(rawQuery: string): string {
  if (rawQuery === "") return "";
  const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, " "));
  return rawQuery
    .split("&")
    .filter((part) => part !== "")
    .map((part) => {
      const eq = part.indexOf("=");
      return eq < 0 ? [decode(part), ""] : [decode(part.slice(0, eq)), decode(part.slice(eq + 1))];
    })
    .sort(([a], [b]) => ((a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0))
    .map(([k, v]) => `${encodeURIComponent(k as string)}=${encodeURIComponent(v as string)}`)
    .join("&");
}

/**
 * The canonical string of design §2, `METHOD:PATH:QUERY:BODY`: the query sorted by key, the JSON body
 * re-serialized with sorted keys and no whitespace (numbers keep their source text), empty segments empty.
 * Throws a `JsonSyntaxError` for a body that is not JSON.
 */
export function formatCanonicalRequest({
  method,
  path,
  rawQuery,
  body,
}: {
  method: string;
  path: string;
  rawQuery: string;
  body: string;
}): string {
  const canonicalBody =
    body.trim() === "" ? "" : stringifyCanonicalJson({ value: parseJsonLossless({ text: body }) });
  return `${method.toUpperCase()}:${path}:${formatSignedQuery(rawQuery)}:${canonicalBody}`;
}

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
