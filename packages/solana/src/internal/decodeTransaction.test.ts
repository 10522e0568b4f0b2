import { type Address, generateKeyPairSigner } from "@solana/kit";
import { VersionedTransaction } from "@solana/web3.js";
import { beforeAll, describe, expect, it } from "vitest";
import { type Chain, compileHex, createChain, honestInstructions } from "../../test/fixture.js";
import { isSolanaCosignError } from "../isSolanaCosignError.js";
import { decodeTransaction } from "./decodeTransaction.js";
import { bytesToHex, hexToBytes } from "./hex.js";

let chain: Chain;
let table: Address;
beforeAll(async () => {
  chain = await createChain();
  table = (await generateKeyPairSigner()).address;
});

/** The decoded form, read again by web3.js 1.x (an independent decoder) for comparison. */
function web3View(hex: string) {
  const tx = VersionedTransaction.deserialize(hexToBytes(hex));
  const m = tx.message;
  return {
    version: tx.version,
    header: { ...m.header },
    staticAccountKeys: m.staticAccountKeys.map((k) => k.toBase58()),
    recentBlockhash: m.recentBlockhash,
    instructions: m.compiledInstructions.map((ix) => ({
      programIdIndex: ix.programIdIndex,
      accountKeyIndexes: [...ix.accountKeyIndexes],
      data: Uint8Array.from(ix.data),
    })),
    addressTableLookups: m.addressTableLookups.map((l) => ({
      accountKey: l.accountKey.toBase58(),
      writableIndexes: [...l.writableIndexes],
      readonlyIndexes: [...l.readonlyIndexes],
    })),
    signatures: tx.signatures.map((s) => Uint8Array.from(s)),
    messageBytes: Uint8Array.from(m.serialize()),
  };
}

describe("decodeTransaction reads what web3.js reads", () => {
  it("a v0, a legacy and a v0 transaction with a lookup table: every field equal", () => {
    const hexes = [
      compileHex(chain, honestInstructions(chain)),
      compileHex(chain, honestInstructions(chain), { version: "legacy" }),
      compileHex(chain, honestInstructions(chain), {
        lookupTables: { [table]: [chain.escrowAta, chain.mint] },
      }),
    ];
    for (const hex of hexes) {
      const { bytes, signaturesOffset, ...ours } = decodeTransaction(hex);
      expect(ours).toEqual(web3View(hex));
      expect(bytesToHex(bytes)).toBe(hex);
      expect(signaturesOffset).toBe(1);
    }
    expect(decodeTransaction(hexes[2]!).addressTableLookups).toHaveLength(1);
  });

  it("refuses a version other than legacy and v0 with its own code and the version", () => {
    const b = hexToBytes(compileHex(chain, honestInstructions(chain)));
    b[1 + 64 * b[0]!] = 0x85;
    let error: unknown;
    try {
      decodeTransaction(bytesToHex(b));
    } catch (e) {
      error = e;
    }
    expect(isSolanaCosignError(error, "SOL_TX_VERSION_UNSUPPORTED") && error.details.version).toBe(5);
  });

  it("a cut anywhere is refused (SOL_TX_DECODE_FAILED), never read past the end", () => {
    const b = hexToBytes(compileHex(chain, honestInstructions(chain)));
    for (let length = 0; length < b.length; length++) {
      let error: unknown;
      try {
        decodeTransaction(bytesToHex(b.subarray(0, length)) || "00");
      } catch (e) {
        error = e;
      }
      expect(isSolanaCosignError(error, "SOL_TX_DECODE_FAILED"), String(length)).toBe(true);
    }
  });
});
