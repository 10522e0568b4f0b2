import { ed25519 } from "@noble/curves/ed25519";
import {
  getAddressDecoder,
  getAddressEncoder,
  getProgramDerivedAddress,
  address as kitAddress,
} from "@solana/kit";
import { Keypair, PublicKey } from "@solana/web3.js";
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { describe, expect, it } from "vitest";
import { getAssociatedTokenAccountAddress } from "../getAssociatedTokenAccountAddress.js";
import { isSolanaCosignError } from "../isSolanaCosignError.js";
import { findProgramAddress, isOnCurve, normalizeAddress, parseAddress } from "./address.js";
import { base58Decode, base58Encode } from "./base58.js";

/** Deterministic bytes (xorshift), so a failure reproduces. */
function bytesStream(seed: number) {
  let x = seed >>> 0 || 1;
  return (length: number) =>
    Uint8Array.from({ length }, () => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return x & 0xff;
    });
}

describe("base58 against web3.js and Kit", () => {
  it("encodes and decodes 2,000 keys as both do, leading zero bytes included", () => {
    const next = bytesStream(7);
    for (let i = 0; i < 2000; i++) {
      const bytes = next(32);
      if (i % 10 === 0) bytes.fill(0, 0, i % 7); // leading zeros -> leading 1s
      const text = base58Encode(bytes);
      expect(text).toBe(new PublicKey(bytes).toBase58());
      expect(text).toBe(getAddressDecoder().decode(bytes));
      expect(base58Decode(text)).toEqual(bytes);
    }
    expect(base58Encode(new Uint8Array(32))).toBe("11111111111111111111111111111111");
    expect(base58Encode(new Uint8Array(0))).toBe("");
  });

  it("refuses characters outside the alphabet (0, O, I, l, anything else)", () => {
    for (const text of ["0", "O", "I", "l", "+", " ", "é"]) expect(base58Decode(`1${text}`)).toBeUndefined();
  });
});

describe("parseAddress", () => {
  it("accepts base58 of 32 bytes, a web3.js PublicKey and a Kit Address", () => {
    const key = Keypair.generate().publicKey;
    expect(parseAddress(key, "k")).toEqual({ address: key.toBase58(), bytes: key.toBytes() });
    expect(normalizeAddress(kitAddress(key.toBase58()), "k")).toBe(key.toBase58());
    expect(parseAddress(key.toBase58(), "k").bytes).toEqual(
      new Uint8Array(getAddressEncoder().encode(kitAddress(key.toBase58()))),
    );
  });

  it("refuses 31 or 33 bytes, bad characters, other types and a throwing toBase58 (SOL_INVALID_ADDRESS, the parameter named)", () => {
    const cases: unknown[] = [
      base58Encode(new Uint8Array(31).fill(1)),
      base58Encode(new Uint8Array(33).fill(1)),
      "0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl",
      42,
      null,
      {},
      { toBase58: () => "short" },
      {
        toBase58: () => {
          throw new Error("x");
        },
      },
    ];
    for (const value of cases) {
      let error: unknown;
      try {
        parseAddress(value, "escrow.owner");
      } catch (e) {
        error = e;
      }
      expect(isSolanaCosignError(error, "SOL_INVALID_ADDRESS"), String(value)).toBe(true);
      if (isSolanaCosignError(error, "SOL_INVALID_ADDRESS"))
        expect(error.details.parameter).toBe("escrow.owner");
    }
  });
});

describe("isOnCurve and program-derived addresses", () => {
  it("agrees with @noble/curves' point decoding on 3,000 random values and on real public keys", () => {
    const next = bytesStream(11);
    let on = 0;
    for (let i = 0; i < 3000; i++) {
      const bytes = next(32);
      bytes[31]! &= 0x7f; // canonical y below 2^255 (noble refuses y >= p, which random bytes almost never reach)
      let noble = true;
      try {
        ed25519.ExtendedPoint.fromHex(bytes);
      } catch {
        noble = false;
      }
      expect(isOnCurve(bytes), bytesToText(bytes)).toBe(noble);
      if (noble) on++;
    }
    expect(on).toBeGreaterThan(1200); // about half of all values are points
    expect(on).toBeLessThan(1800);
    for (let i = 0; i < 50; i++) expect(isOnCurve(Keypair.generate().publicKey.toBytes())).toBe(true);
  });

  it("derives the same addresses as Kit's getProgramDerivedAddress and web3.js", async () => {
    const next = bytesStream(3);
    for (let i = 0; i < 40; i++) {
      const program = Keypair.generate().publicKey;
      const seeds = [next(32), next(i % 5)];
      const [kitPda] = await getProgramDerivedAddress({
        programAddress: kitAddress(program.toBase58()),
        seeds,
      });
      const ours = base58Encode(findProgramAddress(seeds, program.toBytes()));
      expect(ours).toBe(kitPda);
      expect(ours).toBe(PublicKey.findProgramAddressSync(seeds, program)[0].toBase58());
    }
  });

  it("getAssociatedTokenAccountAddress equals @solana-program/token's findAssociatedTokenPda", async () => {
    for (let i = 0; i < 30; i++) {
      const owner = Keypair.generate().publicKey.toBase58();
      const mint = Keypair.generate().publicKey.toBase58();
      const [pda] = await findAssociatedTokenPda({
        owner: kitAddress(owner),
        mint: kitAddress(mint),
        tokenProgram: TOKEN_PROGRAM_ADDRESS,
      });
      expect(getAssociatedTokenAccountAddress({ owner, mint })).toBe(pda);
    }
  });
});

function bytesToText(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}
