/**
 * Only the one canonical serialization of a transaction is accepted (SOL_TX_DECODE_FAILED): no non-minimal lengths,
 * no trailing bytes, no account loaded twice.
 */
import { generateKeyPairSigner } from "@solana/kit";
import { VersionedTransaction } from "@solana/web3.js";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Chain, codeOf, compileHex, createChain, honestInstructions } from "../test/fixture.js";
import { transactionTools } from "../test/transactionTools.js";
import { bytesToHex, hexToBytes } from "./internal/hex.js";
import { verifyCosignTransaction } from "./verifyCosignTransaction.js";

let chain: Chain;
beforeAll(async () => {
  chain = await createChain();
});
beforeEach(() => chain.svm.expireBlockhash());

const { params, signRefusalUnquoted } = transactionTools(() => chain);

describe("only the canonical serialization is accepted (SOL_TX_DECODE_FAILED)", () => {
  it("refuses a non-minimal signature count (0x82 0x00 for 2), which web3.js itself decodes", async () => {
    const bytes = hexToBytes(compileHex(chain, honestInstructions(chain)));
    expect(bytes[0]).toBe(2);
    const stretched = Uint8Array.from([0x82, 0x00, ...bytes.subarray(1)]);
    expect(VersionedTransaction.deserialize(stretched).signatures).toHaveLength(2);
    const hex = bytesToHex(stretched);
    expect(codeOf(() => verifyCosignTransaction(params(hex)))).toBe("SOL_TX_DECODE_FAILED");
    expect(await signRefusalUnquoted(hex)).toEqual({ code: "SOL_TX_DECODE_FAILED", signerCalls: 0 });
  });

  it("refuses a non-minimal length inside the message (the account-key count) and a third shortvec byte", () => {
    const bytes = hexToBytes(compileHex(chain, honestInstructions(chain)));
    // v0: [sig count][2 x 64][0x80 version][3 header bytes][account-key count]...
    const at = 1 + 128 + 1 + 3;
    const count = bytes[at]!;
    expect(count).toBeLessThan(128);
    const inner = Uint8Array.from([...bytes.subarray(0, at), count | 0x80, 0x00, ...bytes.subarray(at + 1)]);
    expect(codeOf(() => verifyCosignTransaction(params(bytesToHex(inner))))).toBe("SOL_TX_DECODE_FAILED");
    const three = Uint8Array.from([0x82, 0x80, 0x00, ...bytes.subarray(1)]);
    expect(codeOf(() => verifyCosignTransaction(params(bytesToHex(three))))).toBe("SOL_TX_DECODE_FAILED");
  });

  it("refuses trailing bytes and a transaction that loads an account twice through a lookup table", async () => {
    const honest = compileHex(chain, honestInstructions(chain));
    expect(codeOf(() => verifyCosignTransaction(params(`${honest}00`)))).toBe("SOL_TX_DECODE_FAILED");
    const table = (await generateKeyPairSigner()).address;
    const hex = compileHex(chain, honestInstructions(chain), {
      lookupTables: { [table]: [chain.escrowAta] },
    });
    const lookupTables = [{ key: table, addresses: [chain.userAta] }]; // the user's account, already static
    expect(codeOf(() => verifyCosignTransaction(params(hex, { lookupTables })))).toBe("SOL_TX_DECODE_FAILED");
  });
});
