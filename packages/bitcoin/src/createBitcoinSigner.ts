import { type SignHtlcPsbtParameters, type SignHtlcPsbtReturnType, signHtlcPsbt } from "./signHtlcPsbt.js";
import {
  type SignHtlcRefundParameters,
  type SignHtlcRefundReturnType,
  signHtlcRefund,
} from "./signHtlcRefund.js";
import type { BitcoinEcc, HtlcPolicyParameters } from "./types.js";
import { useEcc } from "./useEcc.js";
import { type VerifiedHtlcPsbt, type VerifyHtlcPsbtParameters, verifyHtlcPsbt } from "./verifyHtlcPsbt.js";

/** Parameters of `createBitcoinSigner`. */
export interface CreateBitcoinSignerParameters {
  /** The secp256k1 backend: `tiny-secp256k1` (Node) or `@bitcoinerlab/secp256k1` (browsers, React Native). */
  ecc: BitcoinEcc;
  /** Limits for every `verify` and `sign`; each field left out (or `undefined`) takes its default. */
  policy?: HtlcPolicyParameters | undefined;
}

/** The functions `createBitcoinSigner` binds to one backend and policy. */
export interface BitcoinSigner {
  /** `verifyHtlcPsbt` with the bound backend and policy. */
  verify(parameters: Omit<VerifyHtlcPsbtParameters, "ecc" | "policy">): VerifiedHtlcPsbt;
  /** `signHtlcPsbt` with the bound backend and policy. */
  sign(parameters: Omit<SignHtlcPsbtParameters, "ecc" | "policy">): Promise<SignHtlcPsbtReturnType>;
  /** `signHtlcRefund` with the bound backend. */
  signRefund(parameters: Omit<SignHtlcRefundParameters, "ecc">): Promise<SignHtlcRefundReturnType>;
}

/**
 * Bind this package's functions to one secp256k1 backend and policy. The package itself never imports a
 * backend, so bundles only contain the one you pass.
 *
 * @example
 * ```ts
 * import * as ecc from "@bitcoinerlab/secp256k1"; // or "tiny-secp256k1" on Node
 * import { createBitcoinSigner } from "@swapintent/bitcoin";
 *
 * const bitcoin = createBitcoinSigner({ ecc, policy: { maxFeeLots: 20_000n } });
 * const { approval } = await bitcoin.sign({ intent, quote, userPublicKey: "02…", signer: keyPair });
 * ```
 */
export function createBitcoinSigner(args: CreateBitcoinSignerParameters): BitcoinSigner {
  const { ecc, policy } = args;
  useEcc(ecc);
  return {
    verify: (a) => verifyHtlcPsbt({ ...a, ecc, policy }),
    sign: (a) => signHtlcPsbt({ ...a, ecc, policy }),
    signRefund: (a) => signHtlcRefund({ ...a, ecc }),
  };
}
