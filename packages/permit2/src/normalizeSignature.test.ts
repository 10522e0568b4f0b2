import { isSwapIntentError } from "@swapintent/client";
import { hashMessage, recoverAddress, Signature } from "ethers";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { USER_PRIVATE_KEY } from "../test/fixtures/buildPermit2Fixture.js";
import { normalizeSignature } from "./normalizeSignature.js";

describe("normalizeSignature", async () => {
  const signature = await privateKeyToAccount(USER_PRIVATE_KEY).signMessage({ message: "swapintent" });
  const v = Number.parseInt(signature.slice(130), 16);
  const body = signature.slice(2, 130);

  it("keeps 27/28 and maps 0/1 to 27/28, with or without 0x, upper or lower case", () => {
    expect(v === 27 || v === 28).toBe(true);
    expect(normalizeSignature({ signature })).toBe(signature);
    expect(normalizeSignature({ signature: `0x${body}0${v - 27}` })).toBe(signature);
    expect(normalizeSignature({ signature: `${body.toUpperCase()}0${v - 27}` })).toBe(signature);
    // ethers parses the normalized form to the same r, s and v.
    const parsed = Signature.from(normalizeSignature({ signature: `${body}0${v - 27}` }));
    expect(parsed.v).toBe(v);
    expect(parsed.r).toBe(`0x${body.slice(0, 64)}`);
  });

  it("rejects other v values and wrong lengths", () => {
    for (const bad of [`0x${body}02`, `0x${body}1d`, `0x${body}`, "0x", `0x${body}1b00`]) {
      let code: string | undefined;
      try {
        normalizeSignature({ signature: bad });
      } catch (error) {
        code = isSwapIntentError(error) ? error.code : "other";
      }
      expect(code).toBe("PERMIT2_SIGNATURE_INVALID");
    }
  });

  it("turns a high-s signature into its low-s twin (v flipped), which recovers to the same signer", () => {
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const s = BigInt(`0x${body.slice(64)}`);
    const highS = `0x${body.slice(0, 64)}${(n - s).toString(16).padStart(64, "0")}${v === 27 ? "1c" : "1b"}`;
    expect(normalizeSignature({ signature: highS })).toBe(signature);
    // ethers, independently: the output is canonical and recovers to the signer.
    expect(recoverAddress(hashMessage("swapintent"), normalizeSignature({ signature: highS }))).toBe(
      privateKeyToAccount(USER_PRIVATE_KEY).address,
    );
  });

  it("rejects r or s of 0 or not below the curve order", () => {
    const n = "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141";
    const s = body.slice(64);
    const r = body.slice(0, 64);
    for (const bad of [
      `${"0".repeat(64)}${s}1b`,
      `${n}${s}1b`,
      `${r}${"0".repeat(64)}1b`,
      `${r}${n}1b`,
      `${r}${"f".repeat(64)}1b`,
    ]) {
      let code: string | undefined;
      try {
        normalizeSignature({ signature: bad });
      } catch (error) {
        code = isSwapIntentError(error) ? error.code : "other";
      }
      expect(code).toBe("PERMIT2_SIGNATURE_INVALID");
    }
  });
});
