import { encodeBase58, getBytes, sha256 } from "ethers";
import { TronWeb } from "tronweb";
import { describe, expect, it } from "vitest";
import { codeOf } from "../../test/codeOf.js";
import { formatTronAddress } from "./formatTronAddress.js";
import { parseTronAddress } from "./parseTronAddress.js";

/** base58check with ethers' primitives (independent of the code under test). */
function base58check(payloadHex: string): string {
  const payload = getBytes(payloadHex);
  const checksum = getBytes(sha256(sha256(payload))).slice(0, 4);
  const all = new Uint8Array([...payload, ...checksum]);
  return encodeBase58(all);
}

const hex20 = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";

describe("parseTronAddress / formatTronAddress", () => {
  it("agree with TronWeb's conversions both ways", () => {
    const tron = TronWeb.address.fromHex(`41${hex20.slice(2)}`);
    expect(tron).toBe("TYBNgWfhGuNzdLtjKtxXTfskAhTbMcqbaG");
    expect(parseTronAddress({ address: tron })).toBe(hex20);
    expect(formatTronAddress({ address: hex20 })).toBe(tron);
    expect(formatTronAddress({ address: `41${hex20.slice(2)}` })).toBe(tron);
    expect(`0x${TronWeb.address.toHex(tron).slice(2)}`).toBe(parseTronAddress({ address: tron }));
  });

  it("round-trips random addresses like TronWeb", () => {
    for (let i = 1; i < 40; i++) {
      const hex = `0x${(BigInt(i) * 0x1f2e3d4c5b6a79881726354453627180n).toString(16).padStart(40, "0").slice(-40)}`;
      const tron = TronWeb.address.fromHex(`41${hex.slice(2)}`);
      expect(formatTronAddress({ address: hex })).toBe(tron);
      expect(parseTronAddress({ address: tron })).toBe(hex);
    }
  });

  it("rejects a bad checksum", () => {
    const good = base58check(`0x41${hex20.slice(2)}`);
    const last = good.at(-1)!;
    const bad = `${good.slice(0, -1)}${last === "z" ? "y" : "z"}`;
    expect(TronWeb.isAddress(bad)).toBe(false);
    expect(codeOf(() => parseTronAddress({ address: bad }))).toBe("PERMIT2_TRON_ADDRESS_INVALID");
  });

  it("rejects a valid base58check payload with another prefix than 0x41", () => {
    const bitcoinLike = base58check(`0x00${hex20.slice(2)}`);
    const otherPrefix = base58check(`0x42${hex20.slice(2)}`);
    expect(codeOf(() => parseTronAddress({ address: bitcoinLike }))).toBe("PERMIT2_TRON_ADDRESS_INVALID");
    expect(codeOf(() => parseTronAddress({ address: otherPrefix }))).toBe("PERMIT2_TRON_ADDRESS_INVALID");
  });

  it("rejects wrong lengths, non-base58 characters and non-hex input", () => {
    expect(codeOf(() => parseTronAddress({ address: base58check(`0x41${hex20.slice(4)}`) }))).toBe(
      "PERMIT2_TRON_ADDRESS_INVALID",
    );
    expect(codeOf(() => parseTronAddress({ address: "T0OIl" }))).toBe("PERMIT2_TRON_ADDRESS_INVALID");
    expect(codeOf(() => parseTronAddress({ address: "" }))).toBe("PERMIT2_TRON_ADDRESS_INVALID");
    expect(codeOf(() => formatTronAddress({ address: "0x1234" }))).toBe("PERMIT2_TRON_ADDRESS_INVALID");
  });
});
