/**
 * What this package signs passes the client's own check of a cosign approval (`submitApproval` refuses anything
 * but the hex of a signed v0 transaction), checked on transactions web3.js serialises: a v0 one goes
 * through, a legacy one (or a bare v0 message) is refused before any request.
 */
import {
  Keypair,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { createSwapIntentClient, isSwapIntentError } from "@swapintent/client";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type Chain,
  compileHex,
  createChain,
  honestInstructions,
  intentFor,
  quoteFor,
} from "../test/fixture.js";
import { bytesToHex } from "./internal/hex.js";
import { signCosignTransaction } from "./signCosignTransaction.js";

let chain: Chain;
beforeAll(async () => {
  chain = await createChain();
});

const intentId = "9b8a7c6d-5e4f-4a3b-9c2d-1e0f2a3b4c5d";

function stubClient(bodies: string[]) {
  return createSwapIntentClient({
    baseUrl: "https://swap.example",
    apiKey: "k",
    retry: false,
    fetch: async (_url, init) => {
      bodies.push(String(init?.body));
      return new Response("");
    },
  });
}

describe("the client accepts what signCosignTransaction returns", () => {
  it("a cosigned v0 transaction is submitted as signed", async () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const { approval } = await signCosignTransaction({
      intent: intentFor(hex),
      quote: quoteFor(chain),
      escrow: { owner: chain.escrowOwner.address },
      signer: chain.user,
    });
    const bodies: string[] = [];
    await stubClient(bodies).submitApproval({ intentId, approval });
    expect(JSON.parse(bodies[0] as string).signed_data.transaction).toBe(approval.signedData.transaction);
  });

  it("web3.js's own serialisations: v0 passes; legacy, or v0 without signatures, is refused, nothing sent", async () => {
    const user = Keypair.generate();
    const feePayer = Keypair.generate();
    const userAddress = user.publicKey.toBase58();
    const instructions = [
      SystemProgram.transfer({
        fromPubkey: user.publicKey,
        toPubkey: Keypair.generate().publicKey,
        lamports: 1,
      }),
    ];
    const recentBlockhash = Keypair.generate().publicKey.toBase58();
    const v0 = new VersionedTransaction(
      new TransactionMessage({
        payerKey: feePayer.publicKey,
        recentBlockhash,
        instructions,
      }).compileToV0Message(),
    );
    v0.sign([user]);
    const legacy = new Transaction({ feePayer: feePayer.publicKey, recentBlockhash }).add(...instructions);
    legacy.partialSign(user);
    const submit = (transaction: string, bodies: string[]) =>
      stubClient(bodies).submitApproval({
        intentId,
        approval: { type: "cosign", signedData: { transaction, userAddress } },
      });

    const sent: string[] = [];
    await submit(bytesToHex(v0.serialize()), sent);
    expect(sent).toHaveLength(1);
    for (const transaction of [
      bytesToHex(legacy.serialize({ requireAllSignatures: false, verifySignatures: false })),
      bytesToHex(v0.message.serialize()),
    ]) {
      const bodies: string[] = [];
      const error = await submit(transaction, bodies).catch((e: unknown) => e);
      expect(isSwapIntentError(error, "INVALID_INPUT")).toBe(true);
      expect((error as { details: { field: string } }).details.field).toBe("approval.signedData.transaction");
      expect(bodies).toEqual([]);
    }
  });
});
