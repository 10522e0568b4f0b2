import * as ecc from "tiny-secp256k1";
import { bench, describe } from "vitest";
import { buildDeposit, hex, strangerKey, userKey } from "../test/fixtures.js";
import { createUnisatStandin } from "../test/walletStandins.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import { createUnisatWalletSigner } from "./wallets.js";

// What the wallet path costs over the key path on the same 2-input deposit: the wallet's own signing (a stand-in
// signing with bitcoinjs) plus the re-check of its answer. Baseline: signHtlcPsbt with the key, every signature
// checked (the wallet path checks every signature too). The machine is shared: longer runs average out the load.
const options = { time: 2_000, warmupTime: 300 };
const deposit = buildDeposit();
const userPublicKey = hex(userKey.publicKey);
const unisat = createUnisatWalletSigner({
  unisat: createUnisatStandin({ key: userKey, other: strangerKey }),
  publicKey: userPublicKey,
});

describe("sign a 2-input (P2TR + P2WPKH) deposit through a wallet", () => {
  bench(
    "baseline: signHtlcPsbt with the key, signatures checked",
    async () => {
      await signHtlcPsbt({ ...deposit, ecc, userPublicKey, signer: userKey, alwaysCheckSignatures: true });
    },
    options,
  );

  bench(
    "signHtlcPsbt through the Unisat adapter (stand-in signs; answer re-checked)",
    async () => {
      await signHtlcPsbt({ ...deposit, ecc, userPublicKey, signer: unisat });
    },
    options,
  );
});
