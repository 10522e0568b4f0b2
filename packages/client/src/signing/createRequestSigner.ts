import { type ClientError, createClientError } from "../errors/codes.js";
import { invalidInput } from "../internal/invalidInput.js";
import { assertRsaPublicKeyDer, readPkcs1FromSpki } from "../internal/readPkcs1FromSpki.js";
import { formatCanonicalRequest } from "./formatCanonicalRequest.js";
import type { QueryParameters } from "./formatQueryString.js";

/**
 * WebCrypto's `CryptoKey`: the global type where the program has one (TypeScript's DOM lib, or an `@types/node`
 * that declares it), otherwise {@link CryptoKeyFields}. So a Node program compiled without the DOM lib
 * (`@types/node` 20 has no global `CryptoKey`) still type-checks these declarations with `skipLibCheck: false`,
 * and can pass the keys of `crypto.webcrypto.subtle`.
 */
export type WebCryptoKey = typeof globalThis extends { CryptoKey: { prototype: infer K } }
  ? K
  : CryptoKeyFields;

/** The fields of a WebCrypto `CryptoKey`, for programs with no global `CryptoKey` type (see {@link WebCryptoKey}). */
export interface CryptoKeyFields {
  readonly type: string;
  readonly extractable: boolean;
  readonly algorithm: { readonly name: string };
  readonly usages: readonly string[];
}

/**
 * Keys for request signing (design §2): an RSA key pair; the service knows the public key.
 * Give `publicKey` (the key id is derived from it) or `keyId` (the id the service issued), or both (then `keyId` is sent).
 */
export interface RequestSigningOptions {
  /** RSASSA-PKCS1-v1_5 / SHA-256 private key: a WebCrypto `CryptoKey` with usage `sign`, or PKCS#8 PEM text. */
  privateKey: WebCryptoKey | string;
  /**
   * The matching public key: a WebCrypto `CryptoKey` (extractable), SPKI PEM text (`-----BEGIN PUBLIC KEY-----`)
   * or PKCS#1 PEM text (`-----BEGIN RSA PUBLIC KEY-----`).
   * The default key id, sent as `x-api-key`, is base64(SHA-256(PKCS#1 `RSAPublicKey` DER of this key)), as the
   * service operator's published code derives it.
   */
  publicKey?: WebCryptoKey | string | undefined;
  /** The key id the service issued, sent as `x-api-key` exactly as given (no hashing). Overrides the derived id. */
  keyId?: string | undefined;
}

/** One attempt of one request, as the transport hands it to a {@link RequestSigner}. */
export interface SignableRequest {
  /** `GET` or `POST`. */
  method: string;
  /** The URL path as sent (with any path prefix of the base URL), without the query. */
  path: string;
  /** The query parameters, in the order the action gave them (the signer sorts them). */
  query: QueryParameters | undefined;
  /** The body text exactly as sent (canonical JSON), or `undefined` for a request without a body. */
  body: string | undefined;
}

/**
 * Computes the signing headers for one attempt of one request. Pass one to `createSwapIntentClient({ requestSigning })`;
 * `createRequestSigner` makes the one the service documents. Credential headers it returns (`x-api-key`,
 * `x-api-signature`) are redacted from hooks and scrubbed from error text like an API key.
 */
export type RequestSigner = (request: SignableRequest) => Promise<Record<string, string>>;

const algorithm = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } as const;

/** Parameters of {@link createRequestSigner}: the keys (or key id) to sign with. */
export type CreateRequestSignerParameters = RequestSigningOptions;

/** What {@link createRequestSigner} returns. */
export type CreateRequestSignerReturnType = RequestSigner;

/** The errors {@link createRequestSigner} can throw. */
export type CreateRequestSignerErrorType = ClientError<"INVALID_OPTIONS" | "SIGNING_FAILED">;

/**
 * Creates the request signer to pass as `createSwapIntentClient({ requestSigning })`, using only WebCrypto (`globalThis.crypto.subtle`),
 * so it runs unchanged in Node 20 and browsers. Per attempt it returns:
 *
 * - `x-api-key`: `keyId` when given; otherwise base64 (standard alphabet, padded) of SHA-256 over the public key's
 *   PKCS#1 `RSAPublicKey` DER bytes (the BIT STRING content of its SPKI; what node's
 *   `createPublicKey(privateKey).export({ type: "pkcs1", format: "der" })` returns);
 * - `x-api-signature`: base64 of the RSASSA-PKCS1-v1_5 / SHA-256 signature over the UTF-8 bytes of the canonical
 *   string `METHOD:PATH:QUERY:BODY` (see `formatCanonicalRequest`);
 * - `x-api-timestamp`: unix seconds at signing;
 * - `x-api-nonce`: a fresh random UUID, on every POST (a retried POST is signed again with a new nonce).
 *
 * Keys are imported once, lazily, on the first signed request. Kept apart from `createSwapIntentClient` so that a client
 * without signing ships none of this code.
 *
 * @throws `INVALID_OPTIONS` at once when neither `publicKey` nor a non-empty `keyId` is given; an unusable key
 * fails the first call with `INVALID_OPTIONS`, before anything is sent.
 *
 * @example
 * import { createSwapIntentClient, createRequestSigner } from "@swapintent/client";
 * const client = createSwapIntentClient({
 *   baseUrl: "https://swap.example",
 *   requestSigning: createRequestSigner({ privateKey: pkcs8Pem, publicKey: spkiPem }),
 * });
 */
export function createRequestSigner(signing: CreateRequestSignerParameters): CreateRequestSignerReturnType {
  if (signing.keyId !== undefined && (typeof signing.keyId !== "string" || signing.keyId === "")) {
    throw invalidInput("requestSigning.keyId", "must be a non-empty string", undefined, "INVALID_OPTIONS");
  }
  if (signing.keyId === undefined && signing.publicKey === undefined) {
    throw invalidInput(
      "requestSigning.publicKey",
      "is needed to derive the key id (or give `keyId`)",
      undefined,
      "INVALID_OPTIONS",
    );
  }
  let keys: Promise<{ privateKey: CryptoKey; keyId: string }> | undefined;
  return async ({ method, path, query, body }) => {
    const canonical = formatCanonicalRequest({ method, path, query, body });
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
      throw createClientError(
        "SIGNING_FAILED",
        "WebCrypto could not sign the request with the private key.",
        {},
        error,
      );
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
    throw createClientError(
      "SIGNING_FAILED",
      "Request signing needs WebCrypto (globalThis.crypto.subtle).",
      {},
    );
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
    throw invalidInput(
      "requestSigning.privateKey",
      "must be a PKCS#8 RSA private key",
      undefined,
      "INVALID_OPTIONS",
      error,
    );
  }
  const keyId = signing.keyId ?? (await deriveKeyId(signing.publicKey as CryptoKey | string));
  return { privateKey, keyId };
}

/** base64(SHA-256(PKCS#1 DER)) of an RSA public key given as a `CryptoKey`, SPKI PEM or PKCS#1 PEM. */
async function deriveKeyId(publicKey: CryptoKey | string): Promise<string> {
  let pkcs1: Uint8Array<ArrayBuffer>;
  try {
    if (typeof publicKey === "string" && publicKey.includes("-----BEGIN RSA PUBLIC KEY-----")) {
      pkcs1 = assertRsaPublicKeyDer(new Uint8Array(fromPem(publicKey, "RSA PUBLIC KEY")));
    } else {
      const spki =
        typeof publicKey === "string"
          ? fromPem(publicKey, "PUBLIC KEY")
          : await crypto.subtle.exportKey("spki", publicKey);
      pkcs1 = readPkcs1FromSpki(new Uint8Array(spki));
    }
  } catch (error) {
    throw invalidInput(
      "requestSigning.publicKey",
      "must be an RSA public key (SPKI or PKCS#1)",
      undefined,
      "INVALID_OPTIONS",
      error,
    );
  }
  return toBase64(new Uint8Array(await crypto.subtle.digest("SHA-256", pkcs1)));
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
