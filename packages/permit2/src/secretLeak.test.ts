/**
 * No secret leaves in an error: a marker private key planted in every input that can hold one (and in the wrong
 * places: as an address, an amount, inside a signer object, one character off, the wrong length, not hex) never
 * appears in any text of the refusal (String, stack, JSON, util.inspect, the cause chain) nor on the console.
 */
import { isSwapIntentError } from "@swapintent/client";
import * as tronweb from "tronweb";
import { createWalletClient, custom } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { createMarkerSecret, leakOf } from "../../client/test/expectNoSecret.js";
import { buildPermit2Fixture, TRON } from "../test/fixtures/buildPermit2Fixture.js";
import { signPermit2Approval } from "./evm/signPermit2Approval.js";
import { signTronPermit2Approval } from "./tron/signTronPermit2Approval.js";
import { verifyPermit2Approval } from "./verify/verifyPermit2Approval.js";

const marker = createMarkerSecret();
const key = `0x${marker.hex}` as const;
/** The forms a key can be passed in, right or wrong. */
const keyForms: Record<string, unknown> = {
  hex: key,
  bareHex: marker.hex,
  upperHex: `0x${marker.hex.toUpperCase()}`,
  oneCharOff: `0x${marker.hex.slice(0, 31)}g${marker.hex.slice(32)}`,
  tooShort: `0x${marker.hex.slice(0, 62)}`,
  tooLong: `0x${marker.hex}00`,
  notHex: `not-hex-${marker.hex}`,
  bytes: marker.bytes,
  bigint: BigInt(key),
  object: { privateKey: key },
  array: [...marker.bytes],
};
const secrets = [marker.bytes, marker.hex];

/** The fixture's verification parameters for one chain. */
function parametersOf(chain: "evm" | "tron") {
  const { intent, quote, expected, allowedPermit2Addresses, nowMs } = buildPermit2Fixture({ chain });
  return { intent, quote, expected, allowedPermit2Addresses, nowMs };
}
const evmParameters = () => parametersOf("evm");
const tronParameters = () => parametersOf("tron");

async function expectNoLeak(run: () => unknown) {
  const { error, leak } = await leakOf(run, secrets);
  expect(isSwapIntentError(error), String(error)).toBe(true);
  expect(leak, `${String(error)}`).toBeNull();
}

const sign = (extra: Record<string, unknown>) => () =>
  signPermit2Approval({ ...evmParameters(), ...extra } as never);
const signTron = (extra: Record<string, unknown>) => () =>
  signTronPermit2Approval({ ...tronParameters(), ...extra } as never);

describe.each(Object.entries(keyForms))("a key as %s", (_form, value) => {
  const signTypedData = async () => `0x${"11".repeat(65)}`;
  it.each([
    ["signer.address", () => sign({ signer: { address: value, signTypedData } })],
    ["signer itself", () => sign({ signer: value })],
    ["signer.account.address", () => sign({ signer: { account: { address: value }, signTypedData } })],
    [
      "account of a wallet client",
      () =>
        sign({
          signer: createWalletClient({ transport: custom({ request: async () => [] }) }),
          account: value,
        }),
    ],
    ["account of a provider", () => sign({ provider: { request: async () => "0x1" }, account: value })],
    [
      "tron privateKey (a valid one signs for another owner)",
      () => signTron({ privateKey: value, expected: { ...tronParameters().expected, owner: TRON.resolver } }),
    ],
    ["tron signer.address", () => signTron({ signer: { address: value, signTypedData } })],
    [
      "tron tronLink address",
      () => signTron({ tronLink: { defaultAddress: { base58: value }, trx: { signTypedData } } }),
    ],
    ["tron tronWeb", () => signTron({ privateKey: value, tronWeb: { Trx: {} } })],
  ])("%s", async (_name, build) => {
    await expectNoLeak(build());
  });
  // Not `recipient`: any non-empty text is a destination address on some chain, and a mismatch names it.
  it.each(["chainId", "spender", "owner", "chainType", "sourceToken", "sourceAmountLots", "sourceDecimals"])(
    "expected.%s",
    async (field) => {
      const parameters = evmParameters();
      const expected = { ...parameters.expected, [field]: value };
      await expectNoLeak(() => verifyPermit2Approval({ ...parameters, expected } as never));
      // (signing sets chainType from the entry, so that one is refused by verification only)
      if (field !== "chainType")
        await expectNoLeak(() =>
          signPermit2Approval({
            ...parameters,
            expected,
            signer: privateKeyToAccount(`0x${"01".repeat(32)}`),
          } as never),
        );
    },
  );
  it.each(["nowMs", "maxDeadlineSecs", "allowedPermit2Addresses"])("option %s", async (field) => {
    await expectNoLeak(() => verifyPermit2Approval({ ...evmParameters(), [field]: value } as never));
  });
  it("signal", async () => {
    await expectNoLeak(sign({ signer: privateKeyToAccount(`0x${"01".repeat(32)}`), signal: value }));
    await expectNoLeak(signTron({ privateKey: `0x${"01".repeat(32)}`, signal: value }));
  });
});

describe("a real key whose signing fails", () => {
  it("a viem account of the key, refused as another owner", async () => {
    const parameters = evmParameters();
    await expectNoLeak(() =>
      signPermit2Approval({
        ...parameters,
        expected: { ...parameters.expected, owner: "0x0000000000000000000000000000000000000001" },
        signer: privateKeyToAccount(key),
      } as never),
    );
  });
  it("tronweb signs with the key and fails", async () => {
    await expectNoLeak(
      signTron({
        privateKey: key,
        tronWeb: {
          Trx: {
            signTypedData: () => {
              throw new Error("boom");
            },
          },
        },
      }),
    );
  });
  it("real tronweb asked with a malformed intent", async () => {
    await expectNoLeak(signTron({ privateKey: key, tronWeb: tronweb, nowMs: 0.5 }));
  });
  it("aborted while the key is held", async () => {
    await expectNoLeak(sign({ signer: privateKeyToAccount(key), signal: AbortSignal.abort() }));
  });
});
