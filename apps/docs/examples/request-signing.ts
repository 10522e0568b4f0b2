import { createRequestSigner, createSwapIntentClient, type SwapIntentClient } from "@swapintent/client";

/**
 * A client whose every request is signed with the partner's RSA key (RSASSA-PKCS1-v1_5 / SHA-256 over
 * `METHOD:PATH:QUERY:BODY`), as a service that requires request signing expects. The keys are PEM text (PKCS#8
 * private key; SPKI or PKCS#1 public key) or WebCrypto `CryptoKey`s; keep the private key out of the browser.
 */
export function createSignedClient({
  baseUrl,
  privateKeyPem,
  publicKeyPem,
}: {
  baseUrl: string;
  privateKeyPem: string;
  publicKeyPem: string;
}): SwapIntentClient {
  // x-api-key becomes the key id: base64 of SHA-256 over the public key's PKCS#1 DER (pass `keyId` if you were
  // issued one); x-api-signature, x-api-timestamp and, on every POST, a fresh x-api-nonce are added per request.
  const requestSigning = createRequestSigner({ privateKey: privateKeyPem, publicKey: publicKeyPem });
  return createSwapIntentClient({ baseUrl, requestSigning });
}
