// A wallet's answer as text and envelope: one PSBT in hex (Unisat, Leather), and envelopes whose reads throw.
import { isSwapIntentError } from "@swapintent/client";
import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { Psbt } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { buildDeposit, type Deposit, hex, strangerKey, userKey } from "../../test/fixtures.js";
import {
  createLeatherStandin,
  createSatsConnectStandin,
  createUnisatStandin,
} from "../../test/walletStandins.js";
import { signHtlcPsbt } from "../signHtlcPsbt.js";
import type { PsbtWalletSigner } from "../types.js";
import {
  createLeatherWalletSigner,
  createSatsConnectWalletSigner,
  createUnisatWalletSigner,
  type LeatherProvider,
  type SatsConnectRequest,
  type UnisatProvider,
} from "../wallets.js";

const userPublicKey = hex(userKey.publicKey);

async function outcome(deposit: Deposit, signer: PsbtWalletSigner) {
  try {
    const signed = await signHtlcPsbt({
      ecc,
      intent: deposit.intent,
      quote: deposit.quote,
      userPublicKey,
      signer,
    });
    const tx = Psbt.fromBase64(signed.psbt).extractTransaction().toHex();
    return {
      code: "ACCEPTED" as const,
      interpreter: runInterpreter({ txHex: tx, prevouts: deposit.prevouts }),
    };
  } catch (error) {
    if (!isSwapIntentError(error)) return { code: "UNCODED", error };
    return { code: error.code, details: error.details };
  }
}

const standinOptions = { key: userKey, other: strangerKey };

/** Unisat's stand-in, signing honestly, with its hex answer rewritten by `rewrite`. */
function unisatAnswering(rewrite: (hex: string) => unknown): PsbtWalletSigner {
  const standin = createUnisatStandin(standinOptions);
  const unisat: UnisatProvider = {
    signPsbt: async (psbtHex, opts) => rewrite(await standin.signPsbt(psbtHex, opts)) as string,
  };
  return createUnisatWalletSigner({ unisat, publicKey: userPublicKey });
}

/** Leather's stand-in, signing honestly, with its envelope rewritten by `rewrite`. */
function leatherAnswering(rewrite: (response: { result: { hex: string } }) => unknown): PsbtWalletSigner {
  const standin = createLeatherStandin(standinOptions);
  const leather = {
    request: async (method: "signPsbt", params: unknown) =>
      rewrite((await standin.request(method, params as never)) as { result: { hex: string } }),
  } as LeatherProvider;
  return createLeatherWalletSigner({ leather, publicKey: userPublicKey });
}

/** sats-connect's stand-in, signing honestly, with its envelope rewritten by `rewrite`. */
function satsConnectAnswering(
  rewrite: (response: { result: { psbt: string } }) => unknown,
): PsbtWalletSigner {
  const standin = createSatsConnectStandin(standinOptions);
  const request = (async (method, params) =>
    rewrite((await standin(method, params as never)) as { result: { psbt: string } })) as SatsConnectRequest;
  return createSatsConnectWalletSigner({ request, publicKey: userPublicKey });
}

const hexCases: [string, (hex: string) => string][] = [
  ["trailing bytes", (h) => `${h}00`],
  ["trailing non-hex characters", (h) => `${h}zz`],
  ["whitespace", (h) => ` ${h}\n`],
  ["a 0x prefix", (h) => `0x${h}`],
  ["an odd length", (h) => `${h}0`],
  ["base64 where hex is due", (h) => Buffer.from(h, "hex").toString("base64")],
];

describe("a hex answer (Unisat, Leather) is one PSBT in hex, nothing around it", () => {
  it.each(hexCases)("refuses %s (Unisat)", async (_, rewrite) => {
    const result = await outcome(buildDeposit(), unisatAnswering(rewrite));
    expect(result).toMatchObject({ code: "BTC_PSBT_INVALID", details: { source: "wallet" } });
  });

  it.each(hexCases)("refuses %s (Leather)", async (_, rewrite) => {
    const result = await outcome(
      buildDeposit(),
      leatherAnswering((r) => ({ ...r, result: { hex: rewrite(r.result.hex) } })),
    );
    expect(result).toMatchObject({ code: "BTC_PSBT_INVALID", details: { source: "wallet" } });
  });

  it("accepts upper-case hex (the same bytes), and bitcore's interpreter accepts the deposit", async () => {
    const result = await outcome(
      buildDeposit(),
      unisatAnswering((h) => h.toUpperCase()),
    );
    expect(result.code).toBe("ACCEPTED");
    expect(result.interpreter).toEqual([null, null]);
  });
});

/** An object whose every property read throws (a getter trap), and a revoked proxy (every operation throws). */
const trapped = () =>
  new Proxy(
    {},
    {
      get: () => {
        throw new Error("trap");
      },
    },
  );
const revoked = () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};

describe("an envelope that throws when read is a wallet refusal, never an uncoded error", () => {
  const envelopes: [string, () => unknown][] = [
    ["a getter trap", trapped],
    ["a revoked proxy", revoked],
    ["a result that is a getter trap", () => ({ status: "success", result: trapped() })],
    ["an error member that is a getter trap", () => ({ status: "error", error: trapped() })],
  ];
  it.each(envelopes)("sats-connect: %s", async (_, make) => {
    const result = await outcome(buildDeposit(), satsConnectAnswering(make));
    expect(result).toMatchObject({ code: "BTC_WALLET_REJECTED", details: { wallet: "sats-connect" } });
  });
  it.each(envelopes)("Leather: %s", async (_, make) => {
    const result = await outcome(buildDeposit(), leatherAnswering(make));
    expect(result).toMatchObject({ code: "BTC_WALLET_REJECTED", details: { wallet: "leather" } });
  });
  it.each(envelopes)("Unisat: %s", async (_, make) => {
    const result = await outcome(buildDeposit(), unisatAnswering(make));
    expect(result.code).toMatch(/^BTC_(WALLET_REJECTED|PSBT_INVALID)$/);
  });
});
