import { readEcc, readRecord } from "./internal/readParameters.js";
import { useEcc } from "./internal/useEcc.js";
import {
  type SignHtlcPsbtErrorType,
  type SignHtlcPsbtParameters,
  type SignHtlcPsbtReturnType,
  signHtlcPsbt,
} from "./signHtlcPsbt.js";
import {
  type SignHtlcRefundErrorType,
  type SignHtlcRefundParameters,
  type SignHtlcRefundReturnType,
  signHtlcRefund,
} from "./signHtlcRefund.js";
import type { BitcoinEcc, HtlcPolicyParameters } from "./types.js";
import {
  type VerifyHtlcPsbtErrorType,
  type VerifyHtlcPsbtParameters,
  type VerifyHtlcPsbtReturnType,
  verifyHtlcPsbt,
} from "./verifyHtlcPsbt/verifyHtlcPsbt.js";

/** Parameters of `createHtlcActions`. */
export interface CreateHtlcActionsParameters {
  /** The secp256k1 backend: `tiny-secp256k1` (Node) or `@bitcoinerlab/secp256k1` (browsers, React Native). */
  ecc: BitcoinEcc;
  /** Limits for every `verify` and `sign`; each field left out (or `undefined`) takes its default. */
  policy?: HtlcPolicyParameters | undefined;
}

/** The functions `createHtlcActions` binds to one backend and policy (none of them holds a key). */
export interface CreateHtlcActionsReturnType {
  /** `verifyHtlcPsbt` with the bound backend and policy. */
  verify(parameters: Omit<VerifyHtlcPsbtParameters, "ecc" | "policy">): VerifyHtlcPsbtReturnType;
  /** `signHtlcPsbt` with the bound backend and policy. */
  sign(parameters: Omit<SignHtlcPsbtParameters, "ecc" | "policy">): Promise<SignHtlcPsbtReturnType>;
  /** `signHtlcRefund` with the bound backend. */
  signRefund(parameters: Omit<SignHtlcRefundParameters, "ecc">): Promise<SignHtlcRefundReturnType>;
}

/** What `createHtlcActions` (and each bound function) may throw. */
export type CreateHtlcActionsErrorType =
  | VerifyHtlcPsbtErrorType
  | SignHtlcPsbtErrorType
  | SignHtlcRefundErrorType;

/**
 * Bind this package's HTLC functions (`verifyHtlcPsbt`, `signHtlcPsbt`, `signHtlcRefund`) to one secp256k1
 * backend and policy. The result holds no key: each call still takes the user's key or wallet as `signer`. The
 * package itself never imports a backend, so bundles only contain the one you pass.
 *
 * @example
 * ```ts
 * import * as ecc from "@bitcoinerlab/secp256k1"; // or "tiny-secp256k1" on Node
 * import { createHtlcActions } from "@swapintent/bitcoin";
 *
 * const bitcoin = createHtlcActions({ ecc, policy: { maxFeeLots: 20_000n } });
 * const { approval } = await bitcoin.sign({ intent, quote, userPublicKey: "02…", signer: keyPair });
 * ```
 */
export function createHtlcActions(parameters: CreateHtlcActionsParameters): CreateHtlcActionsReturnType {
  const fields = readRecord("", parameters) ?? {};
  const ecc = readEcc(fields.ecc);
  const policy = fields.policy as HtlcPolicyParameters | undefined;
  useEcc(ecc);
  // Each call's parameters are read once here (a throwing getter is BTC_PARAMETER_INVALID, never a raw throw).
  const read = <T>(a: T) => readRecord("", a) as T;
  return {
    verify: (a) => verifyHtlcPsbt({ ...read(a), ecc, policy }),
    sign: (a) => signHtlcPsbt({ ...read(a), ecc, policy }),
    signRefund: (a) => signHtlcRefund({ ...read(a), ecc }),
  };
}
