import { BaseError } from "../errors/baseError.js";

/** Keys for request signing (design §2): an RSA key pair; the service knows the public key. */
export interface RequestSigningOptions {
  /** RSASSA-PKCS1-v1_5 / SHA-256 private key: a WebCrypto `CryptoKey` with usage `sign`, or PKCS#8 PEM text. */
  privateKey: CryptoKey | string;
  /** The matching public key: a WebCrypto `CryptoKey` or SPKI PEM text. Its SPKI DER hash is sent as `x-api-key`. */
  publicKey: CryptoKey | string;
}

/** Computes the signing headers for one attempt of one request. */
export type RequestSigner = (request: {
  method: string;
  canonical: string;
}) => Promise<Record<string, string>>;

const algorithm = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } as const;

/**
 * Creates the signer behind `createClient({ requestSigning })`, using only WebCrypto (`globalThis.crypto.subtle`),
 * so it runs unchanged in Node 20 and browsers. Per attempt it returns:
 *
 * - `x-api-key`: base64 (standard alphabet, padded) of SHA-256 over the public key's SPKI DER bytes;
 * - `x-api-signature`: base64 of the RSASSA-PKCS1-v1_5 / SHA-256 signature over the UTF-8 bytes of the canonical
 *   string `METHOD:PATH:QUERY:BODY` (see `formatCanonicalRequest`);
 * - `x-api-timestamp`: unix seconds at signing;
 * - `x-api-nonce`: a fresh random UUID, on every POST (a retried POST is signed again with a new nonce).
 *
 * Keys are imported once, lazily, on the first signed request.
 */
export function createRequestSigner({ signing }: { signing: RequestSigningOptions }): RequestSigner {
  let keys: Promise<{ privateKey: CryptoKey; keyId: string }> | undefined;
  return async ({ method, canonical }) => {
    keys ??= importKeys(signing);
    let imported: { privateKey: CryptoKey; keyId: string };
    try {
      imported = await keys;
    } catch (error) {
      keys = undefined;
      throw error;
    }
    let signature: ArrayBuffer;
    try {
      signature = await crypto.subtle.sign(
        algorithm,
        imported.privateKey,
        new TextEncoder().encode(canonical),
      );
    } catch (error) {
      throw new BaseError("SIGNING_FAILED", "WebCrypto could not sign the request with the private key.", {
        cause: error,
      });
    }
    const headers: Record<string, string> = {
      "x-api-key": imported.keyId,
      "x-api-signature": toBase64(new Uint8Array(signature)),
      "x-api-timestamp": String(Math.floor(Date.now() / 1000)),
    };
    if (method === "POST") headers["x-api-nonce"] = crypto.randomUUID();
    return headers;
  };
}

async function importKeys(signing: RequestSigningOptions): Promise<{ privateKey: CryptoKey; keyId: string }> {
  if (!globalThis.crypto?.subtle) {
    throw new BaseError("SIGNING_FAILED", "Request signing needs WebCrypto (globalThis.crypto.subtle).");
  }
  let privateKey: CryptoKey;
  try {
    privateKey =
      typeof signing.privateKey === "string"
        ? await crypto.subtle.importKey(
            "pkcs8",
            fromPem(signing.privateKey, "PRIVATE KEY"),
            algorithm,
            false,
            ["sign"],
          )
        : signing.privateKey;
  } catch (error) {
    throw new BaseError("INVALID_OPTIONS", "`requestSigning.privateKey` is not a PKCS#8 RSA private key.", {
      details: { field: "requestSigning.privateKey" },
      cause: error,
    });
  }
  let spki: ArrayBuffer;
  try {
    spki =
      typeof signing.publicKey === "string"
        ? fromPem(signing.publicKey, "PUBLIC KEY")
        : await crypto.subtle.exportKey("spki", signing.publicKey);
  } catch (error) {
    throw new BaseError("INVALID_OPTIONS", "`requestSigning.publicKey` is not an SPKI public key.", {
      details: { field: "requestSigning.publicKey" },
      cause: error,
    });
  }
  const keyId = toBase64(new Uint8Array(await crypto.subtle.digest("SHA-256", spki)));
  return { privateKey, keyId };
}

function fromPem(pem: string, label: string): ArrayBuffer {
  const match = new RegExp(`-----BEGIN ${label}-----([A-Za-z0-9+/=\\s]+)-----END ${label}-----`).exec(pem);
  if (!match) throw new Error(`expected a PEM block labelled ${label}`);
  const binary = atob((match[1] ?? "").replace(/\s+/g, ""));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
