/**
 * The decoder against the runtime's own sanitize rules: a message the runtime refuses before it runs anything
 * (litesvm, the real SVM) must be refused by the decoder too, with `SOL_TX_DECODE_FAILED`, whatever else the
 * verifier would have thought of it. Messages are re-encoded with Kit's compiled-message codec (an independent
 * encoder) after one field is changed, and signed by every required signer, so the runtime's refusal is its sanitize
 * step and not a missing signature.
 */
import { ed25519 } from "@noble/curves/ed25519";
import {
  type Address,
  generateKeyPairSigner,
  getCompiledTransactionMessageDecoder,
  getCompiledTransactionMessageEncoder,
  getTransactionEncoder,
  partiallySignTransaction,
  signBytes,
  type Transaction,
} from "@solana/kit";
import { FailedTransactionMetadata } from "litesvm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type Chain,
  codeOf,
  compileHex,
  createChain,
  decodeHex,
  honestInstructions,
  verifyParams,
} from "../../test/fixture.js";
import { everyPathRefusal, refusedEverywhere } from "../../test/paths.js";
import { SOLANA_PROGRAM_ADDRESSES } from "../constants.js";
import { isSolanaCosignError } from "../isSolanaCosignError.js";
import { verifyAndDecode } from "../verifyCosignTransaction.js";
import { decodeTransaction } from "./decodeTransaction.js";
import { bytesToHex, hexToBytes } from "./hex.js";

let chain: Chain;
let table: Address;
let filler: Address[];
beforeAll(async () => {
  chain = await createChain();
  table = (await generateKeyPairSigner()).address;
  filler = await Promise.all(
    Array.from({ length: 256 }, async () => (await generateKeyPairSigner()).address),
  );
});
beforeEach(() => chain.svm.expireBlockhash());

type Compiled = Record<string, unknown> & {
  header: {
    numSignerAccounts: number;
    numReadonlySignerAccounts: number;
    numReadonlyNonSignerAccounts: number;
  };
  staticAccounts: Address[];
  instructions: { programAddressIndex: number; accountIndices?: number[]; data?: Uint8Array }[];
  addressTableLookups?: {
    lookupTableAddress: Address;
    writableIndexes: number[];
    readonlyIndexes: number[];
  }[];
};

/** The honest v0 transaction with its message changed by `mutate`, re-encoded by Kit and signed by both signers. */
async function mutated(mutate: (m: Compiled) => void): Promise<{ hex: string; tx: Transaction }> {
  const honest = decodeHex(compileHex(chain, honestInstructions(chain)));
  const message = structuredClone(
    getCompiledTransactionMessageDecoder().decode(honest.messageBytes),
  ) as unknown as Compiled;
  mutate(message);
  const messageBytes = getCompiledTransactionMessageEncoder().encode(message as never);
  const signers = message.staticAccounts.slice(0, message.header.numSignerAccounts);
  const unsigned = {
    messageBytes,
    signatures: Object.fromEntries(signers.map((a) => [a, null])),
  } as unknown as Transaction;
  const bytes = new Uint8Array(getTransactionEncoder().encode(unsigned));
  const tx = await partiallySignTransaction([chain.resolver.keyPair], unsigned);
  const userSignature = ed25519.sign(new Uint8Array(messageBytes), chain.user.secretKey.subarray(0, 32));
  const signed = {
    ...tx,
    signatures: { ...tx.signatures, [chain.userAddress]: userSignature },
  } as Transaction;
  return { hex: bytesToHex(bytes), tx: signed };
}

/** litesvm's answer: its error text, or "ok". */
function runtime(tx: Transaction): string {
  const result = chain.svm.sendTransaction(tx);
  return result instanceof FailedTransactionMetadata ? result.toString() : "ok";
}

const cases: [string, (m: Compiled) => void][] = [
  [
    "the fee payer read-only (readonly signed = required)",
    (m) => {
      m.header.numReadonlySignerAccounts = m.header.numSignerAccounts;
    },
  ],
  [
    "more read-only unsigned accounts than unsigned accounts",
    (m) => {
      m.header.numReadonlyNonSignerAccounts = m.staticAccounts.length - m.header.numSignerAccounts + 1;
    },
  ],
  [
    "an instruction whose program is the fee payer (index 0)",
    (m) => {
      m.instructions[2]!.programAddressIndex = 0;
    },
  ],
  [
    "a lookup table that loads no account",
    (m) => {
      m.addressTableLookups = [{ lookupTableAddress: table, writableIndexes: [], readonlyIndexes: [] }];
    },
  ],
  [
    "a program id loaded through a lookup table",
    (m) => {
      m.addressTableLookups = [{ lookupTableAddress: table, writableIndexes: [], readonlyIndexes: [0] }];
      m.instructions[2]!.programAddressIndex = m.staticAccounts.length;
    },
  ],
  [
    "more than 256 accounts (static and looked up)",
    (m) => {
      const n = 257 - m.staticAccounts.length;
      m.addressTableLookups = [
        {
          lookupTableAddress: table,
          writableIndexes: [],
          readonlyIndexes: Array.from({ length: n }, (_, i) => i + 1),
        },
      ];
    },
  ],
];

describe("a message the runtime's sanitize step refuses is refused by the decoder", () => {
  it.each(cases)("%s", async (_name, mutate) => {
    const { hex, tx } = await mutated(mutate);
    // The lookup table's contents as the wallet read them: the (allowed) memo v1 program first, then distinct fillers.
    const lookupTables = [{ key: table, addresses: [SOLANA_PROGRAM_ADDRESSES.memoV1, ...filler] }];
    expect(runtime(tx)).toMatch(/Sanitize|sanitize/);
    expect(codeOf(() => verifyAndDecode(verifyParams(chain, hex, { lookupTables })))).toBe(
      "SOL_TX_DECODE_FAILED",
    );
    // Every signing path refuses it the same way, its signer never asked.
    expect(await everyPathRefusal(verifyParams(chain, hex, { lookupTables }))).toEqual(
      refusedEverywhere("SOL_TX_DECODE_FAILED"),
    );
  });

  it("the honest transaction re-encoded the same way passes both (the harness itself changes nothing)", async () => {
    const { hex, tx } = await mutated(() => {});
    expect(codeOf(() => verifyAndDecode(verifyParams(chain, hex)))).toBeUndefined();
    expect(runtime(tx)).toBe("ok");
  });
});

describe("the decoder accepts exactly what the runtime's sanitize step accepts (a grid of header counts and indexes)", () => {
  it("every read-only count and every program index of one instruction: the same verdict as litesvm", async () => {
    const statics = decodeHex(compileHex(chain, honestInstructions(chain))).messageBytes[4]!;
    const grid: ((m: Compiled) => void)[] = [];
    for (let signed = 0; signed <= 3; signed++)
      for (let unsigned = 0; unsigned <= statics; unsigned++)
        grid.push((m) => {
          m.header.numReadonlySignerAccounts = signed;
          m.header.numReadonlyNonSignerAccounts = unsigned;
        });
    for (let program = 0; program <= statics + 1; program++)
      for (const account of [0, statics - 1, statics, 255])
        grid.push((m) => {
          m.instructions[1]!.programAddressIndex = program;
          m.instructions[1]!.accountIndices = [account];
        });
    const disagreements: string[] = [];
    for (const [i, mutate] of grid.entries()) {
      chain.svm.expireBlockhash();
      const { hex, tx } = await mutated(mutate);
      const ours = codeOf(() => decodeTransaction(hex)) === undefined;
      const theirs = !/anitize/.test(runtime(tx));
      if (ours !== theirs) disagreements.push(`case ${i}: decoder ${ours}, runtime ${theirs}`);
    }
    expect(grid.length).toBeGreaterThan(40);
    expect(disagreements).toEqual([]);
  });
});

/** A small deterministic generator (mulberry32), so a failure names a case that can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The raw wire bytes to litesvm (no re-encoding): "sanitize" when its sanitize step refused them, else "ran". */
function runtimeOfBytes(bytes: Uint8Array, legacy: boolean): string {
  // litesvm's binding aborts the process on bytes it cannot deserialize: only bytes our decoder reads are sent.
  const inner = (chain.svm as unknown as { inner: Record<string, (b: Uint8Array) => unknown> }).inner;
  const result = inner[legacy ? "sendLegacyTransaction" : "sendVersionedTransaction"]!(bytes);
  return /anitize/.test(String(result)) ? "sanitize" : "ran";
}

/** The reason our decoder refuses `bytes` (`details.reason`), its code for another refusal, or undefined. */
function decoderVerdict(bytes: Uint8Array): string | undefined {
  try {
    decodeTransaction(bytesToHex(bytes));
    return undefined;
  } catch (error) {
    if (isSolanaCosignError(error, "SOL_TX_DECODE_FAILED")) return error.details.reason;
    return isSolanaCosignError(error) ? error.code : String(error);
  }
}

/**
 * Which field Kit's compiled-message decoder (an independent reader) reads differently from ours, if any: the
 * header (so the signers and the writability of every key), the static keys, the blockhash, every instruction's
 * program, accounts and data, every lookup.
 */
function fieldMismatch(bytes: Uint8Array, message: Uint8Array): string | undefined {
  const ours = decodeTransaction(bytesToHex(bytes));
  const kit = getCompiledTransactionMessageDecoder().decode(message) as unknown as Compiled & {
    lifetimeToken: string;
  };
  const fields: [string, unknown, unknown][] = [
    [
      "header",
      ours.header,
      {
        numRequiredSignatures: kit.header.numSignerAccounts,
        numReadonlySignedAccounts: kit.header.numReadonlySignerAccounts,
        numReadonlyUnsignedAccounts: kit.header.numReadonlyNonSignerAccounts,
      },
    ],
    ["static keys", ours.staticAccountKeys, kit.staticAccounts],
    ["blockhash", ours.recentBlockhash, kit.lifetimeToken],
    [
      "instructions",
      ours.instructions.map((ix) => [ix.programIdIndex, ix.accountKeyIndexes, bytesToHex(ix.data)]),
      kit.instructions.map((ix) => [
        ix.programAddressIndex,
        ix.accountIndices ?? [],
        bytesToHex(ix.data ?? new Uint8Array()),
      ]),
    ],
    [
      "lookups",
      ours.addressTableLookups.map((l) => [l.accountKey, l.writableIndexes, l.readonlyIndexes]),
      (kit.addressTableLookups ?? []).map((l) => [
        l.lookupTableAddress,
        l.writableIndexes,
        l.readonlyIndexes,
      ]),
    ],
  ];
  return fields.find(([, a, b]) => JSON.stringify(a) !== JSON.stringify(b))?.[0];
}

/** Refusals of a message the runtime deserializes and then refuses in its sanitize step. */
const SANITIZE_REASONS = new Set([
  "no fee payer",
  "fee payer read-only",
  "header counts exceed the account keys",
  "lookup table loads no account",
  "more than 256 accounts",
  "program id is the fee payer",
  "program id not a static account key",
  "account index out of range",
]);

describe("random message mutations: the decoder and litesvm agree on what is a transaction", () => {
  it.each([
    ["v0", 0 as const],
    ["legacy", "legacy" as const],
  ])("%s: 300 mutations, re-signed", async (_name, version) => {
    const next = random(version === 0 ? 7 : 11);
    const honest = hexToBytes(compileHex(chain, honestInstructions(chain), { version }));
    const messageStart = 1 + 64 * 2;
    // The first two static keys sign; mutating them would make a signature failure, not a structural one.
    const keysStart = messageStart + (version === 0 ? 5 : 4);
    const special = [0x00, 0x01, 0x7f, 0x80, 0x81, 0xff];
    const disagreements: string[] = [];
    let refused = 0;
    let sanitizeRefusals = 0;
    for (let i = 0; i < 300; i++) {
      const bytes = honest.slice();
      let at: number;
      do at = messageStart + Math.floor(next() * (bytes.length - messageStart));
      while (at >= keysStart && at < keysStart + 64);
      bytes[at] = next() < 0.5 ? special[Math.floor(next() * special.length)]! : Math.floor(next() * 256);
      const message = bytes.subarray(messageStart);
      bytes.set(ed25519.sign(message, chain.user.secretKey.subarray(0, 32)), 1 + 64);
      bytes.set(new Uint8Array(await signBytes(chain.resolver.keyPair.privateKey, message)), 1);
      const ours = decoderVerdict(bytes);
      if (ours === "SOL_TX_VERSION_UNSUPPORTED") continue; // v1 and later: refused here, whatever the runtime does
      if (ours !== undefined) refused++;
      // Refusals of bytes that do not deserialize (a cut, a non-minimal length, trailing bytes) cannot be sent.
      if (ours !== undefined && !SANITIZE_REASONS.has(ours)) continue;
      if (ours !== undefined) sanitizeRefusals++;
      if (ours === undefined) {
        const mismatch = fieldMismatch(bytes, message);
        if (mismatch !== undefined) disagreements.push(`mutation ${i}: Kit reads another ${mismatch}`);
      }
      const theirs = runtimeOfBytes(bytes, message[0]! < 0x80);
      if ((ours === undefined) !== (theirs === "ran")) {
        disagreements.push(
          `mutation ${i} (byte ${at} = ${bytes[at]}): decoder ${ours ?? "accepts"}, litesvm ${theirs}`,
        );
      }
      chain.svm.expireBlockhash();
    }
    expect(refused).toBeGreaterThan(10);
    expect(sanitizeRefusals).toBeGreaterThan(3);
    expect(disagreements).toEqual([]);
  });
});
