/**
 * Service strings cannot forge the confirmation text: every string signed as text or shown is free of control,
 * bidi, zero-width and other invisible characters (`PERMIT2_TEXT_UNSAFE`), refused before any signing callback runs.
 */
import { isSwapIntentError } from "@swapintent/client";
import { DEFAULT_IGNORABLE_RANGES } from "@swapintent/client/internal";
import { describe, expect, it } from "vitest";
import { codeOf } from "../../test/codeOf.js";
import { type FixtureOptions, RECIPIENT } from "../../test/fixtures/buildPermit2Fixture.js";
import { parametersOf } from "../../test/fixtures/parametersOf.js";
import { signWithSpies } from "../../test/signWithSpies.js";
import { verifyPermit2Approval } from "./verifyPermit2Approval.js";

/** One of each kind of character that forges or hides text. */
const UNSAFE = [
  ["line feed", "\n"],
  ["carriage return", "\r"],
  ["NUL", "\u0000"],
  ["tab", "\t"],
  ["next line (C1)", "\u0085"],
  ["escape", "\u001b"],
  ["line separator", "\u2028"],
  ["paragraph separator", "\u2029"],
  ["right-to-left override", "\u202e"],
  ["left-to-right mark", "\u200e"],
  ["first strong isolate", "\u2068"],
  ["arabic letter mark", "\u061c"],
  ["zero-width space", "\u200b"],
  ["zero-width joiner", "\u200d"],
  ["word joiner", "\u2060"],
  ["byte-order mark", "\ufeff"],
  ["soft hyphen", "\u00ad"],
  ["tag character", "\u{e0041}"],
  ["lone surrogate", "\ud800"],
  ["Hangul filler", "\u3164"],
] as const;

/** The first and last code point of every default-ignorable range (they render as nothing), and the braille blank. */
const INVISIBLE = [...DEFAULT_IGNORABLE_RANGES.flat(), 0x2800].map(
  (codePoint) => [codePoint.toString(16).toUpperCase().padStart(4, "0"), codePoint] as const,
);

describe("service strings cannot forge the confirmation text (PERMIT2_TEXT_UNSAFE)", () => {
  it("refuses a forged dest_token with a fake 'Valid until' line", () => {
    const forged = "btc\nValid until 2099-01-01T00:00:00.000Z";
    const parameters = parametersOf({ witness: { destToken: forged } }, { destToken: forged }, null);
    expect(codeOf(() => verifyPermit2Approval(parameters))).toBe("PERMIT2_TEXT_UNSAFE");
  });

  it.each(UNSAFE)(
    "refuses a %s in the witness destToken and recipient, and in the quote's destToken",
    (_, char) => {
      const token = `b${char}tc`;
      const inToken = parametersOf({ witness: { destToken: token } }, { destToken: token }, null);
      expect(codeOf(() => verifyPermit2Approval(inToken))).toBe("PERMIT2_TEXT_UNSAFE");
      // The wallet's own recipient is the same string: the witness still must not carry it.
      const recipient = `${RECIPIENT}${char}`;
      const inRecipient = parametersOf({ witness: { recipient } });
      expect(
        codeOf(() =>
          verifyPermit2Approval({ ...inRecipient, expected: { ...inRecipient.expected, recipient } }),
        ),
      ).toBe("PERMIT2_TEXT_UNSAFE");
      const inQuoteOnly = parametersOf({}, { destToken: `btc${char}` }, null);
      expect(codeOf(() => verifyPermit2Approval(inQuoteOnly))).toBe("PERMIT2_TEXT_UNSAFE");
    },
  );

  it.each(INVISIBLE)(
    "refuses U+%s (renders as nothing) in the destToken and recipient, escaped in the error, before any key is asked",
    async (hex, codePoint) => {
      const char = String.fromCodePoint(codePoint);
      const token = `b${char}tc`;
      const inToken = parametersOf({ witness: { destToken: token } }, { destToken: token }, null);
      try {
        verifyPermit2Approval(inToken);
        throw new Error("expected a refusal");
      } catch (error) {
        if (!isSwapIntentError(error, "PERMIT2_TEXT_UNSAFE")) throw error;
        expect(error.shortMessage).toContain(`(U+${hex})`);
        expect(error.details.value).toBe(`b\\u{${codePoint.toString(16).toUpperCase()}}tc`);
        expect(error.message).not.toContain(char);
      }
      const recipient = `${RECIPIENT}${char}`;
      const inRecipient = parametersOf({ witness: { recipient } });
      expect(
        codeOf(() =>
          verifyPermit2Approval({ ...inRecipient, expected: { ...inRecipient.expected, recipient } }),
        ),
      ).toBe("PERMIT2_TEXT_UNSAFE");
      expect(codeOf(() => verifyPermit2Approval(parametersOf({}, { destToken: `btc${char}` }, null)))).toBe(
        "PERMIT2_TEXT_UNSAFE",
      );
      for (const chain of ["evm", "tron"] as const)
        expect(
          await signWithSpies(
            parametersOf({ chain, witness: { destToken: token } }, { destToken: token }, null),
            chain,
          ),
        ).toEqual({
          code: "PERMIT2_TEXT_UNSAFE",
          calls: 0,
        });
    },
  );

  it("refuses an empty or overlong witness string, accepts 256 characters", () => {
    const long = "b".repeat(257);
    expect(
      codeOf(() =>
        verifyPermit2Approval(parametersOf({ witness: { destToken: long } }, { destToken: long }, null)),
      ),
    ).toBe("PERMIT2_TEXT_UNSAFE");
    expect(
      codeOf(() =>
        verifyPermit2Approval(parametersOf({ witness: { destToken: "" } }, { destToken: "" }, null)),
      ),
    ).toBe("PERMIT2_TEXT_UNSAFE");
    const ok = "b".repeat(256);
    expect(
      verifyPermit2Approval(parametersOf({ witness: { destToken: ok } }, { destToken: ok }, null)).summary
        .destToken,
    ).toBe(ok);
  });

  it("never echoes the raw string in the error: details and message hold an escaped form", () => {
    const forged = "btc\u202eevil";
    try {
      verifyPermit2Approval(parametersOf({ witness: { destToken: forged } }, { destToken: forged }, null));
    } catch (error) {
      if (!isSwapIntentError(error, "PERMIT2_TEXT_UNSAFE")) throw error;
      expect(error.shortMessage).toBe(
        "witness.destToken holds a control, bidi or invisible character (U+202E).",
      );
      expect(JSON.stringify(error.details)).not.toContain("\u202e");
      expect(error.message).not.toContain("\u202e");
      expect(error.details.value).toBe("btc\\u{202E}evil");
      return;
    }
    throw new Error("expected a refusal");
  });

  it("escapes service strings in every error's details and message, whatever the code", () => {
    const forged = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512\nValid until 2099";
    try {
      const tamper: FixtureOptions["tamper"] = (p) => {
        p.escrowContractAddress = forged;
      };
      verifyPermit2Approval(parametersOf({ tamper }));
    } catch (error) {
      if (!isSwapIntentError(error, "PERMIT2_ADDRESS_INVALID")) throw error;
      expect(error.details.value).toBe("0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512\\u{A}Valid until 2099");
      // One line per detail after the first: no line came from the service.
      expect(error.message.split("\n")).toHaveLength(1 + Object.keys(error.details).length);
      return;
    }
    throw new Error("expected a refusal");
  });

  it("leaves no lone surrogate in a message whose long detail is cut (found by the generative test, seed 42)", () => {
    // A detail longer than SwapIntentError's 300-character cut, with astral characters around the cut.
    for (const offset of [0, 1, 2, 3]) {
      const extra = `${"x".repeat(offset)}${"\u{1F600}".repeat(200)}`;
      try {
        verifyPermit2Approval(
          parametersOf({
            tamper: (p) => {
              p.additionalData.types.SwapWitness![6] = {
                name: "maxDestAmount",
                type: "uint256",
                [extra]: 1,
              } as never;
            },
          }),
        );
      } catch (error) {
        if (!isSwapIntentError(error, "PERMIT2_TYPES_INVALID")) throw error;
        expect(error.message).not.toMatch(/[\uD800-\uDFFF]/);
        expect(error.message).toContain("\\u{1F600}");
        continue;
      }
      throw new Error("expected a refusal");
    }
  });

  it.each(["evm", "tron"] as const)("%s signers never call the key for a forged string", async (chain) => {
    const forged = "btc\nValid until 2099-01-01T00:00:00.000Z";
    const parameters = parametersOf({ chain, witness: { destToken: forged } }, { destToken: forged }, null);
    expect(await signWithSpies(parameters, chain)).toEqual({ code: "PERMIT2_TEXT_UNSAFE", calls: 0 });
  });
});
