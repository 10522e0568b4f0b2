import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { Psbt } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { buildDeposit, hex, p2trOf, strangerKey, userKey } from "../test/fixtures.js";
import { getUserScripts } from "./getUserScripts.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import { verifyHtlcPsbt } from "./verifyHtlcPsbt/verifyHtlcPsbt.js";

const userPublicKey = hex(userKey.publicKey);

describe("key bytes are never shared between calls", () => {
  it("a caller that reuses the key array it passed (or wipes the returned key) does not change the next call", async () => {
    const deposit = buildDeposit();
    const passed = Uint8Array.from(userKey.publicKey);
    const first = verifyHtlcPsbt({ ecc, ...deposit, userPublicKey: passed });
    // The caller wipes its buffers after use, or reuses them for another key.
    passed.set(strangerKey.publicKey);
    first.userPublicKey.fill(0);
    const { verified, psbt } = await signHtlcPsbt({ ecc, ...deposit, userPublicKey, signer: userKey });
    expect(hex(verified.userPublicKey)).toBe(userPublicKey);
    const txHex = Psbt.fromBase64(psbt).extractTransaction().toHex();
    expect(runInterpreter({ txHex, prevouts: deposit.prevouts })).toEqual([null, null]);
  });

  it("getUserScripts hands out its own copies: writing into one result leaves the next intact", () => {
    const a = getUserScripts({ ecc, publicKey: userPublicKey });
    const expected = {
      publicKey: hex(a.publicKey),
      xOnly: hex(a.xOnly),
      p2tr: hex(a.p2tr),
      p2wpkh: hex(a.p2wpkh),
    };
    for (const bytes of [a.publicKey, a.xOnly, a.p2tr, a.p2wpkh]) bytes.fill(0);
    const b = getUserScripts({ ecc, publicKey: userPublicKey });
    expect({
      publicKey: hex(b.publicKey),
      xOnly: hex(b.xOnly),
      p2tr: hex(b.p2tr),
      p2wpkh: hex(b.p2wpkh),
    }).toEqual(expected);
    expect(expected.p2tr).toBe(hex(p2trOf(userKey)));
  });
});
