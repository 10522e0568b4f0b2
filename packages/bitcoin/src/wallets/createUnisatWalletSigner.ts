import type { BitcoinError } from "../errors.js";
import { bytesToHex } from "../internal/bytes.js";
import {
  createAdapterSigner,
  isFunction,
  psbtBase64ToHex,
  readOption,
  readPublicKey,
  walletHexToBase64,
} from "../internal/walletAdapter.js";
import type { PsbtWalletSigner } from "../types.js";

/** One entry of Unisat's `toSignInputs`: the input, the key (or address) to sign with, and the sighash types. */
export interface UnisatToSignInput {
  index: number;
  address?: string;
  publicKey?: string;
  sighashTypes?: number[];
  disableTweakSigner?: boolean;
  useTweakedSigner?: boolean;
}

/** Unisat's `signPsbt` options (documented shape). */
export interface UnisatSignPsbtOptions {
  autoFinalized?: boolean;
  toSignInputs?: UnisatToSignInput[];
}

/** The part of Unisat's injected provider (`window.unisat`) the adapter calls: `signPsbt(psbtHex, options)`. */
export interface UnisatProvider {
  /** Signs the PSBT given as hex (the inputs in `options.toSignInputs`) and returns the signed PSBT's hex. */
  signPsbt(psbtHex: string, options?: UnisatSignPsbtOptions): Promise<string>;
}

/** Parameters of `createUnisatWalletSigner`. */
export interface CreateUnisatWalletSignerParameters {
  /** The injected provider, `window.unisat` (typed structurally: no Unisat SDK needed). */
  unisat: UnisatProvider;
  /** The user's 33-byte compressed key, hex (Unisat's `getPublicKey()`) or bytes: the intent's user key. */
  publicKey: string | Uint8Array;
}

/** What `createUnisatWalletSigner` returns: a `PsbtWalletSigner` to pass to `signHtlcPsbt` as `signer`. */
export type CreateUnisatWalletSignerReturnType = PsbtWalletSigner;

/**
 * What `createUnisatWalletSigner` may throw (a bad option or key), and what its `signPsbt` adds (a refusal, an answer
 * that is no PSBT); signing through it throws `signHtlcPsbt`'s or `signHtlcRefund`'s codes.
 */
export type CreateUnisatWalletSignerErrorType = BitcoinError<
  "BTC_POLICY_INVALID" | "BTC_PUBLIC_KEY_INVALID" | "BTC_WALLET_REJECTED" | "BTC_PSBT_INVALID"
>;

/**
 * A `PsbtWalletSigner` for Unisat: `signHtlcPsbt` verifies the deposit first, then this asks
 * `unisat.signPsbt(hex, { autoFinalized: false, toSignInputs })` to sign exactly the verified inputs with the user's
 * key and the verified sighash type, and `signHtlcPsbt` re-checks the answer (only the user's signatures may
 * change; each must verify) before it finalizes. A refusal is `BTC_WALLET_REJECTED`.
 *
 * @example
 * ```ts
 * import * as ecc from "@bitcoinerlab/secp256k1";
 * import { signHtlcPsbt } from "@swapintent/bitcoin";
 * import { createUnisatWalletSigner } from "@swapintent/bitcoin/wallets";
 *
 * const publicKey = await window.unisat.getPublicKey();
 * const signer = createUnisatWalletSigner({ unisat: window.unisat, publicKey });
 * const { approval } = await signHtlcPsbt({ ecc, intent, quote, userPublicKey: publicKey, signer });
 * ```
 */
export function createUnisatWalletSigner(
  parameters: CreateUnisatWalletSignerParameters,
): CreateUnisatWalletSignerReturnType {
  const unisat = readOption<UnisatProvider>(parameters, "unisat", (u) => isFunction(u.signPsbt));
  const publicKey = readPublicKey(parameters);
  const publicKeyHex = bytesToHex(publicKey);
  return createAdapterSigner({
    wallet: "unisat",
    publicKey,
    toRequest: ({ psbt, signInputs }) => ({
      hex: psbtBase64ToHex(psbt),
      options: {
        autoFinalized: false,
        // The refund leaf names the user's untweaked key: Unisat signs with it only when told to.
        toSignInputs: signInputs.map(({ index, kind, sighashType }) => ({
          index,
          publicKey: publicKeyHex,
          sighashTypes: [sighashType],
          ...(kind === "htlcRefund" ? { disableTweakSigner: true } : {}),
        })),
      },
    }),
    ask: ({ hex, options }) => unisat.signPsbt(hex, options),
    readAnswer: walletHexToBase64,
  });
}
