/**
 * No secret leaves in an error: a marker private key (as bytes, hex, WIF, an ecpair key pair, a `{ privateKey }`
 * object) planted in every input that can hold one, and in the wrong places (the public key, the signer, an amount,
 * a policy field, the PSBT), never appears in any text of the refusal (String, stack, JSON, util.inspect, the cause
 * chain) nor on the console.
 */
import { isSwapIntentError } from "@swapintent/client";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { createMarkerSecret, leakOf } from "../../client/test/expectNoSecret.js";
import { buildDeposit, ECPair, userKey } from "../test/fixtures.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import { signHtlcRefund } from "./signHtlcRefund.js";
import { verifyHtlcPsbt } from "./verifyHtlcPsbt/verifyHtlcPsbt.js";

const marker = createMarkerSecret();
const markerPair = ECPair.fromPrivateKey(marker.bytes);
const wif = markerPair.toWIF();
const secrets = [marker.bytes, marker.hex, wif];

/** The forms a key can be passed in, right or wrong. */
const keyForms: Record<string, unknown> = {
  bytes: marker.bytes,
  hex: marker.hex,
  hex0x: `0x${marker.hex}`,
  upperHex: marker.hex.toUpperCase(),
  oneCharOff: `${marker.hex.slice(0, 31)}g${marker.hex.slice(32)}`,
  tooShort: marker.hex.slice(0, 62),
  tooLong: `${marker.hex}00`,
  notHex: `not-hex-${marker.hex}`,
  wif,
  wifOneCharOff: `${wif.slice(0, 10)}0${wif.slice(11)}`,
  bigint: BigInt(`0x${marker.hex}`),
  keyPair: markerPair,
  object: { privateKey: marker.bytes },
  array: [...marker.bytes],
};

async function expectNoLeak(run: () => unknown) {
  const { error, leak } = await leakOf(run, secrets);
  expect(isSwapIntentError(error), String(error)).toBe(true);
  expect(leak, String(error)).toBeNull();
}

function signParameters(extra: Record<string, unknown>) {
  const deposit = buildDeposit();
  return {
    ecc,
    intent: deposit.intent,
    quote: deposit.quote,
    userPublicKey: userKey.publicKey,
    signer: userKey,
    ...extra,
  } as never;
}

function refundParameters(extra: Record<string, unknown>) {
  return {
    ecc,
    depositPsbt: buildDeposit().psbt,
    userPublicKey: userKey.publicKey,
    signer: userKey,
    feeLots: 500n,
    ...extra,
  } as never;
}

describe.each(Object.entries(keyForms))("a key as %s", (_form, value) => {
  it.each([
    ["signer", { signer: value }],
    ["signer.publicKey", { signer: { publicKey: value, sign: () => new Uint8Array(64) } }],
    ["userPublicKey", { userPublicKey: value }],
    ["quote.sourceAmountLots", { quote: { sourceAmountLots: value } }],
    ["nowMs", { nowMs: value }],
    ["signal", { signal: value }],
    [
      "policy.maxFeeRateSatPerVbyte",
      { policy: { maxFeeRateSatPerVbyte: typeof value === "bigint" ? 0.5 : value } },
    ],
    [
      "params_to_sign.psbt",
      { intent: { ...buildDeposit().intent, paramsToSign: { psbt: value, inputs: [0] } } },
    ],
  ])("signHtlcPsbt: %s", async (_name, extra) => {
    await expectNoLeak(() => signHtlcPsbt(signParameters(extra)));
  });
  it.each([
    ["userPublicKey", { userPublicKey: value }],
    ["quote.sourceAmountLots", { quote: { sourceAmountLots: value } }],
    ["policy.maxFeeLots", { policy: { maxFeeLots: typeof value === "bigint" ? -value : value } }],
  ])("verifyHtlcPsbt: %s", async (_name, extra) => {
    await expectNoLeak(() => verifyHtlcPsbt(signParameters(extra)));
  });
  it.each([
    ["signer", { signer: value }],
    ["signer.publicKey", { signer: { publicKey: value, signSchnorr: () => new Uint8Array(64) } }],
    ["userPublicKey", { userPublicKey: value }],
    ["feeLots", { feeLots: typeof value === "bigint" ? -value : value }],
    ["depositPsbt", { depositPsbt: value }],
  ])("signHtlcRefund: %s", async (_name, extra) => {
    await expectNoLeak(() => signHtlcRefund(refundParameters(extra)));
  });
});

// 32 or 33 bytes of hex is a key's shape: a mismatch names the pinned resolver key (the check's purpose), so only
// the other shapes are planted there.
const notKeyShaped = Object.entries(keyForms).filter(
  ([, value]) => !(typeof value === "string" && /^(0x)?([0-9a-f]{64}|[0-9a-f]{66})$/i.test(value)),
);
describe.each(notKeyShaped)("a key as %s", (_form, value) => {
  it("signHtlcPsbt: policy.resolverPublicKey", async () => {
    await expectNoLeak(() => signHtlcPsbt(signParameters({ policy: { resolverPublicKey: value } })));
  });
});

describe("what a refusal still says", () => {
  it("a quote amount that is no bigint by its type only (not even escaped text of it), a bigint as given", async () => {
    for (const [sourceAmountLots, shown] of [
      ["100000\u2028", "(string)"],
      [marker.bytes, "(object)"],
      [-5n, "-5"],
    ] as const) {
      const { error } = await leakOf(
        () => verifyHtlcPsbt(signParameters({ quote: { sourceAmountLots } })),
        secrets,
      );
      expect(error).toMatchObject({ code: "BTC_QUOTE_INVALID", details: { sourceAmountLots: shown } });
    }
  });
  it("a signer public key that is a point is named (hex); a key's 32 bytes not at all", async () => {
    const sign = (publicKey: Uint8Array) => () =>
      signHtlcPsbt(signParameters({ signer: { publicKey, sign: () => new Uint8Array(64) } }));
    const other = ECPair.fromPrivateKey(new Uint8Array(32).fill(7)).publicKey;
    expect((await leakOf(sign(other), secrets)).error).toMatchObject({
      code: "BTC_SIGNER_KEY_MISMATCH",
      details: { actual: Buffer.from(other).toString("hex") },
    });
    expect((await leakOf(sign(marker.bytes), secrets)).error).toMatchObject({
      code: "BTC_SIGNER_KEY_MISMATCH",
      details: { actual: "(not a public key)" },
    });
  });
});

describe("a real key whose signing is refused or fails", () => {
  it("an ecpair key pair of the marker, not the user's key", async () => {
    await expectNoLeak(() => signHtlcPsbt(signParameters({ signer: markerPair })));
    await expectNoLeak(() => signHtlcRefund(refundParameters({ signer: markerPair })));
  });
  it("the user's key aborted, and a signer that throws", async () => {
    const throwing = {
      publicKey: userKey.publicKey,
      sign: () => {
        throw new Error("device locked");
      },
      signSchnorr: () => {
        throw new Error("device locked");
      },
      privateKey: marker.bytes,
    };
    await expectNoLeak(() => signHtlcPsbt(signParameters({ signer: throwing })));
    await expectNoLeak(() =>
      signHtlcPsbt(
        signParameters({
          signal: AbortSignal.abort(),
          signer: { ...throwing, sign: userKey.sign.bind(userKey) },
        }),
      ),
    );
  });
});
