/**
 * Verify-and-sign (`signCosignTransaction` with a Keypair) against a bare web3.js `VersionedTransaction.sign` of the
 * same hex with the same Keypair (decode, sign, encode), in the same process. Target: at most 1.5x the baseline.
 * The Kit path (`signCosignTransactionWithKit` with a `KeyPairSigner`) against Kit's own decode + partial sign +
 * encode of the same hex with the same signer.
 */
import {
  createKeyPairSignerFromBytes,
  getTransactionDecoder,
  getTransactionEncoder,
  partiallySignTransaction,
} from "@solana/kit";
import { type Keypair, VersionedTransaction } from "@solana/web3.js";
import { bench, describe } from "vitest";
import { compileHex, createChain, honestInstructions, intentFor, quoteFor } from "../test/fixture.js";
import { bytesToHex, hexToBytes } from "./internal/hex.js";
import { signCosignTransaction } from "./signCosignTransaction.js";
import { signCosignTransactionWithKit } from "./signCosignTransactionWithKit.js";

const chain = await createChain();
const hex = compileHex(chain, honestInstructions(chain));
const user: Keypair = chain.user;
const parameters = {
  intent: intentFor(hex),
  quote: quoteFor(chain),
  escrow: { owner: chain.escrowOwner.address as string },
  signer: user,
};

describe("cosign signing", () => {
  bench(
    "baseline: VersionedTransaction.deserialize + sign + serialize",
    () => {
      const tx = VersionedTransaction.deserialize(hexToBytes(hex));
      tx.sign([user]);
      bytesToHex(tx.serialize());
    },
    { time: 3000 },
  );

  bench(
    "signCosignTransaction (verify + sign)",
    async () => {
      await signCosignTransaction(parameters);
    },
    { time: 3000 },
  );
});

const kitSigner = await createKeyPairSignerFromBytes(user.secretKey);

describe("cosign signing with a Kit KeyPairSigner", () => {
  bench(
    "baseline: Kit getTransactionDecoder + partiallySignTransaction + encode",
    async () => {
      const tx = getTransactionDecoder().decode(hexToBytes(hex));
      const signed = await partiallySignTransaction([kitSigner.keyPair], tx);
      bytesToHex(new Uint8Array(getTransactionEncoder().encode(signed)));
    },
    { time: 3000 },
  );

  bench(
    "signCosignTransactionWithKit (verify + sign + check the signature)",
    async () => {
      await signCosignTransactionWithKit({ ...parameters, signer: kitSigner });
    },
    { time: 3000 },
  );
});
