// Attacks on the wallet answer path (walletPsbt.ts) and the adapters, as a hostile wallet or a page script that
// wraps it: cases beyond the stand-ins' tamper table. Every accepted answer is also run through bitcore's
// interpreter; every refusal carries its code.
import { isSwapIntentError } from "@swapintent/client";
import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { crypto, Psbt, payments, script, type Transaction } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { buildDeposit, type Deposit, hex, strangerKey, userKey, xOnly } from "../test/fixtures.js";
import {
  createLeatherStandin,
  createSatsConnectStandin,
  createUnisatStandin,
} from "../test/walletStandins.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import type { KeySigner, PsbtWalletSigner, SignPsbtParameters } from "./types.js";
import {
  createLeatherWalletSigner,
  createSatsConnectWalletSigner,
  createUnisatWalletSigner,
  type LeatherProvider,
  type SatsConnectRequest,
  type UnisatProvider,
} from "./wallets.js";

const userPublicKey = hex(userKey.publicKey);
const tweaked = userKey.tweak(crypto.taggedHash("TapTweak", xOnly(userKey)));

/** A wallet that signs what it is asked honestly, then hands back whatever `answer` makes of it. */
function wallet(
  answer: (signed: Psbt, request: SignPsbtParameters) => unknown,
  before?: (request: SignPsbtParameters) => void,
): PsbtWalletSigner {
  return {
    publicKey: userKey.publicKey,
    signPsbt: async (request) => {
      before?.(request);
      const psbt = Psbt.fromBase64(request.psbt);
      for (const { index, kind, sighashType } of request.signInputs) {
        psbt.signInput(index, (kind === "p2tr" ? tweaked : userKey) as never, [sighashType]);
      }
      return answer(psbt, request) as string;
    },
  };
}

async function outcome(deposit: Deposit, signer: PsbtWalletSigner) {
  try {
    const signed = await signHtlcPsbt({
      ecc,
      intent: deposit.intent,
      quote: deposit.quote,
      userPublicKey,
      signer,
    });
    const tx = Psbt.fromBase64(signed.psbt).extractTransaction().toHex();
    return {
      code: "ACCEPTED" as const,
      interpreter: runInterpreter({ txHex: tx, prevouts: deposit.prevouts }),
    };
  } catch (error) {
    if (!isSwapIntentError(error)) return { code: "UNCODED", error };
    return { code: error.code, details: error.details };
  }
}

const b64 = (p: Psbt) => p.toBase64();
const cases: [string, (p: Psbt, r: SignPsbtParameters) => unknown, string][] = [
  [
    "trailing bytes after the PSBT",
    (p) => Buffer.concat([p.toBuffer(), Buffer.of(0, 1, 2)]).toString("base64"),
    "BTC_PSBT_INVALID",
  ],
  ["whitespace inside the base64", (p) => b64(p).replace(/(.{40})/g, "$1\n "), "BTC_PSBT_INVALID"],
  [
    "base64 with its padding changed",
    (p) => (b64(p).endsWith("=") ? b64(p).replace(/=+$/, "") : `${b64(p)}====`),
    "BTC_PSBT_INVALID",
  ],
  ["base64url", (p) => b64(p).replace(/\+/g, "-").replace(/\//g, "_"), "BTC_PSBT_INVALID"],
  ["hex where base64 is due", (p) => p.toHex(), "BTC_PSBT_INVALID"],
  ["base64 with junk after it", (p) => `${b64(p)}!!junk`, "BTC_PSBT_INVALID"],
  ["a String object", (p) => new String(b64(p)), "BTC_PSBT_INVALID"],
  ["an object whose toString is the PSBT", (p) => ({ toString: () => b64(p) }), "BTC_PSBT_INVALID"],
  [
    "tapKeySig 65 bytes ending 0x00",
    (p) => {
      const i = p.data.inputs[0]!;
      i.tapKeySig = Uint8Array.from([...i.tapKeySig!, 0]);
      return b64(p);
    },
    "BTC_SIGHASH_NOT_ALLOWED",
  ],
  [
    "tapKeySig 65 bytes ALL|ANYONECANPAY",
    (p) => {
      const i = p.data.inputs[0]!;
      i.tapKeySig = Uint8Array.from([...i.tapKeySig!, 0x81]);
      return b64(p);
    },
    "BTC_SIGHASH_NOT_ALLOWED",
  ],
  [
    "tapKeySig 65 bytes ALL over the DEFAULT digest",
    (p) => {
      const i = p.data.inputs[0]!;
      i.tapKeySig = Uint8Array.from([...i.tapKeySig!, 1]);
      return b64(p);
    },
    // ALL is accepted for DEFAULT, but checked against the ALL digest, where this signature does not verify.
    "BTC_SIGNATURE_INVALID",
  ],
  [
    "tapScriptSig on a listed input",
    (p) => {
      p.data.inputs[0]!.tapScriptSig = [
        { pubkey: xOnly(userKey), leafHash: new Uint8Array(32), signature: p.data.inputs[0]!.tapKeySig! },
      ];
      return b64(p);
    },
    "BTC_SIGNATURE_UNEXPECTED",
  ],
  [
    "tapMerkleRoot added",
    (p) => {
      p.data.inputs[0]!.tapMerkleRoot = new Uint8Array(32).fill(1);
      return b64(p);
    },
    "BTC_PSBT_FIELD_MODIFIED",
  ],
  [
    "tapInternalKey swapped",
    (p) => {
      p.data.inputs[0]!.tapInternalKey = xOnly(strangerKey);
      return b64(p);
    },
    "BTC_PSBT_FIELD_MODIFIED",
  ],
  [
    "tapBip32Derivation added",
    (p) => {
      p.data.inputs[0]!.tapBip32Derivation = [
        {
          pubkey: xOnly(strangerKey),
          leafHashes: [],
          masterFingerprint: new Uint8Array(4),
          path: "m/86'/0'/0'/0/0",
        },
      ];
      return b64(p);
    },
    "BTC_PSBT_FIELD_MODIFIED",
  ],
  [
    "witnessUtxo script of a listed input",
    (p) => {
      const u = p.data.inputs[1]!.witnessUtxo!;
      p.data.inputs[1]!.witnessUtxo = {
        ...u,
        script: payments.p2wpkh({ pubkey: strangerKey.publicKey }).output!,
      };
      return b64(p);
    },
    "BTC_PSBT_FIELD_MODIFIED",
  ],
  [
    "proprietary key on a listed input",
    (p) => {
      p.data.inputs[1]!.unknownKeyVals = [{ key: Uint8Array.of(0xfc, 0), value: Uint8Array.of(1) }];
      return b64(p);
    },
    "BTC_PSBT_FIELD_MODIFIED",
  ],
  [
    "PSBT version 2 global",
    (p) => {
      p.data.globalMap.unknownKeyVals = [{ key: Uint8Array.of(0xfb), value: Uint8Array.of(2, 0, 0, 0) }];
      return b64(p);
    },
    "BTC_PSBT_FIELD_MODIFIED",
  ],
  [
    "sighashType set on a listed input",
    (p) => {
      p.data.inputs[1]!.sighashType = 0x01;
      return b64(p);
    },
    "BTC_PSBT_FIELD_MODIFIED",
  ],
  [
    "finalScriptSig on a segwit input",
    (p) => {
      p.data.inputs[1]!.finalScriptSig = Uint8Array.of(0x51);
      return b64(p);
    },
    "BTC_SIGNATURE_UNEXPECTED",
  ],
  [
    "partialSig by another key next to the user's",
    (p) => {
      const s = p.data.inputs[1]!.partialSig![0]!;
      p.data.inputs[1]!.partialSig = [s, { pubkey: strangerKey.publicKey, signature: s.signature }];
      return b64(p);
    },
    "BTC_SIGNATURE_UNEXPECTED",
  ],
  [
    "P2TR finalized with an annex",
    (p) => {
      p.finalizeInput(0);
      const w = p.data.inputs[0]!.finalScriptWitness!;
      p.data.inputs[0]!.finalScriptWitness = Uint8Array.from([2, ...w.slice(1), 2, 0x50, 0]);
      return b64(p);
    },
    "BTC_SIGNATURE_UNEXPECTED",
  ],
  [
    "P2WPKH finalized, partialSig left with another signature",
    (p) => {
      const s = p.data.inputs[1]!.partialSig![0]!;
      p.finalizeInput(1);
      p.data.inputs[1]!.partialSig = [{ pubkey: s.pubkey, signature: p.data.inputs[0]!.tapKeySig! }];
      return b64(p);
    },
    "BTC_SIGNATURE_UNEXPECTED",
  ],
];

describe("a hostile wallet's answer", () => {
  it.each(cases)("%s", async (_, answer, expected) => {
    const result = await outcome(buildDeposit(), wallet(answer));
    expect(result.code).toBe(expected);
    if (result.code === "ACCEPTED") expect(result.interpreter).toEqual([null, null]);
  });
});

/** The honest answer with `pairs` (serialized key-value pairs) written into input 1's map. */
function withPairs(p: Psbt, ...pairs: Uint8Array[]): string {
  const marker = Uint8Array.of(0x02, 0xfc, 0xee, 0x01, 0xee);
  p.data.inputs[1]!.unknownKeyVals = [{ key: marker.slice(1, 3), value: marker.slice(4) }];
  const bytes = Buffer.from(p.toBuffer());
  const at = bytes.indexOf(Buffer.from(marker));
  expect(at).toBeGreaterThan(0);
  return Buffer.concat([bytes.subarray(0, at), ...pairs, bytes.subarray(at + marker.length)]).toString(
    "base64",
  );
}

/** Input 1's witnessUtxo (key 0x01) as a serialized pair, claiming `value`. */
function witnessUtxoPair(p: Psbt, value: bigint): Uint8Array {
  const { script } = p.data.inputs[1]!.witnessUtxo!;
  const amount = new Uint8Array(8);
  new DataView(amount.buffer).setBigUint64(0, value, true);
  const data = Uint8Array.from([...amount, script.length, ...script]);
  return Uint8Array.from([1, 0x01, data.length, ...data]);
}

const N = BigInt("0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");

/** The high-S twin of a strict-DER ECDSA signature (valid by consensus, not relayed: BIP-62 LOW_S). */
function highS(sig: Uint8Array): Uint8Array {
  const { signature, hashType } = script.signature.decode(sig);
  const s = N - BigInt(`0x${Buffer.from(signature.subarray(32)).toString("hex")}`);
  const twin = Uint8Array.from([
    ...signature.subarray(0, 32),
    ...Buffer.from(s.toString(16).padStart(64, "0"), "hex"),
  ]);
  return script.signature.encode(twin, hashType);
}

describe("a hostile wallet's answer, at the byte level", () => {
  it("refuses a key written twice in one map (an unknown key)", async () => {
    const pair = Uint8Array.of(0x02, 0xfc, 0x01, 0x01, 0x07);
    const result = await outcome(
      buildDeposit(),
      wallet((p) => withPairs(p, pair, pair)),
    );
    expect(result).toMatchObject({ code: "BTC_PSBT_INVALID", details: { source: "wallet" } });
    // The same pair once parses, and is refused as the added field it is.
    const once = await outcome(
      buildDeposit(),
      wallet((p) => withPairs(p, pair)),
    );
    expect(once).toMatchObject({
      code: "BTC_PSBT_FIELD_MODIFIED",
      details: { where: "input 1", fields: ["unknownKeyVals"] },
    });
  });

  it("refuses a second witnessUtxo with another amount (which one a parser keeps would decide the fee)", async () => {
    const result = await outcome(
      buildDeposit(),
      wallet((p) => withPairs(p, witnessUtxoPair(p, p.data.inputs[1]!.witnessUtxo!.value + 1n))),
    );
    expect(result).toMatchObject({ code: "BTC_PSBT_INVALID", details: { source: "wallet" } });
  });

  it("refuses the high-S twin of the user's P2WPKH signature (valid by consensus, never relayed)", async () => {
    const result = await outcome(
      buildDeposit(),
      wallet((p) => {
        const sig = p.data.inputs[1]!.partialSig![0]!;
        p.data.inputs[1]!.partialSig = [{ pubkey: sig.pubkey, signature: highS(sig.signature) }];
        return b64(p);
      }),
    );
    expect(result).toMatchObject({
      code: "BTC_SIGNATURE_INVALID",
      details: { input: 1, reason: "doesNotVerify" },
    });
  });
});

describe("a signer that writes into what it was handed", () => {
  it("cannot loosen the sighash check by rewriting signInputs (65-byte ALL signature over the DEFAULT digest)", async () => {
    const result = await outcome(
      buildDeposit(),
      wallet((p, r) => {
        r.signInputs[0]!.sighashType = 0x01;
        const input = p.data.inputs[0]!;
        input.tapKeySig = Uint8Array.from([...input.tapKeySig!, 0x01]);
        return b64(p);
      }),
    );
    // The byte is checked against the digest it names (ALL), never the one the rewritten list says was made.
    expect(result).toMatchObject({
      code: "BTC_SIGNATURE_INVALID",
      details: { input: 0, reason: "doesNotVerify" },
    });
  });

  it("cannot change what the answer is checked against by rewriting every field and byte it was handed", async () => {
    const deposit = buildDeposit();
    const result = await outcome(
      deposit,
      wallet(
        (p) => b64(p),
        (r) => {
          const request = {
            ...r,
            signInputs: r.signInputs.map((i) => ({ ...i, script: Uint8Array.from(i.script) })),
          };
          for (const input of r.signInputs) {
            Object.assign(input, {
              index: 2,
              kind: input.kind === "p2tr" ? "p2wpkh" : "p2tr",
              sighashType: 0x83,
            });
            input.script.fill(0);
          }
          r.inputs.length = 0;
          // the wallet itself signs the request as it came in
          Object.assign(r, request);
        },
      ),
    );
    expect(result.code).toBe("ACCEPTED");
    expect(result.interpreter).toEqual([null, null]);
  });
});

const standinOptions = { key: userKey, other: strangerKey };

/** Unisat's stand-in, signing honestly, with its hex answer rewritten by `rewrite`. */
function unisatAnswering(rewrite: (hex: string) => unknown): PsbtWalletSigner {
  const standin = createUnisatStandin(standinOptions);
  const unisat: UnisatProvider = {
    signPsbt: async (psbtHex, opts) => rewrite(await standin.signPsbt(psbtHex, opts)) as string,
  };
  return createUnisatWalletSigner({ unisat, publicKey: userPublicKey });
}

/** Leather's stand-in, signing honestly, with its envelope rewritten by `rewrite`. */
function leatherAnswering(rewrite: (response: { result: { hex: string } }) => unknown): PsbtWalletSigner {
  const standin = createLeatherStandin(standinOptions);
  const leather = {
    request: async (method: "signPsbt", params: unknown) =>
      rewrite((await standin.request(method, params as never)) as { result: { hex: string } }),
  } as LeatherProvider;
  return createLeatherWalletSigner({ leather, publicKey: userPublicKey });
}

/** sats-connect's stand-in, signing honestly, with its envelope rewritten by `rewrite`. */
function satsConnectAnswering(
  rewrite: (response: { result: { psbt: string } }) => unknown,
): PsbtWalletSigner {
  const standin = createSatsConnectStandin(standinOptions);
  const request = (async (method, params) =>
    rewrite((await standin(method, params as never)) as { result: { psbt: string } })) as SatsConnectRequest;
  return createSatsConnectWalletSigner({ request, publicKey: userPublicKey });
}

const hexCases: [string, (hex: string) => string][] = [
  ["trailing bytes", (h) => `${h}00`],
  ["trailing non-hex characters", (h) => `${h}zz`],
  ["whitespace", (h) => ` ${h}\n`],
  ["a 0x prefix", (h) => `0x${h}`],
  ["an odd length", (h) => `${h}0`],
  ["base64 where hex is due", (h) => Buffer.from(h, "hex").toString("base64")],
];

describe("a hex answer (Unisat, Leather) is one PSBT in hex, nothing around it", () => {
  it.each(hexCases)("refuses %s (Unisat)", async (_, rewrite) => {
    const result = await outcome(buildDeposit(), unisatAnswering(rewrite));
    expect(result).toMatchObject({ code: "BTC_PSBT_INVALID", details: { source: "wallet" } });
  });

  it.each(hexCases)("refuses %s (Leather)", async (_, rewrite) => {
    const result = await outcome(
      buildDeposit(),
      leatherAnswering((r) => ({ ...r, result: { hex: rewrite(r.result.hex) } })),
    );
    expect(result).toMatchObject({ code: "BTC_PSBT_INVALID", details: { source: "wallet" } });
  });

  it("accepts upper-case hex (the same bytes), and bitcore's interpreter accepts the deposit", async () => {
    const result = await outcome(
      buildDeposit(),
      unisatAnswering((h) => h.toUpperCase()),
    );
    expect(result.code).toBe("ACCEPTED");
    expect(result.interpreter).toEqual([null, null]);
  });
});

/** An object whose every property read throws (a getter trap), and a revoked proxy (every operation throws). */
const trapped = () =>
  new Proxy(
    {},
    {
      get: () => {
        throw new Error("trap");
      },
    },
  );
const revoked = () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};

describe("an envelope that throws when read is a wallet refusal, never an uncoded error", () => {
  const envelopes: [string, () => unknown][] = [
    ["a getter trap", trapped],
    ["a revoked proxy", revoked],
    ["a result that is a getter trap", () => ({ status: "success", result: trapped() })],
    ["an error member that is a getter trap", () => ({ status: "error", error: trapped() })],
  ];
  it.each(envelopes)("sats-connect: %s", async (_, make) => {
    const result = await outcome(buildDeposit(), satsConnectAnswering(make));
    expect(result).toMatchObject({ code: "BTC_WALLET_REJECTED", details: { wallet: "sats-connect" } });
  });
  it.each(envelopes)("Leather: %s", async (_, make) => {
    const result = await outcome(buildDeposit(), leatherAnswering(make));
    expect(result).toMatchObject({ code: "BTC_WALLET_REJECTED", details: { wallet: "leather" } });
  });
  it.each(envelopes)("Unisat: %s", async (_, make) => {
    const result = await outcome(buildDeposit(), unisatAnswering(make));
    expect(result.code).toMatch(/^BTC_(WALLET_REJECTED|PSBT_INVALID)$/);
  });
});

describe("an external key signer that writes into the digest it was handed", () => {
  /** Signs the digest after zeroing it in place: the signature is valid for the zeroed bytes only. */
  const rewriting: KeySigner = {
    publicKey: userKey.publicKey,
    sign: (hash) => userKey.sign(hash.fill(0)),
    signSchnorr: (hash) => tweaked.signSchnorr(hash.fill(0)),
  };

  it.each([
    ["P2WPKH", "p2wpkh"],
    ["P2TR", "p2tr"],
  ] as const)("%s: its signature is checked against the real sighash, and refused", async (_, kind) => {
    const deposit = buildDeposit({ inputs: [{ kind, value: 110_000n }] });
    const result = await outcome(deposit, rewriting as unknown as PsbtWalletSigner);
    expect(result).toMatchObject({
      code: "BTC_SIGNATURE_INVALID",
      details: { input: 0, reason: "doesNotVerify" },
    });
  });
});

describe("signatures over another amount (the amount commitment), moved into the answer as sent", () => {
  /** Signs a copy whose input `tampered` claims one more satoshi, then hands back the sent PSBT with those signatures. */
  const signingOtherAmount = (tampered: number): PsbtWalletSigner => ({
    publicKey: userKey.publicKey,
    signPsbt: async ({ psbt, signInputs }) => {
      const answer = Psbt.fromBase64(psbt);
      const lie = Psbt.fromBase64(psbt);
      const utxo = lie.data.inputs[tampered]!.witnessUtxo!;
      lie.data.inputs[tampered]!.witnessUtxo = { ...utxo, value: utxo.value + 1n };
      for (const { index, kind, sighashType } of signInputs) {
        lie.signInput(index, (kind === "p2tr" ? tweaked : userKey) as never, [sighashType]);
        const { tapKeySig, partialSig } = lie.data.inputs[index]!;
        answer.updateInput(index, kind === "p2tr" ? { tapKeySig: tapKeySig! } : { partialSig: partialSig! });
      }
      return answer.toBase64();
    },
  });

  it("P2WPKH signed over its own amount + 1 is refused", async () => {
    const deposit = buildDeposit({ inputs: [{ kind: "p2wpkh", value: 110_000n }] });
    const result = await outcome(deposit, signingOtherAmount(0));
    expect(result).toMatchObject({
      code: "BTC_SIGNATURE_INVALID",
      details: { input: 0, reason: "doesNotVerify" },
    });
  });

  it("P2TR signed over another input's amount + 1 is refused (BIP-341 commits to every amount)", async () => {
    const result = await outcome(buildDeposit(), signingOtherAmount(1));
    // Input 0 (P2TR) is checked first: its signature covers input 1's amount too.
    expect(result).toMatchObject({
      code: "BTC_SIGNATURE_INVALID",
      details: { input: 0, reason: "doesNotVerify" },
    });
  });
});

describe("a hostile wallet's answer, on the transaction and the previous transactions", () => {
  it("refuses the outputs swapped (same values and scripts, another order)", async () => {
    const result = await outcome(
      buildDeposit(),
      wallet((p) => {
        const tx = (p.data.globalMap.unsignedTx as unknown as { tx: Transaction }).tx;
        tx.outs.reverse();
        p.data.outputs.reverse();
        return b64(p);
      }),
    );
    expect(result).toMatchObject({
      code: "BTC_TX_MODIFIED",
      details: { where: "global", fields: ["outputs"] },
    });
  });

  it("refuses a listed input's nonWitnessUtxo removed, or replaced by another transaction", async () => {
    const deposit = buildDeposit({
      inputs: [
        { kind: "p2tr", value: 60_000n, nonWitness: true },
        { kind: "p2wpkh", value: 50_000n, nonWitness: true },
      ],
    });
    /** Input `index`'s nonWitnessUtxo pair (key 0x00) as serialized (a previous transaction under 253 bytes). */
    const pairOf = (p: Psbt, index: number) => {
      const tx = p.data.inputs[index]!.nonWitnessUtxo!;
      expect(tx.length).toBeLessThan(0xfd);
      return Buffer.from([1, 0x00, tx.length, ...tx]);
    };
    /** The honest answer, bytes edited: input 1's nonWitnessUtxo pair replaced by `by`. */
    const edited = (by: (p: Psbt) => Buffer) =>
      wallet((p) => {
        const bytes = Buffer.from(p.toBuffer());
        const pair = pairOf(p, 1);
        const at = bytes.indexOf(pair);
        expect(at).toBeGreaterThan(0);
        return Buffer.concat([bytes.subarray(0, at), by(p), bytes.subarray(at + pair.length)]).toString(
          "base64",
        );
      });
    const removed = await outcome(
      deposit,
      edited(() => Buffer.alloc(0)),
    );
    expect(removed).toMatchObject({
      code: "BTC_PSBT_FIELD_MODIFIED",
      details: { where: "input 1", fields: ["nonWitnessUtxo"] },
    });
    // Input 0's previous transaction in its place (parsed without complaint: its hash is checked only when used).
    const replaced = await outcome(
      deposit,
      edited((p) => pairOf(p, 0)),
    );
    expect(replaced).toMatchObject({
      code: "BTC_PSBT_FIELD_MODIFIED",
      details: { where: "input 1", fields: ["nonWitnessUtxo"] },
    });
  });
});

describe("a signer that never answers, or answers after the caller gave up (signal)", () => {
  /** A wallet whose answer waits for `release` (never, unless called), counting its calls. */
  function pending() {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const calls: number[] = [];
    const signer = wallet(
      async (p) => {
        await gate;
        return b64(p);
      },
      () => calls.push(1),
    );
    return { signer, calls, release: () => release() };
  }

  async function signWith(
    signer: PsbtWalletSigner | KeySigner,
    signal: AbortSignal,
    deposit = buildDeposit(),
  ) {
    try {
      await signHtlcPsbt({
        ecc,
        intent: deposit.intent,
        quote: deposit.quote,
        userPublicKey,
        signer,
        signal,
      });
      return { code: "ACCEPTED" };
    } catch (error) {
      if (!isSwapIntentError(error)) throw error;
      return { code: error.code, details: error.details };
    }
  }

  it("an already aborted signal is refused before the wallet is asked", async () => {
    const { signer, calls } = pending();
    const result = await signWith(signer, AbortSignal.abort());
    expect(result).toEqual({ code: "BTC_SIGNING_ABORTED", details: { stage: "beforeSigning" } });
    expect(calls).toHaveLength(0);
  });

  it("a wallet that never answers: aborting rejects at once", async () => {
    const { signer, calls } = pending();
    const controller = new AbortController();
    const result = signWith(signer, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(calls).toHaveLength(1);
    controller.abort();
    expect(await result).toEqual({ code: "BTC_SIGNING_ABORTED", details: { stage: "whileSigning" } });
  });

  it("a wallet that answers after the abort never yields an approval", async () => {
    const { signer, release } = pending();
    const controller = new AbortController();
    const result = signWith(signer, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    release();
    expect(await result).toEqual({ code: "BTC_SIGNING_ABORTED", details: { stage: "whileSigning" } });
  });

  it("a key signer that hangs: aborting rejects at once", async () => {
    const hanging: KeySigner = {
      publicKey: userKey.publicKey,
      sign: () => new Promise<Uint8Array>(() => {}),
      signSchnorr: () => new Promise<Uint8Array>(() => {}),
    };
    const controller = new AbortController();
    const result = signWith(hanging, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect(await result).toEqual({ code: "BTC_SIGNING_ABORTED", details: { stage: "whileSigning" } });
  });

  it("a signal that never aborts changes nothing: the deposit is approved, and bitcore's interpreter accepts it", async () => {
    const deposit = buildDeposit();
    const signed = await signHtlcPsbt({
      ecc,
      intent: deposit.intent,
      quote: deposit.quote,
      userPublicKey,
      signer: wallet((p) => b64(p)),
      signal: new AbortController().signal,
    });
    const tx = Psbt.fromBase64(signed.psbt).extractTransaction().toHex();
    expect(runInterpreter({ txHex: tx, prevouts: deposit.prevouts })).toEqual([null, null]);
  });
});
