import { createPublicKey, verify as nodeVerify } from "node:crypto";
import { ed25519 } from "@noble/curves/ed25519";
import { getTransactionDecoder, partiallySignTransaction } from "@solana/kit";
import { Keypair, type VersionedTransaction } from "@solana/web3.js";
import { isSwapIntentError } from "@swapintent/client";
import { FailedTransactionMetadata } from "litesvm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AMOUNT,
  type Chain,
  compileHex,
  cosignAndSend,
  createChain,
  decodeHex,
  honestInstructions,
  intentFor,
  quoteFor,
  tokenBalance,
} from "../test/fixture.js";
import { bytesToHex, hexToBytes } from "./internal/hex.js";
import { signCosignTransaction } from "./signCosignTransaction.js";

let chain: Chain;
beforeAll(async () => {
  chain = await createChain();
});
// A fresh blockhash per test, so identical transactions of different tests are not "AlreadyProcessed".
beforeEach(() => chain.svm.expireBlockhash());

function params(hex: string, signer: Parameters<typeof signCosignTransaction>[0]["signer"]) {
  return {
    intent: intentFor(hex),
    quote: quoteFor(chain),
    escrow: { owner: chain.escrowOwner.address },
    signer,
  };
}

/** Verify with node:crypto (OpenSSL), a second implementation besides noble. */
function nodeEd25519Verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  const spki = Uint8Array.from([...hexToBytes("302a300506032b6570032100"), ...publicKey]);
  const key = createPublicKey({ key: Buffer.from(spki), format: "der", type: "spki" });
  return nodeVerify(null, message, key, signature);
}

async function expectCode(promise: Promise<unknown>, code: string) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isSwapIntentError(error, code), String(error)).toBe(true);
}

describe("signCosignTransaction", () => {
  it("signs with a Keypair; litesvm executes the transaction after the resolver co-signs", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const before = tokenBalance(chain, chain.userAta);
    const result = await signCosignTransaction(params(hex, chain.user));
    expect(result.userAddress).toBe(chain.user.publicKey.toBase58());
    expect(result.approval).toEqual({
      type: "cosign",
      signedData: { transaction: result.transaction, userAddress: result.userAddress },
    });
    const decoded = decodeHex(result.transaction);
    // Only the user's slot changed; the resolver's is still empty.
    expect(decoded.signatures[chain.resolver.address]).toBeNull();
    expect(bytesToHex(decoded.signatures[chain.userAddress]!)).toBe(result.signature);
    await cosignAndSend(chain, result.transaction);
    expect(tokenBalance(chain, chain.userAta)).toBe(before - AMOUNT);
    expect(tokenBalance(chain, chain.escrowAta)).toBe(AMOUNT);
  });

  it("signs a legacy transaction too; litesvm executes it", async () => {
    const hex = compileHex(chain, honestInstructions(chain), { version: "legacy" });
    const before = tokenBalance(chain, chain.escrowAta);
    const result = await signCosignTransaction(params(hex, chain.user));
    await cosignAndSend(chain, result.transaction);
    expect(tokenBalance(chain, chain.escrowAta)).toBe(before + AMOUNT);
  });

  it("produces a signature that @noble/curves and node:crypto verify over the kit-compiled message", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const result = await signCosignTransaction(params(hex, chain.user));
    const tx = decodeHex(result.transaction);
    const signature = tx.signatures[chain.userAddress]!;
    const publicKey = chain.user.publicKey.toBytes();
    const messageBytes = new Uint8Array(tx.messageBytes);
    // The message is byte-identical to what kit compiled (before signing).
    expect(bytesToHex(messageBytes)).toBe(bytesToHex(new Uint8Array(decodeHex(hex).messageBytes)));
    expect(ed25519.verify(signature, messageBytes, publicKey)).toBe(true);
    expect(nodeEd25519Verify(signature, messageBytes, publicKey)).toBe(true);
    const flipped = Uint8Array.from(messageBytes);
    flipped[flipped.length - 1]! ^= 1;
    expect(ed25519.verify(signature, flipped, publicKey)).toBe(false);
  });

  it("litesvm refuses the cosigned transaction when the message was tampered after the user signed", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const signed = await signCosignTransaction(params(hex, chain.user));
    const bytes = hexToBytes(signed.transaction);
    // The TransferChecked amount sits before the decimals byte of its data; flip the low byte of the amount.
    const tx = decodeHex(signed.transaction);
    const message = new Uint8Array(tx.messageBytes);
    const amountLow = Number(AMOUNT & 0xffn);
    const at = message.findIndex((b, i) => b === 12 && message[i + 1] === amountLow && message[i + 9] === 6);
    expect(at).toBeGreaterThan(0);
    const offset = bytes.length - message.length + at + 1;
    bytes[offset]! ^= 1;
    const tampered = await partiallySignTransaction(
      [chain.resolver.keyPair],
      getTransactionDecoder().decode(bytes),
    );
    const result = chain.svm.sendTransaction(tampered);
    expect(result).toBeInstanceOf(FailedTransactionMetadata);
    expect((result as FailedTransactionMetadata).err()).toBe(11); // SignatureFailure
  });

  it("litesvm refuses a missing or garbage user signature", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    // Missing: the resolver signs alone.
    const unsigned = await partiallySignTransaction([chain.resolver.keyPair], decodeHex(hex));
    expect(() => chain.svm.sendTransaction(unsigned)).toThrow(/SIGNATURES_MISSING|signature/i);
    // Garbage in the user's slot.
    const signed = await signCosignTransaction(params(hex, chain.user));
    const tx = decodeHex(signed.transaction);
    const garbage = {
      ...tx,
      signatures: { ...tx.signatures, [chain.userAddress]: new Uint8Array(64).fill(7) },
    };
    const cosigned = await partiallySignTransaction([chain.resolver.keyPair], garbage as typeof tx);
    const result = chain.svm.sendTransaction(cosigned);
    expect(result).toBeInstanceOf(FailedTransactionMetadata);
    expect((result as FailedTransactionMetadata).err()).toBe(11);
  });

  it("wallet adapter path: a wallet that zeroes another signer's signature is refused, never repaired", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    // The resolver signs first here, so the wallet has a non-empty foreign signature to wipe.
    const preSigned = await partiallySignTransaction([chain.resolver.keyPair], decodeHex(hex));
    const { getTransactionEncoder } = await import("@solana/kit");
    const preHex = bytesToHex(new Uint8Array(getTransactionEncoder().encode(preSigned)));
    let seen: VersionedTransaction | undefined;
    const wallet = {
      publicKey: chain.user.publicKey,
      async signTransaction(tx: VersionedTransaction) {
        seen = tx;
        tx.sign([chain.user]);
        tx.signatures.forEach((s, i) => {
          if (i !== 1) s.fill(0);
        });
        return tx;
      },
    };
    const error = await signCosignTransaction(params(preHex, wallet)).catch((e: unknown) => e);
    expect(seen).toBeDefined();
    expect(isSwapIntentError(error, "SOL_WALLET_SIGNATURES_CHANGED")).toBe(true);
    expect((error as { details: unknown }).details).toEqual({ source: "wallet", slots: [0] });
  });

  it("refuses a wallet that changes the message (SOL_WALLET_MESSAGE_CHANGED)", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const other = compileHex(chain, honestInstructions(chain, { amount: AMOUNT * 2n }));
    const { VersionedTransaction: VT } = await import("@solana/web3.js");
    const wallet = {
      publicKey: chain.user.publicKey,
      async signTransaction() {
        const tx = VT.deserialize(hexToBytes(other));
        tx.sign([chain.user]);
        return tx;
      },
    };
    await expectCode(signCosignTransaction(params(hex, wallet)), "SOL_WALLET_MESSAGE_CHANGED");
  });

  it("refuses a wallet signature that does not verify (SOL_SIGNATURE_INVALID)", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const wallet = {
      publicKey: chain.user.publicKey,
      async signTransaction(tx: VersionedTransaction) {
        tx.signatures[1] = new Uint8Array(64).fill(9);
        return tx;
      },
    };
    await expectCode(signCosignTransaction(params(hex, wallet)), "SOL_SIGNATURE_INVALID");
  });

  it("signs with an external ed25519 signer over the message bytes; litesvm executes it", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const secret = chain.user.secretKey.slice(0, 32);
    const external = {
      publicKey: chain.user.publicKey.toBase58(),
      signMessage: async (message: Uint8Array) => ed25519.sign(message, secret),
    };
    const result = await signCosignTransaction(params(hex, external));
    await cosignAndSend(chain, result.transaction);
    const wrongKey = Keypair.generate().secretKey.slice(0, 32);
    const liar = { ...external, signMessage: async (m: Uint8Array) => ed25519.sign(m, wrongKey) };
    await expectCode(signCosignTransaction(params(hex, liar)), "SOL_SIGNATURE_INVALID");
  });

  it("verifies before asking the signer: a tampered transaction never reaches the wallet", async () => {
    const hex = compileHex(chain, honestInstructions(chain, { amount: AMOUNT + 1n }));
    let asked = false;
    const wallet = {
      publicKey: chain.user.publicKey,
      async signTransaction(tx: VersionedTransaction) {
        asked = true;
        return tx;
      },
    };
    await expectCode(signCosignTransaction(params(hex, wallet)), "SOL_AMOUNT_MISMATCH");
    expect(asked).toBe(false);
  });

  it("refuses an unusable signer (SOL_SIGNER_INVALID)", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const disconnected = { publicKey: null, signTransaction: async (tx: VersionedTransaction) => tx };
    await expectCode(signCosignTransaction(params(hex, disconnected)), "SOL_SIGNER_INVALID");
  });

  it("does not mutate the intent it was given", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const p = params(hex, chain.user);
    const copy = structuredClone(p.intent);
    await signCosignTransaction(p);
    expect(p.intent).toEqual(copy);
  });
});
