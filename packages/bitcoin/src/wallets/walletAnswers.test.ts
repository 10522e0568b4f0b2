// Hostile answers per wallet adapter: each wallet is a stand-in that signs the verified deposit for real with the
// user's key, then hands back its answer changed in one way. An answer outside the wallet's documented shape, or one
// that says the user cancelled or the wallet broadcast, is a coded refusal and no approval comes back.
import { isSwapIntentError } from "@swapintent/client";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { buildDeposit, hex, strangerKey, userKey } from "../../test/fixtures.js";
import {
  createLeatherStandin,
  createSatsConnectStandin,
  createUnisatStandin,
} from "../../test/walletStandins.js";
import { signHtlcPsbt } from "../signHtlcPsbt.js";
import type { PsbtWalletSigner } from "../types.js";
import type { LeatherProvider } from "./createLeatherWalletSigner.js";
import { createLeatherWalletSigner } from "./createLeatherWalletSigner.js";
import type { SatsConnectRequest } from "./createSatsConnectWalletSigner.js";
import { createSatsConnectWalletSigner } from "./createSatsConnectWalletSigner.js";
import { createUnisatWalletSigner } from "./createUnisatWalletSigner.js";

const userPublicKey = hex(userKey.publicKey);
const standinOptions = { key: userKey, other: strangerKey };
type Answer = Record<string, unknown>;

/** Unisat answering the stand-in's signed hex, changed by `change`. */
const unisat = (change: (signed: string) => unknown): PsbtWalletSigner => {
  const standin = createUnisatStandin(standinOptions);
  return createUnisatWalletSigner({
    unisat: {
      signPsbt: async (psbtHex, options) => change(await standin.signPsbt(psbtHex, options)) as string,
    },
    publicKey: userPublicKey,
  });
};

/** sats-connect answering `{ status: "success", result: { psbt } }` from the stand-in, changed by `change`. */
const satsConnect = (change: (answer: Answer, psbt: string) => unknown): PsbtWalletSigner => {
  const standin = createSatsConnectStandin(standinOptions);
  const request = (async (method, params) => {
    const answer = (await standin(method, params as never)) as { result: { psbt: string } };
    return change(answer as unknown as Answer, answer.result.psbt);
  }) as SatsConnectRequest;
  return createSatsConnectWalletSigner({ request, publicKey: userPublicKey });
};

/** Leather answering `{ jsonrpc, id, result: { hex } }` from the stand-in, changed by `change`. */
const leather = (change: (answer: Answer, hex: string) => unknown): PsbtWalletSigner => {
  const standin = createLeatherStandin(standinOptions);
  const provider = {
    request: async (method: "signPsbt", params: unknown) => {
      const answer = (await standin.request(method, params as never)) as { result: { hex: string } };
      return change(answer as unknown as Answer, answer.result.hex);
    },
  } as LeatherProvider;
  return createLeatherWalletSigner({ leather: provider, publicKey: userPublicKey });
};

async function outcome(signer: PsbtWalletSigner) {
  const deposit = buildDeposit();
  try {
    const { approval } = await signHtlcPsbt({
      ecc,
      intent: deposit.intent,
      quote: deposit.quote,
      userPublicKey,
      signer,
    });
    return { code: "ACCEPTED", approval, details: undefined };
  } catch (error) {
    if (!isSwapIntentError(error)) throw error;
    return { code: error.code, approval: undefined, details: error.details as Record<string, unknown> };
  }
}

const TXID = "ab".repeat(32);
const cancelled = { code: 4001, message: "User rejected the request." };

const table: [string, () => PsbtWalletSigner, string][] = [
  // Leather: JSON-RPC 2.0, `{ jsonrpc, id, result: { hex } }`, or `{ jsonrpc, id, error }` when refused.
  ["leather: as documented", () => leather((a) => a), "ACCEPTED"],
  [
    "leather: result.txid left undefined",
    () => leather((a, h) => ({ ...a, result: { hex: h, txid: undefined } })),
    "ACCEPTED",
  ],
  [
    "leather: error 4001 beside a signed result.hex",
    () => leather((a) => ({ ...a, error: cancelled })),
    "BTC_WALLET_REJECTED",
  ],
  [
    "leather: error null beside the result",
    () => leather((a) => ({ ...a, error: null })),
    "BTC_WALLET_REJECTED",
  ],
  [
    "leather: error as a bare string beside the result",
    () => leather((a) => ({ ...a, error: "denied" })),
    "BTC_WALLET_REJECTED",
  ],
  [
    "leather: a txid beside the hex (broadcast on its own)",
    () => leather((a, h) => ({ ...a, result: { hex: h, txid: TXID } })),
    "BTC_WALLET_BROADCAST",
  ],
  [
    "leather: a member the API does not have",
    () => leather((a) => ({ ...a, signed: true })),
    "BTC_WALLET_REJECTED",
  ],
  [
    "leather: a symbol-keyed member",
    () => leather((a) => ({ ...a, [Symbol("extra")]: 1 })),
    "BTC_WALLET_REJECTED",
  ],
  [
    "leather: result carries a psbt beside the hex",
    () => leather((a, h) => ({ ...a, result: { hex: h, psbt: "" } })),
    "BTC_WALLET_REJECTED",
  ],
  [
    "leather: jsonrpc other than 2.0",
    () => leather((a) => ({ ...a, jsonrpc: "1.0" })),
    "BTC_WALLET_REJECTED",
  ],
  ["leather: an id that is an object", () => leather((a) => ({ ...a, id: {} })), "BTC_WALLET_REJECTED"],
  ["leather: result is an array", () => leather((a, h) => ({ ...a, result: [h] })), "BTC_WALLET_REJECTED"],
  [
    "leather: result.hex is a number",
    () => leather((a) => ({ ...a, result: { hex: 1 } })),
    "BTC_WALLET_REJECTED",
  ],
  ["leather: the hex as a bare string", () => leather((_a, h) => h), "BTC_WALLET_REJECTED"],
  ["leather: the answer is an array", () => leather((a) => [a]), "BTC_WALLET_REJECTED"],
  // sats-connect: `{ status: "success", result: { psbt } }` or `{ status: "error", error }`.
  ["sats-connect: as documented", () => satsConnect((a) => a), "ACCEPTED"],
  ["sats-connect: error left undefined", () => satsConnect((a) => ({ ...a, error: undefined })), "ACCEPTED"],
  [
    "sats-connect: success with an error member",
    () => satsConnect((a) => ({ ...a, error: cancelled })),
    "BTC_WALLET_REJECTED",
  ],
  [
    "sats-connect: success with a txid (broadcast on its own)",
    () => satsConnect((a, p) => ({ ...a, result: { psbt: p, txid: TXID } })),
    "BTC_WALLET_BROADCAST",
  ],
  [
    "sats-connect: a txid that is no string",
    () => satsConnect((a, p) => ({ ...a, result: { psbt: p, txid: 7 } })),
    "BTC_WALLET_BROADCAST",
  ],
  [
    "sats-connect: error status with a signed result",
    () => satsConnect((a) => ({ ...a, status: "error", error: cancelled })),
    "BTC_WALLET_REJECTED",
  ],
  [
    "sats-connect: a member the API does not have",
    () => satsConnect((a) => ({ ...a, broadcast: false })),
    "BTC_WALLET_REJECTED",
  ],
  [
    "sats-connect: result carries a member the API does not have",
    () => satsConnect((a, p) => ({ ...a, result: { psbt: p, hex: "" } })),
    "BTC_WALLET_REJECTED",
  ],
  [
    "sats-connect: status spelled otherwise",
    () => satsConnect((a) => ({ ...a, status: "Success" })),
    "BTC_WALLET_REJECTED",
  ],
  [
    "sats-connect: result is an array",
    () => satsConnect((a, p) => ({ ...a, result: [p] })),
    "BTC_WALLET_REJECTED",
  ],
  [
    "sats-connect: result.psbt is bytes",
    () => satsConnect((a) => ({ ...a, result: { psbt: new Uint8Array(4) } })),
    "BTC_WALLET_REJECTED",
  ],
  // Unisat: `signPsbt` resolves to the signed PSBT's hex, nothing else.
  ["unisat: as documented", () => unisat((h) => h), "ACCEPTED"],
  ["unisat: upper-case hex", () => unisat((h) => h.toUpperCase()), "ACCEPTED"],
  ["unisat: an object holding the hex", () => unisat((h) => ({ hex: h })), "BTC_PSBT_INVALID"],
  ["unisat: a String object", () => unisat((h) => new String(h)), "BTC_PSBT_INVALID"],
  ["unisat: 0x-prefixed hex", () => unisat((h) => `0x${h}`), "BTC_PSBT_INVALID"],
  ["unisat: hex with a trailing newline", () => unisat((h) => `${h}\n`), "BTC_PSBT_INVALID"],
  ["unisat: hex with bytes after the PSBT", () => unisat((h) => `${h}00`), "BTC_PSBT_INVALID"],
  ["unisat: an odd number of hex digits", () => unisat((h) => h.slice(0, -1)), "BTC_PSBT_INVALID"],
  [
    "unisat: base64 instead of hex",
    () => unisat((h) => Buffer.from(h, "hex").toString("base64")),
    "BTC_PSBT_INVALID",
  ],
  ["unisat: an array holding the hex", () => unisat((h) => [h]), "BTC_PSBT_INVALID"],
];

describe("wallet answers, per adapter: only the documented shape signs", () => {
  it.each(table)("%s", async (_name, make, expected) => {
    const result = await outcome(make());
    expect(result.code).toBe(expected);
    if (expected === "ACCEPTED") expect(result.approval?.type).toBe("psbt");
    else expect(result.approval).toBeUndefined();
  });

  it("a refusal beside a signed PSBT reports the wallet's own code and message", async () => {
    for (const signer of [
      leather((a) => ({ ...a, error: cancelled })),
      satsConnect((a) => ({ ...a, error: cancelled })),
    ]) {
      const result = await outcome(signer);
      expect(result.details).toMatchObject({ code: 4001, message: "User rejected the request." });
    }
  });

  it("a broadcast answer names the wallet and its txid, escaped", async () => {
    const result = await outcome(leather((a, h) => ({ ...a, result: { hex: h, txid: `${TXID}\u202e` } })));
    expect(result.details).toEqual({ wallet: "leather", txid: expect.not.stringContaining("\u202e") });
  });
});
