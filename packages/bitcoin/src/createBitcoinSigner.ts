import type { Intent, Quote } from "@swapintent/client";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import { signHtlcRefund } from "./signHtlcRefund.js";
import type { BitcoinEcc, HtlcPolicy, KeySigner, PsbtWalletSigner } from "./types.js";
import { useEcc } from "./useEcc.js";
import { verifyHtlcPsbt } from "./verifyHtlcPsbt.js";

/**
 * Bind this package's functions to one secp256k1 backend and policy:
 * `createBitcoinSigner({ ecc })` with `import * as ecc from "tiny-secp256k1"` on Node, or
 * `import * as ecc from "@bitcoinerlab/secp256k1"` where WebAssembly is not available (browsers, React Native).
 * The package itself never imports a backend, so bundles only contain the one you pass.
 */
export function createBitcoinSigner(args: { ecc: BitcoinEcc; policy?: Partial<HtlcPolicy> }): {
  verify(a: {
    intent: Intent;
    quote: Pick<Quote, "sourceAmountLots">;
    userPublicKey: string | Uint8Array;
  }): ReturnType<typeof verifyHtlcPsbt>;
  sign(a: {
    intent: Intent;
    quote: Pick<Quote, "sourceAmountLots">;
    userPublicKey: string | Uint8Array;
    signer: KeySigner | PsbtWalletSigner;
  }): ReturnType<typeof signHtlcPsbt>;
  signRefund(a: {
    depositPsbt: string;
    userPublicKey: string | Uint8Array;
    signer: KeySigner;
    feeLots: bigint;
    destinationScript?: Uint8Array;
  }): ReturnType<typeof signHtlcRefund>;
} {
  const { ecc, policy } = args;
  useEcc(ecc);
  return {
    verify: (a) => verifyHtlcPsbt({ ...a, ecc, policy }),
    sign: (a) => signHtlcPsbt({ ...a, ecc, policy }),
    signRefund: (a) => signHtlcRefund({ ...a, ecc }),
  };
}
