/**
 * The test leg's users: ed25519 wallets whose address is `0x` + the 32-byte public key on every network, the bytes
 * they sign for an intent, and the approval body a test POSTs.
 */
import { createHash, createPublicKey, generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import type { LegIntent } from "../../src/legs/types.js";

/** The test leg's escrow address on every network (what `proxy_address` names). */
export const TEST_ESCROW = `0x${"e".repeat(64)}`;
export const sha256 = (data: string | Uint8Array) => createHash("sha256").update(data).digest();
const ED25519_SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

/** A user wallet for the test leg. */
export interface TestWallet {
  address: string;
  /** Hex without 0x. */
  publicKeyHex: string;
  privateKey: KeyObject;
}

/** Create a fresh user wallet for the test leg. */
export function createTestWallet(): TestWallet {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const raw = publicKey.export({ type: "spki", format: "der" }).subarray(ED25519_SPKI_PREFIX.length);
  return { address: `0x${raw.toString("hex")}`, publicKeyHex: raw.toString("hex"), privateKey };
}

export function publicKeyOf(address: string): KeyObject {
  return createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(address.slice(2), "hex")]),
    format: "der",
    type: "spki",
  });
}

/** The bytes the user signs for an intent (what `params_to_sign` carries). */
export function approvalMessage(networkId: number, intent: LegIntent): Buffer {
  return sha256(
    `test-leg:${networkId}:${intent.intentId}:${intent.sourceToken}:${intent.sourceAmountLots}:${intent.secretHash}:${intent.deadlineSecs}:${intent.userSourceAddress}`,
  );
}

/**
 * Sign an intent's `params_to_sign` with a test wallet and return the approval body to POST
 * (`{type, signed_data}` in the mechanism's wire shape).
 */
export function signTestApproval({
  wallet,
  intent,
}: {
  wallet: TestWallet;
  intent: { approval_mechanism: string; params_to_sign: Record<string, unknown> };
}): { type: string; signed_data: unknown } {
  const p = intent.params_to_sign;
  if (intent.approval_mechanism === "permit2") {
    const data = p.additional_data as { witness_hash: string };
    const message = Buffer.from(data.witness_hash.slice(2), "hex");
    return { type: "permit2", signed_data: `0x${sign(null, message, wallet.privateKey).toString("hex")}` };
  }
  if (intent.approval_mechanism === "htlc") {
    const message = Buffer.from(p.psbt as string, "base64");
    return { type: "psbt", signed_data: sign(null, message, wallet.privateKey).toString("base64") };
  }
  const message = Buffer.from(p.transaction as string, "hex");
  return {
    type: "cosign",
    signed_data: {
      transaction: sign(null, message, wallet.privateKey).toString("hex"),
      user_address: wallet.address,
    },
  };
}
