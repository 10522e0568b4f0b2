import type { BitcoinError } from "../errors.js";
import {
  createAdapterSigner,
  isFunction,
  psbtBase64ToHex,
  readOption,
  readPublicKey,
  readWalletRecord,
  walletBroadcast,
  walletHexToBase64,
  walletRejected,
} from "../internal/walletAdapter.js";
import type { PsbtWalletSigner } from "../types.js";

/** The parameters of Leather's `signPsbt` RPC (documented shape). */
export interface LeatherSignPsbtParams {
  /** The PSBT, hex. */
  hex: string;
  /** The inputs to sign. */
  signAtIndex?: number | number[];
  /** The sighash types the wallet may sign with. */
  allowedSighash?: number[];
  /** Finalize and broadcast; the adapter always sends `false`. */
  broadcast?: boolean;
  /** The network to sign on (default: the user's current one). */
  network?: string;
  /** The account to sign with (default: the user's current one). */
  account?: number;
}

/**
 * Leather's JSON-RPC answer to `signPsbt`: the signed PSBT (hex), and a txid when it broadcast. Optional fields take
 * `undefined` too, so a provider typed with `| undefined` (as SDKs generate them) fits under
 * `exactOptionalPropertyTypes`.
 */
export interface LeatherSignPsbtResponse {
  jsonrpc?: string | undefined;
  id?: string | undefined;
  result: { hex: string; txid?: string | undefined };
}

/** The part of Leather's injected provider (`window.LeatherProvider`) the adapter calls. */
export interface LeatherProvider {
  /** Leather's `signPsbt` request: the PSBT as hex and the inputs to sign; answers with the signed PSBT's hex. */
  request(method: "signPsbt", params: LeatherSignPsbtParams): Promise<LeatherSignPsbtResponse>;
}

/** Parameters of `createLeatherWalletSigner`. */
export interface CreateLeatherWalletSignerParameters {
  /** The injected provider, `window.LeatherProvider` (typed structurally: no Leather SDK needed). */
  leather: LeatherProvider;
  /** The user's 33-byte compressed key, hex (from `getAddresses`) or bytes: the intent's user key. */
  publicKey: string | Uint8Array;
  /** Leather's network name (`"mainnet"`, `"testnet"`, `"signet"`…); left out: the user's current network. */
  network?: string | undefined;
}

/** What `createLeatherWalletSigner` returns: a `PsbtWalletSigner` to pass to `signHtlcPsbt` as `signer`. */
export type CreateLeatherWalletSignerReturnType = PsbtWalletSigner;

/**
 * What `createLeatherWalletSigner` may throw (a bad option or key), and what its `signPsbt` adds (a refusal, a
 * broadcast, an answer that is no PSBT); signing through it throws `signHtlcPsbt`'s or `signHtlcRefund`'s codes.
 */
export type CreateLeatherWalletSignerErrorType = BitcoinError<
  | "BTC_POLICY_INVALID"
  | "BTC_PUBLIC_KEY_INVALID"
  | "BTC_WALLET_REJECTED"
  | "BTC_WALLET_BROADCAST"
  | "BTC_PSBT_INVALID"
>;

/**
 * A `PsbtWalletSigner` for Leather: `signHtlcPsbt` verifies the deposit first, then this sends
 * `request("signPsbt", { hex, signAtIndex, allowedSighash, broadcast: false })` for exactly the verified inputs and
 * sighash types, and `signHtlcPsbt` re-checks the answer before it finalizes. A rejected request, or an answer
 * carrying Leather's JSON-RPC `error` (even beside a `result`), is `BTC_WALLET_REJECTED`, and so is an answer outside
 * the documented `{ jsonrpc?, id?, result: { hex } }`; a `result.txid` (the wallet broadcast although asked not to)
 * is `BTC_WALLET_BROADCAST`.
 *
 * @example
 * ```ts
 * import * as ecc from "@bitcoinerlab/secp256k1";
 * import { signHtlcPsbt } from "@swapintent/bitcoin";
 * import { createLeatherWalletSigner } from "@swapintent/bitcoin/wallets";
 *
 * const signer = createLeatherWalletSigner({ leather: window.LeatherProvider, publicKey });
 * const { approval } = await signHtlcPsbt({ ecc, intent, quote, userPublicKey: publicKey, signer });
 * ```
 */
export function createLeatherWalletSigner(
  parameters: CreateLeatherWalletSignerParameters,
): CreateLeatherWalletSignerReturnType {
  const leather = readOption<LeatherProvider>(parameters, "leather", (l) => isFunction(l.request));
  const network = readOption<string | undefined>(
    parameters,
    "network",
    (n) => n === undefined || (typeof n === "string" && n !== ""),
  );
  const publicKey = readPublicKey(parameters);
  return createAdapterSigner({
    wallet: "leather",
    publicKey,
    toRequest: ({ psbt, signInputs }) => {
      const params: LeatherSignPsbtParams = {
        hex: psbtBase64ToHex(psbt),
        signAtIndex: signInputs.map((i) => i.index),
        allowedSighash: [...new Set(signInputs.map((i) => i.sighashType))],
        broadcast: false,
      };
      if (network !== undefined) params.network = network;
      return params;
    },
    ask: (params) => leather.request("signPsbt", params),
    readAnswer: (response) => walletHexToBase64(readLeatherAnswer(response)),
  });
}

/**
 * The signed PSBT's hex out of Leather's JSON-RPC answer, read strictly: an `error` member is the user's or wallet's
 * refusal whatever else the answer carries (a cancelled request never signs); `jsonrpc` is `"2.0"` and `id` a
 * string or number when present; `result` holds `hex` and nothing else, since a `txid` means the wallet broadcast.
 */
function readLeatherAnswer(response: unknown): unknown {
  const envelope = readWalletRecord("leather", response, ["jsonrpc", "id", "result", "error"]);
  if (Object.hasOwn(envelope, "error")) throw walletRejected("leather", envelope);
  const { jsonrpc, id } = envelope;
  const idValid = id === undefined || typeof id === "string" || typeof id === "number";
  if ((jsonrpc !== undefined && jsonrpc !== "2.0") || !idValid) throw walletRejected("leather", {});
  const result = readWalletRecord("leather", envelope.result, ["hex", "txid"]);
  if (Object.hasOwn(result, "txid")) throw walletBroadcast("leather", result.txid);
  if (typeof result.hex !== "string") throw walletRejected("leather", {});
  return result.hex;
}
