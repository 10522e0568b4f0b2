/** isBech32 accepts exactly what @scure/base's bech32 and bech32m decoders accept (differential, fast-check). */
import { bech32, bech32m } from "@scure/base";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isBech32 } from "./isBech32.js";

const scureAccepts = (value: string) =>
  [bech32, bech32m].some((coder) => {
    try {
      coder.decode(value as `${string}1${string}`, 90);
      return true;
    } catch {
      return false;
    }
  });

const CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";

describe("isBech32 agrees with @scure/base", () => {
  it("on real addresses, their other case, mixed case and one-character changes", () => {
    const valid = [
      "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080",
      "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
      "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0",
      "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7",
      "a12uel5l",
      "A12UEL5L",
      "abcdef1l7aum6echk45nj3s0wdvt2fg8x9yrzpqzd3ryx",
    ];
    const cases = valid.flatMap((v) => [
      v,
      v.toUpperCase(),
      `${v.slice(0, 3)}${v.slice(3).toUpperCase()}`,
      `${v.slice(0, -1)}${v.endsWith("q") ? "p" : "q"}`,
      v.replace("1", "i"),
      `${v}q`,
    ]);
    for (const value of cases) expect(isBech32(value), value).toBe(scureAccepts(value));
    for (const value of valid) expect(isBech32(value), value).toBe(true);
  });

  it("on random strings of the alphabet with a separator, in either case", () => {
    const data = fc.array(fc.constantFrom(...CHARSET.split("")), { minLength: 0, maxLength: 90 });
    fc.assert(
      fc.property(fc.constantFrom("bc", "tb", "bcrt", "a", "?!"), data, fc.boolean(), (hrp, chars, upper) => {
        const value = `${hrp}1${chars.join("")}`;
        const spelled = upper ? value.toUpperCase() : value;
        expect(isBech32(spelled)).toBe(scureAccepts(spelled));
      }),
      { seed: 20261128, numRuns: 400 },
    );
  });
});
