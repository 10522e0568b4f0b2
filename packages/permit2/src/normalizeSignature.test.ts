import { isSwapIntentError } from "@swapintent/client";
import { Signature } from "ethers";
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
});
