/**
 * The errors guide's `getNextStep` (examples/errors.ts) on errors the packages really throw: a local input check, an
 * unreachable service, a signer's refusal, a wallet that said no, and an error that is none of ours.
 */
import { isBitcoinError, signHtlcPsbt } from "@swapintent/bitcoin";
import { createSwapIntentClient, type Intent, parseLots, type Quote } from "@swapintent/client";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { getNextStep } from "../examples/errors.js";

/** What a call threw. */
async function thrown(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("the errors guide: getNextStep", () => {
  it("a parameter that fails a local check is ours to fix; nothing was sent", async () => {
    const error = await thrown(() => parseLots({ value: "1.2.3", decimals: 6 }));
    expect(getNextStep({ error })).toBe("fix-input");
  });

  it("a service that cannot be reached: the request may or may not have landed", async () => {
    const client = createSwapIntentClient({ baseUrl: "http://127.0.0.1:9", apiKey: "k", retry: false });
    const error = await thrown(() => client.getNetworks());
    expect(getNextStep({ error })).toBe("check-status");
  });

  it("a signer handed an intent that is not the kind it signs refuses it, and the wallet never signs", async () => {
    const intent = { approvalMechanism: "permit2", deadlineSecs: 0, paramsToSign: {} } as unknown as Intent;
    let signed = false;
    const error = await thrown(() =>
      signHtlcPsbt({
        ecc,
        intent,
        quote: {} as Quote,
        userPublicKey: "02".padEnd(66, "1"),
        signer: {
          publicKey: new Uint8Array(33),
          sign: () => {
            signed = true;
            return new Uint8Array(64);
          },
        },
      }),
    );
    expect(isBitcoinError(error) && error.code).toBe("BTC_MECHANISM_MISMATCH");
    expect(getNextStep({ error })).toBe("refuse");
    expect(signed).toBe(false);
  });

  it("an error of no swapintent package is thrown again", () => {
    const error = new TypeError("not ours");
    expect(() => getNextStep({ error })).toThrow(error);
  });
});
