import { opcodes, script } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import { leaves, resolverKey, SECRET_HASH, userKey, xOnly } from "../test/fixtures.js";
import { buildHtlcLeaves } from "./buildHtlcLeaves.js";
import { parseHtlcLeaves } from "./parseHtlcLeaves.js";

describe("HTLC leaves", () => {
  it("builds the documented scripts and reads them back, small and large delays", () => {
    for (const csv of [1, 16, 17, 144, 1008, 65535]) {
      const fields = {
        secretHash: SECRET_HASH,
        resolverXOnly: xOnly(resolverKey),
        userXOnly: xOnly(userKey),
      };
      const built = buildHtlcLeaves({ ...fields, csvBlocks: csv });
      const written = leaves({
        secretHash: SECRET_HASH,
        claimKey: fields.resolverXOnly,
        refundKey: fields.userXOnly,
        csv,
      });
      expect(Buffer.from(built.claim)).toEqual(Buffer.from(written.claim));
      expect(Buffer.from(built.refund)).toEqual(Buffer.from(written.refund));
      expect(parseHtlcLeaves(built)).toEqual({ ...fields, csvBlocks: csv });
    }
  });

  it("refuses other scripts: swapped leaves, a non-minimal number, an extra opcode, a short hash", () => {
    const good = buildHtlcLeaves({
      secretHash: SECRET_HASH,
      resolverXOnly: xOnly(resolverKey),
      userXOnly: xOnly(userKey),
      csvBlocks: 144,
    });
    expect(parseHtlcLeaves({ claim: good.refund, refund: good.claim })).toBeNull();
    const nonMinimal = script.compile([
      Uint8Array.from([0x90, 0x00, 0x00]),
      opcodes.OP_CHECKSEQUENCEVERIFY,
      opcodes.OP_DROP,
      xOnly(userKey),
      opcodes.OP_CHECKSIG,
    ]);
    expect(parseHtlcLeaves({ claim: good.claim, refund: nonMinimal })).toBeNull();
    expect(
      parseHtlcLeaves({ claim: Uint8Array.from([...good.claim, opcodes.OP_NOP]), refund: good.refund }),
    ).toBeNull();
    const shortHash = script.compile([
      opcodes.OP_SHA256,
      SECRET_HASH.slice(0, 20),
      opcodes.OP_EQUALVERIFY,
      xOnly(resolverKey),
      opcodes.OP_CHECKSIG,
    ]);
    expect(parseHtlcLeaves({ claim: shortHash, refund: good.refund })).toBeNull();
  });

  it("refuses lookalikes: another hash opcode, CLTV or CHECKSIGVERIFY, a pushed small number, a negative delay", () => {
    const good = buildHtlcLeaves({
      secretHash: SECRET_HASH,
      resolverXOnly: xOnly(resolverKey),
      userXOnly: xOnly(userKey),
      csvBlocks: 144,
    });
    const claim = (hashOp: number) =>
      script.compile([hashOp, SECRET_HASH, opcodes.OP_EQUALVERIFY, xOnly(resolverKey), opcodes.OP_CHECKSIG]);
    const refund = (n: number | Uint8Array, lockOp: number, sigOp: number) =>
      script.compile([n, lockOp, opcodes.OP_DROP, xOnly(userKey), sigOp]);
    const { OP_CHECKSEQUENCEVERIFY: CSV, OP_CHECKSIG: CHECKSIG } = opcodes;
    expect(parseHtlcLeaves({ claim: claim(opcodes.OP_HASH256), refund: good.refund })).toBeNull();
    expect(parseHtlcLeaves({ claim: claim(opcodes.OP_RIPEMD160), refund: good.refund })).toBeNull();
    const n144 = script.number.encode(144);
    for (const bad of [
      refund(n144, opcodes.OP_CHECKLOCKTIMEVERIFY, CHECKSIG),
      refund(n144, CSV, opcodes.OP_CHECKSIGVERIFY),
      refund(opcodes.OP_1NEGATE, CSV, CHECKSIG),
      refund(script.number.encode(-144), CSV, CHECKSIG),
      // 6 pushed as one data byte instead of OP_6 (both mean 6 to the interpreter)
      Uint8Array.from([1, 6, CSV, opcodes.OP_DROP, 32, ...xOnly(userKey), CHECKSIG]),
    ]) {
      expect(parseHtlcLeaves({ claim: good.claim, refund: bad })).toBeNull();
    }
  });
});
