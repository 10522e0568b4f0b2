import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { assertRsaPublicKeyDer, readPkcs1FromSpki } from "./readPkcs1FromSpki.js";

const rsa = (modulusLength: number, publicExponent = 65537) =>
  generateKeyPairSync("rsa", { modulusLength, publicExponent }).publicKey;

describe("readPkcs1FromSpki", () => {
  for (const [bits, exponent] of [
    [1024, 65537],
    [2048, 65537],
    [2048, 3],
  ] as const) {
    it(`returns node:crypto's PKCS#1 export of a ${bits}-bit key (e = ${exponent})`, () => {
      const key = rsa(bits, exponent);
      const spki = new Uint8Array(key.export({ type: "spki", format: "der" }));
      const expected = new Uint8Array(key.export({ type: "pkcs1", format: "der" }));
      expect(readPkcs1FromSpki(spki)).toEqual(expected);
    });
  }

  it("refuses an EC key, a truncated key, trailing bytes, a wrong tag and unused bits", () => {
    const ec = generateKeyPairSync("ec", { namedCurve: "P-256" }).publicKey;
    expect(() => readPkcs1FromSpki(new Uint8Array(ec.export({ type: "spki", format: "der" })))).toThrow(
      "not an rsaEncryption key",
    );
    const spki = new Uint8Array(rsa(1024).export({ type: "spki", format: "der" }));
    expect(() => readPkcs1FromSpki(spki.subarray(0, spki.length - 1))).toThrow("truncated DER");
    expect(() => readPkcs1FromSpki(new Uint8Array([...spki, 0]))).toThrow("expected one DER SEQUENCE");
    const pkcs1Only = new Uint8Array(rsa(1024).export({ type: "pkcs1", format: "der" }));
    expect(() => readPkcs1FromSpki(pkcs1Only)).toThrow();
    const wrongTag = spki.slice();
    wrongTag[0] = 0x31;
    expect(() => readPkcs1FromSpki(wrongTag)).toThrow("expected one DER SEQUENCE");
    // the BIT STRING's unused-bits byte sits right after its header: 0x03 0x81 len 0x00 for 1024 bits
    const bitStringAt = spki.indexOf(0x03, 15);
    const unused = spki.slice();
    unused[bitStringAt + 3] = 1;
    expect(() => readPkcs1FromSpki(unused)).toThrow("unused bits");
    expect(() => readPkcs1FromSpki(new Uint8Array([]))).toThrow("truncated DER");
  });

  it("assertRsaPublicKeyDer accepts node's PKCS#1 export and refuses other structures", () => {
    const pkcs1 = new Uint8Array(rsa(1024).export({ type: "pkcs1", format: "der" }));
    expect(assertRsaPublicKeyDer(pkcs1)).toBe(pkcs1);
    const spki = new Uint8Array(rsa(1024).export({ type: "spki", format: "der" }));
    expect(() => assertRsaPublicKeyDer(spki)).toThrow("expected the modulus and exponent INTEGERs");
    expect(() => assertRsaPublicKeyDer(new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x05]))).toThrow(
      "truncated DER",
    );
    expect(() => assertRsaPublicKeyDer(new Uint8Array([0x04, 0x00]))).toThrow("RSAPublicKey SEQUENCE");
  });
});
