import { createHash } from "node:crypto";
import { createKeyPairSignerFromPrivateKeyBytes, type KeyPairSigner } from "@solana/kit";

/** The leg's keys, all derived from the sandbox seed so addresses survive a restart. */
export interface SolanaLegKeys {
  /** Fee payer of every transaction, holder of the resolver's inventory, mint authority of the sandbox USDC. */
  resolver: KeyPairSigner;
  /** Owner of the escrow token accounts (the resolver's deposit address of approvals.md). */
  deposit: KeyPairSigner;
  /** The keypair whose address is the sandbox USDC mint. */
  usdcMint: KeyPairSigner;
}

function derive(seed: Uint8Array, label: string): Promise<KeyPairSigner> {
  const bytes = createHash("sha256").update("swapintent/sandbox/solana/").update(label).update(seed).digest();
  return createKeyPairSignerFromPrivateKeyBytes(new Uint8Array(bytes));
}

/** Derive the leg's ed25519 keys from `seed` (SHA-256 of a label and the seed, used as the private key). */
export async function deriveKeys(seed: Uint8Array): Promise<SolanaLegKeys> {
  const [resolver, deposit, usdcMint] = await Promise.all([
    derive(seed, "resolver"),
    derive(seed, "deposit"),
    derive(seed, "usdc-mint"),
  ]);
  return { resolver, deposit, usdcMint };
}
