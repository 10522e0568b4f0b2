/**
 * `verifyStrict` against node:crypto (OpenSSL's Ed25519: cofactorless, S reduced), an implementation independent of
 * noble: honest signatures, every single-bit flip of one signature, and signatures from other keys and messages.
 */
import { createPublicKey, verify as nodeVerify } from "node:crypto";
import { ed25519 } from "@noble/curves/ed25519";
import { describe, expect, it } from "vitest";
import { hexToBytes } from "./hex.js";
import { verifyStrict } from "./verifyStrict.js";

function openssl(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  const spki = Uint8Array.from([...hexToBytes("302a300506032b6570032100"), ...publicKey]);
  const key = createPublicKey({ key: Buffer.from(spki), format: "der", type: "spki" });
  return nodeVerify(null, message, key, signature);
}

describe("verifyStrict agrees with OpenSSL", () => {
  it("honest signatures of 50 keys verify; a signature under another key or message does not", () => {
    for (let i = 0; i < 50; i++) {
      const secret = ed25519.utils.randomPrivateKey();
      const publicKey = ed25519.getPublicKey(secret);
      const message = ed25519.utils.randomPrivateKey().subarray(0, i);
      const signature = ed25519.sign(message, secret);
      expect(verifyStrict(signature, message, publicKey)).toBe(true);
      expect(openssl(signature, message, publicKey)).toBe(true);
      const other = ed25519.getPublicKey(ed25519.utils.randomPrivateKey());
      expect(verifyStrict(signature, message, other)).toBe(openssl(signature, message, other));
      const changed = Uint8Array.of(...message, 0);
      expect(verifyStrict(signature, changed, publicKey)).toBe(false);
    }
  });

  it("every single-bit flip of a signature (512): the same verdict as OpenSSL, and never accepted", () => {
    const secret = ed25519.utils.randomPrivateKey();
    const publicKey = ed25519.getPublicKey(secret);
    const message = new TextEncoder().encode("swapintent cosign");
    const signature = ed25519.sign(message, secret);
    for (let bit = 0; bit < 512; bit++) {
      const flipped = signature.slice();
      flipped[bit >> 3]! ^= 1 << (bit & 7);
      const ours = verifyStrict(flipped, message, publicKey);
      expect(ours, `bit ${bit}`).toBe(openssl(flipped, message, publicKey));
      expect(ours, `bit ${bit}`).toBe(false);
    }
  });

  it("wrong lengths are refused", () => {
    const secret = ed25519.utils.randomPrivateKey();
    const publicKey = ed25519.getPublicKey(secret);
    const signature = ed25519.sign(new Uint8Array(1), secret);
    expect(verifyStrict(signature.subarray(0, 63), new Uint8Array(1), publicKey)).toBe(false);
    expect(verifyStrict(signature, new Uint8Array(1), publicKey.subarray(0, 31))).toBe(false);
  });
});
