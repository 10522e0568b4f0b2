/**
 * One rule for every signing path: a wallet may change the user's signature slot and nothing else. One table of
 * wallet answers (each a tampered copy of the honest signed transaction, expressed in what each path's wallet
 * returns) runs through all five ways to sign: a web3.js `Keypair`, a web3.js wallet adapter (`signTransaction`),
 * an external ed25519 signer (`signMessage`), a Kit `TransactionPartialSigner`, a wallet-standard wallet. The two
 * paths that get a whole transaction back (adapter, wallet-standard) must refuse every row with the same code; litesvm
 * (signature verification on) executes every honest result.
 */
import { ed25519 } from "@noble/curves/ed25519";
import { partiallySignTransaction } from "@solana/kit";
import { Transaction, VersionedMessage, VersionedTransaction } from "@solana/web3.js";
import { isSwapIntentError } from "@swapintent/client";
import { FailedTransactionMetadata } from "litesvm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type Chain,
  compileHex,
  createChain,
  decodeHex,
  honestInstructions,
  intentFor,
  quoteFor,
} from "../test/fixture.js";
import { standardAccount } from "../test/paths.js";
import { bytesToHex, hexToBytes } from "./internal/hex.js";
import { signCosignTransaction } from "./signCosignTransaction.js";
import { signCosignTransactionWithKit } from "./signCosignTransactionWithKit.js";
import { signCosignTransactionWithWalletStandard } from "./signCosignTransactionWithWalletStandard.js";

let chain: Chain;
/** The transaction the service sends: the resolver (fee payer, slot 0) has signed already; the user's slot 1 is empty. */
let original: { hex: string; signatures: Uint8Array[]; message: Uint8Array; signers: string[] };
beforeAll(async () => {
  chain = await createChain();
  const compiled = decodeHex(compileHex(chain, honestInstructions(chain)));
  const preSigned = await partiallySignTransaction([chain.resolver.keyPair], compiled);
  const signers = Object.keys(preSigned.signatures);
  const signatures = signers.map(
    (key) => new Uint8Array(preSigned.signatures[key as never] ?? new Uint8Array(64)),
  );
  const message = new Uint8Array(preSigned.messageBytes);
  original = { hex: bytesToHex(wire(signatures, message)), signatures, message, signers };
  expect(signers).toEqual([chain.resolver.address, chain.userAddress]);
});

const USER = 1;
const secret = () => chain.user.secretKey.subarray(0, 32);
const L = ed25519.CURVE.n;
const le = (bytes: Uint8Array) => bytes.reduceRight((n, b) => (n << 8n) | BigInt(b), 0n);
const toLe32 = (n: bigint) => Uint8Array.from({ length: 32 }, (_, i) => Number((n >> BigInt(8 * i)) & 0xffn));

/** Wire bytes: the signature count (below 128, one byte), the signatures, the message. */
function wire(signatures: Uint8Array[], message: Uint8Array): Uint8Array {
  return Uint8Array.from([signatures.length, ...signatures.flatMap((s) => [...s]), ...message]);
}

/** A signed transaction as a wallet would return it: its signature slots and its message bytes. */
interface Answer {
  signatures: Uint8Array[];
  message: Uint8Array;
}

/** The honest answer: the user's signature over the message in the user's slot, every other slot as sent. */
function honestAnswer(): Answer {
  const signatures: Uint8Array[] = original.signatures.map((s) => s.slice());
  signatures[USER] = ed25519.sign(original.message, secret());
  return { signatures, message: original.message };
}

type Path = "keypair" | "adapter" | "external" | "kit" | "walletStandard";
const ACCEPTED = "accepted";

interface Row {
  name: string;
  /** The tampered answer (what adapter and wallet-standard wallets return; the others get what they can express). */
  answer: () => Answer;
  /** What each path must do (a path missing here cannot express this answer). */
  expect: Partial<Record<Path, string>>;
  /** Overrides of what a path's wallet returns, for answers of another type or encoding. */
  raw?: Partial<Record<"adapter" | "external" | "kit" | "walletStandard", () => unknown>>;
  /** A Keypair-shaped signer for this row (default: the user's Keypair). */
  keypair?: () => { publicKey: unknown; secretKey: Uint8Array };
}

const both = (code: string) => ({ adapter: code, walletStandard: code });

const rows: Row[] = [
  {
    name: "honest: only the user's signature added",
    answer: honestAnswer,
    expect: { keypair: ACCEPTED, ...both(ACCEPTED), external: ACCEPTED, kit: ACCEPTED },
  },
  {
    name: "a message byte changed (the memo's intent id), signed by the user as changed",
    answer: () => {
      const message = original.message.slice();
      const memo = Buffer.from(message).indexOf("swapintent:");
      expect(memo).toBeGreaterThan(0);
      message[memo + "swapintent:".length]! ^= 1;
      const signatures: Uint8Array[] = original.signatures.map((s) => s.slice());
      signatures[USER] = ed25519.sign(message, secret());
      return { signatures, message };
    },
    expect: {
      ...both("SOL_WALLET_MESSAGE_CHANGED"),
      external: "SOL_SIGNATURE_INVALID",
      kit: "SOL_SIGNATURE_INVALID",
    },
  },
  {
    name: "the resolver's signature zeroed",
    answer: () => {
      const answer = honestAnswer();
      answer.signatures[0] = new Uint8Array(64);
      return answer;
    },
    expect: { ...both("SOL_WALLET_SIGNATURES_CHANGED"), kit: "SOL_WALLET_SIGNATURES_CHANGED" },
  },
  {
    name: "the resolver's signature replaced",
    answer: () => {
      const answer = honestAnswer();
      answer.signatures[0] = ed25519.sign(original.message, ed25519.utils.randomPrivateKey());
      return answer;
    },
    expect: { ...both("SOL_WALLET_SIGNATURES_CHANGED"), kit: "SOL_WALLET_SIGNATURES_CHANGED" },
  },
  {
    name: "an extra signature",
    answer: () => {
      const answer = honestAnswer();
      answer.signatures.push(new Uint8Array(64).fill(5));
      return answer;
    },
    expect: {
      ...both("SOL_WALLET_RESPONSE_INVALID"),
      kit: "SOL_WALLET_RESPONSE_INVALID",
      external: "SOL_SIGNATURE_INVALID",
    },
  },
  {
    name: "a signature missing (the user's slot dropped)",
    answer: () => {
      const answer = honestAnswer();
      answer.signatures.pop();
      return answer;
    },
    expect: {
      ...both("SOL_WALLET_RESPONSE_INVALID"),
      kit: "SOL_SIGNATURE_INVALID",
      external: "SOL_SIGNATURE_INVALID",
    },
  },
  {
    name: "the user's slot left zero",
    answer: () => ({ signatures: original.signatures.map((s) => s.slice()), message: original.message }),
    expect: {
      ...both("SOL_SIGNATURE_INVALID"),
      kit: "SOL_SIGNATURE_INVALID",
      external: "SOL_SIGNATURE_INVALID",
    },
  },
  {
    name: "a valid signature by another key in the user's slot",
    answer: () => {
      const answer = honestAnswer();
      answer.signatures[USER] = ed25519.sign(original.message, ed25519.utils.randomPrivateKey());
      return answer;
    },
    expect: {
      // A Keypair is refused before it signs: its secret key does not derive the user's public key.
      keypair: "SOL_SIGNER_INVALID",
      ...both("SOL_SIGNATURE_INVALID"),
      kit: "SOL_SIGNATURE_INVALID",
      external: "SOL_SIGNATURE_INVALID",
    },
    // A Keypair-shaped object whose secret key is another key's.
    keypair: () => ({ publicKey: chain.user.publicKey, secretKey: ed25519.utils.randomPrivateKey() }),
  },
  {
    name: "the user's signature with a non-canonical S (S + L)",
    answer: () => {
      const answer = honestAnswer();
      const s = answer.signatures[USER]!;
      answer.signatures[USER] = Uint8Array.from([...s.subarray(0, 32), ...toLe32(le(s.subarray(32)) + L)]);
      return answer;
    },
    expect: {
      ...both("SOL_SIGNATURE_INVALID"),
      kit: "SOL_SIGNATURE_INVALID",
      external: "SOL_SIGNATURE_INVALID",
    },
  },
  {
    name: "an answer of another type or encoding (base64 / hex / base58 text, a number array, a legacy Transaction)",
    answer: honestAnswer,
    raw: {
      adapter: () =>
        new Transaction({ feePayer: chain.user.publicKey, recentBlockhash: chain.svm.latestBlockhash() }),
      walletStandard: () => [
        {
          signedTransaction: Buffer.from(wire(honestAnswer().signatures, original.message)).toString(
            "base64",
          ),
        },
      ],
      kit: () => [{ [chain.userAddress]: [...honestAnswer().signatures[USER]!] }],
      external: () => bytesToHex(honestAnswer().signatures[USER]!),
    },
    expect: {
      ...both("SOL_WALLET_RESPONSE_INVALID"),
      kit: "SOL_SIGNATURE_INVALID",
      external: "SOL_SIGNATURE_INVALID",
    },
  },
  {
    name: "an adapter answer shaped like a transaction (signatures, message) but without serialize",
    answer: honestAnswer,
    raw: {
      adapter: () => {
        const { signatures, message } = honestAnswer();
        return { signatures, message: VersionedMessage.deserialize(message) };
      },
    },
    expect: { adapter: "SOL_WALLET_RESPONSE_INVALID" },
  },
  {
    name: "an adapter answer of raw wire bytes instead of a VersionedTransaction",
    answer: honestAnswer,
    raw: { adapter: () => wire(honestAnswer().signatures, original.message) },
    expect: { adapter: "SOL_WALLET_RESPONSE_INVALID" },
  },
];

/** The adapter's answer: a real VersionedTransaction whose wire form is `answer` (signatures set after construction). */
function adapterTransaction(answer: Answer): VersionedTransaction {
  const tx = new VersionedTransaction(VersionedMessage.deserialize(answer.message));
  tx.signatures = answer.signatures;
  return tx;
}

/** The Kit dictionary of `answer`: an entry for every slot that is not as sent (past the signers: a stranger's), and the user's. */
function kitDictionary(answer: Answer): Record<string, Uint8Array> {
  const dictionary: Record<string, Uint8Array> = {};
  answer.signatures.forEach((signature, i) => {
    const changed =
      i >= original.signatures.length || bytesToHex(signature) !== bytesToHex(original.signatures[i]!);
    if (i === USER || changed) dictionary[original.signers[i] ?? chain.stranger] = signature;
  });
  return dictionary;
}

/** The external signer's answer: the user's slot (the extra signature appended to it when there is one). */
function externalSignature(answer: Answer): Uint8Array | undefined {
  const user = answer.signatures[USER];
  if (user === undefined) return undefined;
  return Uint8Array.from(answer.signatures.slice(USER).flatMap((s) => [...s]));
}

/** Run one row through one path: the code it refused with or "accepted", and the signed hex when accepted. */
async function run(row: Row, path: Path): Promise<{ outcome: string; hex?: string }> {
  const base = {
    intent: intentFor(original.hex),
    quote: quoteFor(chain),
    escrow: { owner: chain.escrowOwner.address },
  };
  const answer = row.answer();
  const raw = row.raw?.[path as keyof NonNullable<Row["raw"]>];
  const attempt = (): Promise<{ transaction: string }> => {
    switch (path) {
      case "keypair":
        return signCosignTransaction({ ...base, signer: (row.keypair?.() ?? chain.user) as never });
      case "adapter":
        return signCosignTransaction({
          ...base,
          signer: {
            publicKey: chain.user.publicKey,
            signTransaction: async () => (raw ? raw() : adapterTransaction(answer)) as VersionedTransaction,
          },
        });
      case "external":
        return signCosignTransaction({
          ...base,
          signer: {
            publicKey: chain.user.publicKey,
            signMessage: async () => (raw ? raw() : externalSignature(answer)) as Uint8Array,
          },
        });
      case "kit":
        return signCosignTransactionWithKit({
          ...base,
          signer: {
            address: chain.userAddress,
            signTransactions: async () => (raw ? raw() : [kitDictionary(answer)]) as never,
          },
        });
      case "walletStandard":
        return signCosignTransactionWithWalletStandard({
          ...base,
          account: standardAccount(chain.userAddress),
          wallet: {
            accounts: [],
            features: {
              "solana:signTransaction": {
                version: "1.0.0",
                supportedTransactionVersions: ["legacy", 0],
                signTransaction: async () =>
                  raw ? raw() : [{ signedTransaction: wire(answer.signatures, answer.message) }],
              },
            },
          },
        });
    }
  };
  try {
    const result = await attempt();
    return { outcome: ACCEPTED, hex: result.transaction };
  } catch (error) {
    return { outcome: isSwapIntentError(error) ? error.code : `not a SwapIntentError: ${String(error)}` };
  }
}

describe("one rule, one table, every path", () => {
  it.each(rows)("$name", async (row) => {
    const outcomes: Partial<Record<Path, string>> = {};
    for (const path of Object.keys(row.expect) as Path[]) {
      const { outcome, hex } = await run(row, path);
      outcomes[path] = outcome;
      if (outcome === ACCEPTED) {
        // The signed bytes differ from what was sent in the user's slot only, and litesvm (sigverify on) runs them.
        const sent = hexToBytes(original.hex);
        const signed = hexToBytes(hex!);
        expect(bytesToHex(signed.subarray(0, 65)), path).toBe(bytesToHex(sent.subarray(0, 65)));
        expect(bytesToHex(signed.subarray(129)), path).toBe(bytesToHex(sent.subarray(129)));
        const simulated = chain.svm.simulateTransaction(decodeHex(hex!));
        expect(simulated, path).not.toBeInstanceOf(FailedTransactionMetadata);
      }
    }
    expect(outcomes).toEqual(row.expect);
    if (row.expect.adapter !== undefined && row.expect.walletStandard !== undefined)
      expect(outcomes.adapter).toBe(outcomes.walletStandard);
  });
});
