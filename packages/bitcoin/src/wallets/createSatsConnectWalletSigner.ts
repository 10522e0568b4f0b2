import type { BitcoinError } from "../errors.js";
import {
  addressOf,
  createAdapterSigner,
  isFunction,
  readOption,
  readPublicKey,
  readWalletRecord,
  walletBroadcast,
  walletRejected,
} from "../internal/walletAdapter.js";
import type { PsbtWalletSigner } from "../types.js";

/** The bech32 prefixes of Bitcoin's networks: mainnet, testnet and signet, regtest. */
const BECH32_PREFIXES = new Set<unknown>(["bc", "tb", "bcrt"]);

/** The parameters of sats-connect's `signPsbt` request (documented shape). */
export interface SatsConnectSignPsbtParams {
  /** The PSBT, base64. */
  psbt: string;
  /** The inputs to sign, by the address that signs them. */
  signInputs: Record<string, number[]>;
  /** Broadcast after signing; the adapter always sends `false`. */
  broadcast?: boolean;
  /** The sighash type to sign with (sent when every listed input uses the same one). */
  allowedSignHash?: number;
}

/** sats-connect's answer envelope: `{ status: "success", result }` or `{ status: "error", error }`. */
export type SatsConnectResponse<TResult> =
  | { status: "success"; result: TResult }
  | { status: "error"; error: { code: number | string; message: string } };

/**
 * The result of a `signPsbt` request: the signed PSBT (base64), and a txid when the wallet broadcast it. Optional
 * fields take `undefined` too, as sats-connect declares them: its `request` fits under `exactOptionalPropertyTypes`.
 */
export interface SatsConnectSignPsbtResult {
  psbt: string;
  txid?: string | undefined;
}

/** sats-connect's `request` (or `Wallet.request`), called with `"signPsbt"`; typed structurally, no SDK needed. */
export type SatsConnectRequest = (
  method: "signPsbt",
  params: SatsConnectSignPsbtParams,
) => Promise<SatsConnectResponse<SatsConnectSignPsbtResult>>;

/** Parameters of `createSatsConnectWalletSigner`. */
export interface CreateSatsConnectWalletSignerParameters {
  /** sats-connect's `request` function (Xverse and the other wallets it connects). */
  request: SatsConnectRequest;
  /** The user's 33-byte compressed key, hex (from `getAddresses`) or bytes: the intent's user key. */
  publicKey: string | Uint8Array;
  /**
   * The bech32 prefix of the wallet's network, to name the signing addresses: `"bc"` (default, mainnet), `"tb"`
   * (testnet, signet) or `"bcrt"` (regtest). A bitcoinjs `Network`'s `bech32` field. Any other value is refused at
   * creation (`BTC_POLICY_INVALID`, `["bech32Prefix"]`).
   */
  bech32Prefix?: string | undefined;
}

/** What `createSatsConnectWalletSigner` returns: a `PsbtWalletSigner` to pass to `signHtlcPsbt` as `signer`. */
export type CreateSatsConnectWalletSignerReturnType = PsbtWalletSigner;

/**
 * What `createSatsConnectWalletSigner` may throw (a bad option or key), and what its `signPsbt` adds (a refusal, a
 * broadcast); signing through it throws `signHtlcPsbt`'s or `signHtlcRefund`'s codes.
 */
export type CreateSatsConnectWalletSignerErrorType = BitcoinError<
  "BTC_POLICY_INVALID" | "BTC_PUBLIC_KEY_INVALID" | "BTC_WALLET_REJECTED" | "BTC_WALLET_BROADCAST"
>;

/**
 * A `PsbtWalletSigner` for sats-connect (Xverse and others): `signHtlcPsbt` verifies the deposit first, then this
 * sends `request("signPsbt", { psbt, signInputs: { [address]: [indexes] }, broadcast: false })` for exactly the
 * verified inputs (each under the user's address of its script type), and `signHtlcPsbt` re-checks the answer
 * before it finalizes. An `{ status: "error" }` answer, a `"success"` one that also carries an `error`, a rejected
 * request, or an answer outside the documented `{ status: "success", result: { psbt } }` is `BTC_WALLET_REJECTED`; a
 * `result.txid` (the wallet broadcast although asked not to) is `BTC_WALLET_BROADCAST`.
 *
 * @example
 * ```ts
 * import * as ecc from "@bitcoinerlab/secp256k1";
 * import { signHtlcPsbt } from "@swapintent/bitcoin";
 * import { createSatsConnectWalletSigner } from "@swapintent/bitcoin/wallets";
 * import { request } from "sats-connect";
 *
 * const signer = createSatsConnectWalletSigner({ request, publicKey: paymentAddress.publicKey });
 * const { approval } = await signHtlcPsbt({ ecc, intent, quote, userPublicKey: paymentAddress.publicKey, signer });
 * ```
 */
export function createSatsConnectWalletSigner(
  parameters: CreateSatsConnectWalletSignerParameters,
): CreateSatsConnectWalletSignerReturnType {
  const request = readOption<SatsConnectRequest>(parameters, "request", isFunction);
  const publicKey = readPublicKey(parameters);
  const prefix =
    readOption<string | undefined>(
      parameters,
      "bech32Prefix",
      (p) => p === undefined || BECH32_PREFIXES.has(p),
    ) ?? "bc";
  return createAdapterSigner({
    wallet: "sats-connect",
    publicKey,
    toRequest: ({ psbt, signInputs: inputs }) => {
      const signInputs: Record<string, number[]> = {};
      for (const input of inputs) {
        const address = addressOf(input, prefix);
        signInputs[address] = [...(signInputs[address] ?? []), input.index];
      }
      const sighashTypes = new Set(inputs.map((i) => i.sighashType));
      const params: SatsConnectSignPsbtParams = { psbt, signInputs, broadcast: false };
      if (sighashTypes.size === 1) params.allowedSignHash = [...sighashTypes][0]!;
      return params;
    },
    ask: (params) => request("signPsbt", params),
    readAnswer: readSatsConnectAnswer,
  });
}

/**
 * The signed PSBT (base64) out of sats-connect's answer, read strictly: `{ status: "success", result: { psbt } }`
 * and nothing else. An `error` member is a refusal whatever the status says; a `txid` means the wallet broadcast.
 */
function readSatsConnectAnswer(response: unknown): string {
  const envelope = readWalletRecord("sats-connect", response, ["status", "result", "error"]);
  if (envelope.status === "error" || Object.hasOwn(envelope, "error")) {
    throw walletRejected("sats-connect", envelope);
  }
  if (envelope.status !== "success") throw walletRejected("sats-connect", {});
  const result = readWalletRecord("sats-connect", envelope.result, ["psbt", "txid"]);
  if (Object.hasOwn(result, "txid")) throw walletBroadcast("sats-connect", result.txid);
  if (typeof result.psbt !== "string") throw walletRejected("sats-connect", {});
  return result.psbt;
}
