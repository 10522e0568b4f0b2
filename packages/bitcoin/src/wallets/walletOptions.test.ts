// The adapters' options are checked when the adapter is created: a wrong one (a bech32 prefix no Bitcoin network
// has, a provider without its signing method, an empty network name) or a read that throws is BTC_POLICY_INVALID
// naming the option, before any wallet is asked; before, a bad prefix threw bech32's own error while signing.
import { describe, expect, it } from "vitest";
import { hex, userKey } from "../../test/fixtures.js";
import { isBitcoinError } from "../errors.js";
import {
  createLeatherWalletSigner,
  createSatsConnectWalletSigner,
  createUnisatWalletSigner,
  type LeatherProvider,
  type SatsConnectRequest,
  type UnisatProvider,
} from "../wallets.js";

const publicKey = hex(userKey.publicKey);
const request = (async () => ({ status: "success", result: { psbt: "" } })) as SatsConnectRequest;
const unisat: UnisatProvider = { signPsbt: async () => "" };
const leather = { request: async () => ({ result: { hex: "" } }) } as unknown as LeatherProvider;

/** The error `create` throws (fails when it returns or throws something other than a bitcoin error). */
function creationError(create: () => unknown) {
  try {
    create();
  } catch (error) {
    if (isBitcoinError(error)) return error;
    throw new Error(`expected a bitcoin error, got ${String(error)}`);
  }
  throw new Error("the adapter was created");
}

const revoked = () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};
const withThrowingGetter = (base: object, name: string, thrown: unknown) =>
  Object.defineProperty({ ...base }, name, {
    get: () => {
      throw thrown;
    },
  });

type Case = [string, string, () => unknown];

const INVALID: Case[] = [
  ...["", "BC", "ltc", "bc1", "tb1", "bcrt\u0000", " bc", "x".repeat(84)].map(
    (prefix): Case => [
      `sats-connect bech32Prefix ${JSON.stringify(prefix)}`,
      "bech32Prefix",
      () => createSatsConnectWalletSigner({ request, publicKey, bech32Prefix: prefix }),
    ],
  ),
  ...[5, null, {}, ["bc"]].map(
    (prefix): Case => [
      `sats-connect bech32Prefix ${JSON.stringify(prefix)}`,
      "bech32Prefix",
      () => createSatsConnectWalletSigner({ request, publicKey, bech32Prefix: prefix as never }),
    ],
  ),
  ...[undefined, null, "request", {}].map(
    (value): Case => [
      `sats-connect request ${String(value)}`,
      "request",
      () => createSatsConnectWalletSigner({ request: value as never, publicKey }),
    ],
  ),
  ...[undefined, null, {}, { signPsbt: "x" }].map(
    (value): Case => [
      `unisat provider ${JSON.stringify(value)}`,
      "unisat",
      () => createUnisatWalletSigner({ unisat: value as never, publicKey }),
    ],
  ),
  ...[undefined, null, {}, { request: 1 }].map(
    (value): Case => [
      `leather provider ${JSON.stringify(value)}`,
      "leather",
      () => createLeatherWalletSigner({ leather: value as never, publicKey }),
    ],
  ),
  ...["", 5, null, {}].map(
    (value): Case => [
      `leather network ${JSON.stringify(value)}`,
      "network",
      () => createLeatherWalletSigner({ leather, publicKey, network: value as never }),
    ],
  ),
  [
    "unisat provider a revoked proxy",
    "unisat",
    () => createUnisatWalletSigner({ unisat: revoked() as never, publicKey }),
  ],
  [
    "leather provider a revoked proxy",
    "leather",
    () => createLeatherWalletSigner({ leather: revoked() as never, publicKey }),
  ],
];

describe("adapter options are checked at creation: BTC_POLICY_INVALID naming the option", () => {
  for (const [name, option, create] of INVALID) {
    it(name, () => {
      const error = creationError(create);
      expect({ code: error.code, details: error.details }).toEqual({
        code: "BTC_POLICY_INVALID",
        details: { policy: [option] },
      });
    });
  }

  it("an option whose read throws (a getter, forged error or not) is BTC_POLICY_INVALID with the throw as cause", () => {
    const forged = { name: "SwapIntentError", code: "BTC_SIGNING_ABORTED", shortMessage: "x", details: {} };
    const adapters: [string, object, (p: never) => unknown][] = [
      ["sats-connect", { request, publicKey, bech32Prefix: "tb" }, createSatsConnectWalletSigner],
      ["unisat", { unisat, publicKey }, createUnisatWalletSigner],
      ["leather", { leather, publicKey, network: "testnet" }, createLeatherWalletSigner],
    ];
    for (const [adapter, base, create] of adapters) {
      for (const option of Object.keys(base)) {
        for (const thrown of [new Error("getter"), "getter", undefined, forged]) {
          const error = creationError(() => create(withThrowingGetter(base, option, thrown) as never));
          expect(
            { code: error.code, details: error.details, cause: error.cause },
            `${adapter} ${option}`,
          ).toEqual({ code: "BTC_POLICY_INVALID", details: { policy: [option] }, cause: thrown });
        }
      }
    }
  });

  it("parameters that are not an object are BTC_POLICY_INVALID", () => {
    for (const create of [
      createSatsConnectWalletSigner,
      createUnisatWalletSigner,
      createLeatherWalletSigner,
    ]) {
      for (const parameters of [undefined, null, revoked()]) {
        expect(creationError(() => create(parameters as never)).code).toBe("BTC_POLICY_INVALID");
      }
    }
  });

  it("the documented values are accepted: every network prefix, a network name, no network", () => {
    for (const bech32Prefix of ["bc", "tb", "bcrt", undefined]) {
      expect(createSatsConnectWalletSigner({ request, publicKey, bech32Prefix }).publicKey).toEqual(
        userKey.publicKey,
      );
    }
    for (const network of ["mainnet", "testnet", "signet", undefined]) {
      expect(createLeatherWalletSigner({ leather, publicKey, network }).publicKey).toEqual(userKey.publicKey);
    }
    expect(createUnisatWalletSigner({ unisat, publicKey }).publicKey).toEqual(userKey.publicKey);
  });
});
