// Internal: what the wallet adapters of `@swapintent/bitcoin/wallets` share: the user's key, addresses, PSBT
// encodings, and the one way a wallet's refusal becomes a coded error.
import { address, Psbt } from "bitcoinjs-lib";
import { type BitcoinErrorDetails, createBitcoinError } from "../errors.js";
import type { PsbtWalletSigner, SignPsbtInput, SignPsbtParameters } from "../types.js";
import { hexToBytes } from "./bytes.js";
import { escapeForDisplay } from "./displaySafe.js";
import { parseWalletPsbt } from "./parseWalletPsbt.js";

/** The adapter a wallet error came from. */
export type WalletName = BitcoinErrorDetails["BTC_WALLET_REJECTED"]["wallet"];

/**
 * Option `name` of an adapter's `parameters`, read once at creation; `BTC_POLICY_INVALID` (`[name]`, the throw as
 * cause) when `parameters` is no object, the read throws (a getter, a revoked proxy) or `valid` refuses the value.
 */
export function readOption<T>(parameters: object, name: string, valid: (value: T) => boolean): T {
  let cause: unknown;
  try {
    const value = (parameters as Record<string, T>)[name]!;
    if (valid(value)) return value;
  } catch (thrown) {
    cause = thrown;
  }
  throw createBitcoinError("BTC_POLICY_INVALID", "An adapter option is invalid.", { policy: [name] }, cause);
}

/** True for a function: the provider method an adapter calls. */
export const isFunction = (value: unknown): boolean => typeof value === "function";

/** The user's 33-byte compressed key, from hex or bytes (`BTC_PUBLIC_KEY_INVALID` otherwise). */
export function readPublicKey(parameters: { publicKey: string | Uint8Array }): Uint8Array {
  const publicKey = readOption(parameters, "publicKey", () => true) as string | Uint8Array;
  const bytes = typeof publicKey === "string" ? hexToBytes(publicKey) : publicKey;
  if (!(bytes instanceof Uint8Array) || bytes.length !== 33 || (bytes[0] !== 0x02 && bytes[0] !== 0x03)) {
    throw createBitcoinError(
      "BTC_PUBLIC_KEY_INVALID",
      "The wallet's public key is not a 33-byte compressed key.",
      {
        length: bytes instanceof Uint8Array ? bytes.length : -1,
      },
    );
  }
  return bytes;
}

/** The address (bech32 for P2WPKH, bech32m for P2TR) of an input's prevout script, for the network's prefix. */
export function addressOf(input: SignPsbtInput, bech32Prefix: string): string {
  return address.toBech32(input.script.slice(2), input.kind === "p2wpkh" ? 0 : 1, bech32Prefix);
}

/** A base64 PSBT as hex (Unisat and Leather take hex). */
export function psbtBase64ToHex(psbt: string): string {
  return Psbt.fromBase64(psbt).toHex();
}

/** A wallet's hex PSBT as base64, or `BTC_PSBT_INVALID` (source `wallet`) when it is not one. */
export function walletHexToBase64(hex: unknown): string {
  return parseWalletPsbt(hex, "hex").toBase64();
}

/**
 * `BTC_WALLET_REJECTED` for a wallet's refusal: the wallet's own `code` and `message` (of `reason`, or of its
 * `error` member, the JSON-RPC shape), escaped; never the PSBT.
 */
export function walletRejected(wallet: WalletName, reason: unknown, cause?: unknown) {
  let code: string | number | null = null;
  let message: string | null = null;
  try {
    const outer = (typeof reason === "object" && reason !== null ? reason : {}) as Record<string, unknown>;
    const error = outer.error;
    const inner = (typeof error === "object" && error !== null ? error : outer) as Record<string, unknown>;
    const rawCode = inner.code;
    const rawMessage = inner.message;
    code =
      typeof rawCode === "number" ? rawCode : typeof rawCode === "string" ? escapeForDisplay(rawCode) : null;
    message = typeof rawMessage === "string" ? escapeForDisplay(rawMessage) : null;
  } catch {
    // An envelope whose reads throw (a getter, a revoked proxy) has no code or message to report.
  }
  return createBitcoinError(
    "BTC_WALLET_REJECTED",
    "The wallet did not sign: it refused, failed, or answered in a shape its API does not have.",
    { wallet, code, message },
    cause ?? reason,
  );
}

/** Call the wallet; a thrown or rejected call becomes `BTC_WALLET_REJECTED`. */
export async function callWallet<T>(wallet: WalletName, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (reason) {
    throw walletRejected(wallet, reason);
  }
}

/** `BTC_WALLET_BROADCAST`: the wallet answered with a txid although `broadcast: false` was asked. */
export function walletBroadcast(wallet: WalletName, txid: unknown) {
  return createBitcoinError(
    "BTC_WALLET_BROADCAST",
    "The wallet broadcast the transaction on its own although it was asked not to.",
    { wallet, txid: typeof txid === "string" ? escapeForDisplay(txid) : `(${typeof txid})` },
  );
}

/**
 * A copy of one object of a wallet's answer, read strictly against its documented members: `value` must be an
 * object (not an array), every own member must be one of `allowed` (a member whose value is `undefined` counts as
 * absent, as SDK-typed objects carry them), and each allowed member is read exactly once. Anything else, and a read
 * that throws (a getter, a revoked proxy), is `BTC_WALLET_REJECTED` with no code or message: an answer outside the
 * documented shape.
 */
export function readWalletRecord<K extends string>(
  wallet: WalletName,
  value: unknown,
  allowed: readonly K[],
): Partial<Record<K, unknown>> {
  const copy: Partial<Record<K, unknown>> = {};
  let inShape = false;
  try {
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      const record = value as Record<string | symbol, unknown>;
      const read = new Map<string | symbol, unknown>();
      for (const key of Reflect.ownKeys(record)) read.set(key, record[key]);
      inShape = [...read].every(
        ([key, member]) => member === undefined || (allowed as readonly (string | symbol)[]).includes(key),
      );
      for (const key of allowed) if (read.get(key) !== undefined) copy[key] = read.get(key);
    }
  } catch (thrown) {
    throw walletRejected(wallet, {}, thrown);
  }
  if (!inShape) throw walletRejected(wallet, {}, value);
  return copy;
}

/**
 * The flow every adapter shares: build the wallet's request from the verified inputs (`toRequest`), ask the wallet
 * (`ask`; a throw or rejection is `BTC_WALLET_REJECTED`), and read its answer strictly into the signed PSBT, base64
 * (`readAnswer`). The answer is then re-checked by `signHtlcPsbt` or `signHtlcRefund` on the one wallet path.
 */
export function createAdapterSigner<TRequest>(args: {
  wallet: WalletName;
  publicKey: Uint8Array;
  toRequest: (parameters: SignPsbtParameters) => TRequest;
  ask: (request: TRequest) => Promise<unknown>;
  readAnswer: (answer: unknown) => string;
}): PsbtWalletSigner {
  const { wallet, publicKey, toRequest, ask, readAnswer } = args;
  return {
    publicKey,
    signPsbt: async (parameters) => {
      const request = toRequest(parameters);
      const answer = await callWallet(wallet, () => ask(request));
      return readAnswer(answer);
    },
  };
}
