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
import { MEMO_V1_PROGRAM_ADDRESS } from "../constants.js";
import { verifyAndDecode } from "../verifyCosignTransaction.js";
import { decodeTransaction } from "./decodeTransaction.js";
import { bytesToHex } from "./hex.js";

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
    const lookupTables = [{ key: table, addresses: [MEMO_V1_PROGRAM_ADDRESS, ...filler] }];
    expect(runtime(tx)).toMatch(/Sanitize|sanitize/);
    expect(codeOf(() => verifyAndDecode(verifyParams(chain, hex, { lookupTables })))).toBe(
      "SOL_TX_DECODE_FAILED",
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
