import { p2tr, p2wpkh } from "@scure/btc-signer";
import * as ecc from "tiny-secp256k1";
import { expect, it } from "vitest";
import { hex, strangerKey, userKey } from "../test/fixtures.js";
import { getUserScripts } from "./getUserScripts.js";

it("derives the same BIP-86 P2TR and P2WPKH scripts as @scure/btc-signer", () => {
  for (const key of [userKey, strangerKey]) {
    const scripts = getUserScripts({ ecc, publicKey: hex(key.publicKey) });
    expect(hex(scripts.p2tr)).toBe(hex(p2tr(key.publicKey.slice(1)).script));
    expect(hex(scripts.p2wpkh)).toBe(hex(p2wpkh(key.publicKey).script));
    expect(hex(scripts.xOnly)).toBe(hex(key.publicKey.slice(1)));
  }
});

it("refuses a key that is not a compressed point", () => {
  expect(() => getUserScripts({ ecc, publicKey: "04".padEnd(66, "1") })).toThrow(
    expect.objectContaining({ code: "BTC_PUBLIC_KEY_INVALID" }),
  );
  expect(() => getUserScripts({ ecc, publicKey: "zz" })).toThrow(
    expect.objectContaining({ code: "BTC_PUBLIC_KEY_INVALID" }),
  );
});
