// The copy `readParameters.ts` makes is what every later check reads, and it holds what the caller's object held:
// an array (params_to_sign.inputs) is copied item by item into a plain array, never through the array's own
// `slice` or its constructor's Symbol.species, which a caller's object may answer with anything (a proxy whose
// items change between the check and the use).
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { buildDeposit, hex, userKey } from "../test/fixtures.js";
import { isBitcoinError } from "./errors.js";
import { signHtlcPsbt, verifyHtlcPsbt } from "./index.js";

const userPublicKey = hex(userKey.publicKey);
const deposit = buildDeposit();

/** An object whose index reads answer [0, 1] the first `honest` times, then 7 (no input of the deposit). */
function shifting(honest: number): unknown[] {
  let reads = 0;
  return new Proxy([] as unknown[], {
    get(target, key) {
      if (key === "length") return 2;
      if (key === "0" || key === "1") return reads++ < honest ? Number(key) : 7;
      return Reflect.get(target, key);
    },
  });
}

/** Arrays holding [0, 1] whose `slice` (own method, or through Symbol.species) returns a shifting proxy. */
function hostileArrays(): [string, unknown[]][] {
  // Array.prototype.slice builds its result with `constructor[Symbol.species]`.
  const species = [0, 1];
  // A constructor, not an arrow function (which slice would refuse with a TypeError).
  const speciesConstructor = {
    [Symbol.species]: class {
      constructor() {
        // biome-ignore lint/correctness/noConstructorReturn: the point of the attack
        return shifting(4);
      }
    },
  };
  Object.defineProperty(species, "constructor", { value: speciesConstructor });
  const ownSlice = [0, 1];
  Object.defineProperty(ownSlice, "slice", { value: () => shifting(4) });
  return [
    ["Symbol.species", species],
    ["own slice", ownSlice],
    ["proxy of an array", new Proxy([0, 1], {})],
  ];
}

function withInputs(inputs: unknown) {
  return {
    ecc,
    intent: { ...deposit.intent, paramsToSign: { ...deposit.intent.paramsToSign, inputs } },
    quote: deposit.quote,
    userPublicKey,
  } as Parameters<typeof verifyHtlcPsbt>[0];
}

describe("params_to_sign.inputs is copied item by item before it is checked", () => {
  for (const [name, inputs] of hostileArrays()) {
    it(`${name}: the inputs checked are the inputs signed, [0, 1]`, async () => {
      expect(verifyHtlcPsbt(withInputs(inputs)).inputs.map((i) => i.index)).toEqual([0, 1]);
      const { verified } = await signHtlcPsbt({ ...withInputs(inputs), signer: userKey });
      expect(verified.inputs.map((i) => i.index)).toEqual([0, 1]);
    });
  }

  it("a proxy whose items change after the first reads: each item read once, so the check sees what is used", () => {
    for (const honest of [0, 1, 2, 3, 4]) {
      let result: unknown;
      try {
        result = verifyHtlcPsbt(withInputs(shifting(honest))).inputs.map((i) => i.index);
      } catch (error) {
        result = isBitcoinError(error) ? error.code : error;
      }
      // 0 or 1 honest reads: an item is 7, refused; 2 and more: [0, 1] (no item is read a second time).
      expect(result).toEqual(honest < 2 ? "BTC_INPUT_INDEX_INVALID" : [0, 1]);
    }
  });
});

describe("what the copy keeps for callers' objects", () => {
  const base = withInputs(deposit.intent.paramsToSign.inputs);
  const parameterOf = (run: () => unknown) => {
    try {
      run();
      return "verified";
    } catch (error) {
      return isBitcoinError(error) ? `${error.code} ${JSON.stringify(error.details)}` : error;
    }
  };

  it("frozen, null-prototype and structuredClone'd objects, a Buffer key: read as they are", () => {
    const nullPrototype = Object.assign(Object.create(null) as object, base, {
      intent: Object.assign(Object.create(null) as object, structuredClone(deposit.intent)),
    });
    for (const parameters of [
      Object.freeze({ ...base, intent: Object.freeze(structuredClone(deposit.intent)) }),
      nullPrototype,
      { ...base, userPublicKey: Buffer.from(userKey.publicKey) },
    ]) {
      expect(parameterOf(() => verifyHtlcPsbt(parameters as typeof base))).toBe("verified");
    }
  });

  it("only own enumerable fields: an inherited field or a class getter is not read (README)", () => {
    class Parameters {
      get ecc() {
        return ecc;
      }
    }
    const { ecc: _, ...rest } = base;
    const inherited = Object.assign(new Parameters(), rest);
    for (const parameters of [Object.create(base) as typeof base, inherited as unknown as typeof base]) {
      expect(parameterOf(() => verifyHtlcPsbt(parameters))).toBe('BTC_PARAMETER_INVALID {"parameter":"ecc"}');
    }
  });
});
