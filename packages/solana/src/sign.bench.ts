/**
 * Verify-and-sign (`signCosignTransaction` with a Keypair) against a bare web3.js `VersionedTransaction.sign` of the
 * same hex with the same Keypair (decode, sign, encode), in the same process. Target: at most 1.5x the baseline.
 */
import { type Keypair, VersionedTransaction } from "@solana/web3.js";
import { bench, describe } from "vitest";
import { compileHex, createChain, honestInstructions, intentFor, quoteFor } from "../test/fixture.js";
import { bytesToHex, hexToBytes } from "./internal/hex.js";
import { signCosignTransaction } from "./signCosignTransaction.js";

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
