/**
 * An address from a request is bounded before bitcoinjs reads it: `address.toOutputScript` tries a base58check
 * decode first, quadratic in the length, so 80 000 characters in `refund_address` (of a 1 MB body) took ~5 s. The
 * work is bounded, not timed: bitcoinjs is never handed more than 90 characters.
 */
import { address, initEccLib, networks, payments } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { scriptOfAddress } from "./scriptOfAddress.js";

vi.mock("bitcoinjs-lib", async (importOriginal) => {
  const original = await importOriginal<typeof import("bitcoinjs-lib")>();
  return {
    ...original,
    address: { ...original.address, toOutputScript: vi.fn(original.address.toOutputScript) },
  };
});
const toOutputScript = vi.mocked(address.toOutputScript);
/** The lengths of the texts bitcoinjs was asked to read since the last clear. */
const handed = () => toOutputScript.mock.calls.map(([text]) => text.length);

initEccLib(ecc); // as the Bitcoin leg does when it loads
const pubkey = Uint8Array.from(
  Buffer.from("0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798", "hex"),
);

describe("scriptOfAddress", () => {
  beforeEach(() => {
    toOutputScript.mockClear();
  });

  it("refuses 80 000 base58 characters before bitcoinjs reads them", () => {
    expect(scriptOfAddress("z".repeat(80_000))).toBeNull();
    expect(handed()).toEqual([]);
  });

  it("still reads regtest P2WPKH and P2TR addresses; refuses anything over 90 characters", () => {
    const p2wpkh = payments.p2wpkh({ pubkey, network: networks.regtest });
    const p2tr = payments.p2tr({ internalPubkey: pubkey.subarray(1), network: networks.regtest });
    for (const { address, output } of [p2wpkh, p2tr]) expect(scriptOfAddress(address!)).toEqual(output);
    expect(scriptOfAddress(`${p2tr.address}${"q".repeat(91 - p2tr.address!.length)}`)).toBeNull();
    expect(handed()).toEqual([p2wpkh.address!.length, p2tr.address!.length]);
  });
});
