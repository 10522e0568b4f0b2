// The user's own refund through each injected wallet: `signHtlcRefund` with an adapter as `signer`. Each wallet is a
// stand-in that signs the refund leaf for real with the user's key; every refund is proven on bitcore's interpreter.
// The same checks run as with a key (destination, dust, fee, the leaf's key) before the wallet is asked, and what it
// answers passes the path every wallet answer takes.
import { isSwapIntentError } from "@swapintent/client";
import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { crypto, Psbt, payments, Transaction } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { beforeAll, describe, expect, it } from "vitest";
import {
  AMOUNT,
  buildDeposit,
  CSV,
  type Deposit,
  hex,
  p2trOf,
  p2wpkhOf,
  strangerKey,
  userKey,
  xOnly,
} from "../../test/fixtures.js";
import {
  createLeatherStandin,
  createSatsConnectStandin,
  createUnisatStandin,
  type Tamper,
} from "../../test/walletStandins.js";
import { signHtlcPsbt } from "../signHtlcPsbt.js";
import { signHtlcRefund } from "../signHtlcRefund.js";
import type { PsbtWalletSigner } from "../types.js";
import { createLeatherWalletSigner, type LeatherProvider } from "./createLeatherWalletSigner.js";
import { createSatsConnectWalletSigner, type SatsConnectRequest } from "./createSatsConnectWalletSigner.js";
import { createUnisatWalletSigner } from "./createUnisatWalletSigner.js";

const userPublicKey = hex(userKey.publicKey);
const ADAPTERS = ["unisat", "sats-connect", "leather"] as const;
type AdapterName = (typeof ADAPTERS)[number];

/** The adapter over its stand-in; `calls` counts every request that reached the wallet. */
function adapter(name: AdapterName, options: { tamper?: Tamper; hang?: boolean } = {}) {
  const calls = { count: 0 };
  const standinOptions = { key: userKey, other: strangerKey, tamper: options.tamper ?? "none" };
  const never = new Promise<never>(() => {});
  const answer = <T>(run: () => Promise<T>): Promise<T> => {
    calls.count++;
    return options.hang ? never : run();
  };
  let signer: PsbtWalletSigner;
  if (name === "unisat") {
    const standin = createUnisatStandin(standinOptions);
    signer = createUnisatWalletSigner({
      unisat: { signPsbt: (psbtHex, opts) => answer(() => standin.signPsbt(psbtHex, opts)) },
      publicKey: userPublicKey,
    });
  } else if (name === "sats-connect") {
    const standin = createSatsConnectStandin(standinOptions);
    const request = ((method, params) =>
      answer(() => standin(method, params as never))) as SatsConnectRequest;
    signer = createSatsConnectWalletSigner({ request, publicKey: userPublicKey });
  } else {
    const standin = createLeatherStandin(standinOptions);
    const leather = {
      request: (method: "signPsbt", params: unknown) =>
        answer(() => standin.request(method, params as never)),
    } as LeatherProvider;
    signer = createLeatherWalletSigner({ leather, publicKey: userPublicKey });
  }
  return { signer, calls };
}

let deposit: Deposit;
let signedDeposit: string;
const htlcPrevout = () => [{ script: deposit.htlcScript, value: AMOUNT }];

beforeAll(async () => {
  deposit = buildDeposit();
  signedDeposit = (await signHtlcPsbt({ ecc, ...deposit, userPublicKey, signer: userKey })).psbt;
});

async function refund(
  signer: PsbtWalletSigner,
  extra: {
    feeLots?: bigint;
    destinationScript?: Uint8Array;
    signal?: AbortSignal;
    depositPsbt?: string;
  } = {},
) {
  try {
    const result = await signHtlcRefund({
      ecc,
      depositPsbt: extra.depositPsbt ?? signedDeposit,
      userPublicKey,
      signer,
      feeLots: extra.feeLots ?? 300n,
      ...(extra.destinationScript ? { destinationScript: extra.destinationScript } : {}),
      ...(extra.signal ? { signal: extra.signal } : {}),
    });
    return { code: "ACCEPTED", result, details: undefined };
  } catch (error) {
    if (!isSwapIntentError(error)) throw error;
    return { code: error.code, result: undefined, details: error.details as Record<string, unknown> };
  }
}

describe("a wallet signs the user's refund through its adapter", () => {
  it.each(ADAPTERS)("%s: the refund leaf spend passes the interpreter", async (name) => {
    const { signer, calls } = adapter(name);
    const outcome = await refund(signer);
    expect(outcome.code).toBe("ACCEPTED");
    expect(calls.count).toBe(1);
    const tx = Transaction.fromHex(outcome.result!.txHex);
    const depositTx = Psbt.fromBase64(signedDeposit).extractTransaction();
    expect(hex(tx.ins[0]!.hash)).toBe(hex(depositTx.getHash()));
    expect(tx.ins[0]!.sequence).toBe(CSV);
    expect(tx.ins[0]!.witness).toHaveLength(3); // signature, refund leaf, control block
    expect(tx.outs[0]!.script).toEqual(p2trOf(userKey));
    expect(tx.outs[0]!.value).toBe(AMOUNT - 300n);
    expect(runInterpreter({ txHex: outcome.result!.txHex, prevouts: htlcPrevout() })).toEqual([null]);
  });

  it.each(ADAPTERS)(
    "%s: a wallet that finalized the leaf spend itself is accepted, as exactly [sig, leaf, control]",
    async (name) => {
      const outcome = await refund(adapter(name, { tamper: "finalized" }).signer);
      expect(outcome.code).toBe("ACCEPTED");
      expect(runInterpreter({ txHex: outcome.result!.txHex, prevouts: htlcPrevout() })).toEqual([null]);
    },
  );

  it.each(ADAPTERS)("%s: a refusal is BTC_WALLET_REJECTED", async (name) => {
    expect((await refund(adapter(name, { tamper: "reject" }).signer)).code).toBe("BTC_WALLET_REJECTED");
  });

  it.each([
    ["changeOutput", "BTC_TX_MODIFIED"],
    ["version", "BTC_TX_MODIFIED"],
    ["sequence", "BTC_TX_MODIFIED"],
    ["locktime", "BTC_TX_MODIFIED"],
    ["outputField", "BTC_PSBT_FIELD_MODIFIED"],
    ["globalField", "BTC_PSBT_FIELD_MODIFIED"],
    ["unsigned", "BTC_SIGNATURE_INVALID"],
  ] as const)("each adapter refuses a wallet that tampers (%s)", async (tamper, code) => {
    for (const name of ADAPTERS) expect((await refund(adapter(name, { tamper }).signer)).code).toBe(code);
  });

  it("unisat is asked to sign with the untweaked key (disableTweakSigner), sats-connect under the user's P2TR address", async () => {
    const seen: unknown[] = [];
    const unisatStandin = createUnisatStandin({ key: userKey, other: strangerKey });
    const unisat = createUnisatWalletSigner({
      unisat: {
        signPsbt: (psbtHex, opts) => {
          seen.push(opts);
          return unisatStandin.signPsbt(psbtHex, opts);
        },
      },
      publicKey: userPublicKey,
    });
    expect((await refund(unisat)).code).toBe("ACCEPTED");
    expect(seen[0]).toEqual({
      autoFinalized: false,
      toSignInputs: [{ index: 0, publicKey: userPublicKey, sighashTypes: [0], disableTweakSigner: true }],
    });
    const satsStandin = createSatsConnectStandin({ key: userKey, other: strangerKey });
    const request = ((method, params) => {
      seen.push(params);
      return satsStandin(method, params as never);
    }) as SatsConnectRequest;
    expect((await refund(createSatsConnectWalletSigner({ request, publicKey: userPublicKey }))).code).toBe(
      "ACCEPTED",
    );
    const p2trAddress = payments.p2tr({ internalPubkey: xOnly(userKey) }).address!;
    expect(seen[1]).toMatchObject({
      signInputs: { [p2trAddress]: [0] },
      broadcast: false,
      allowedSignHash: 0,
    });
  });
});

describe("the refund's checks run before any wallet is asked", () => {
  const foreignRefundDeposit = () => {
    const d = buildDeposit({ refundKey: xOnly(strangerKey) });
    return d.psbt;
  };
  it.each([
    [
      "an OP_RETURN destination",
      { destinationScript: Uint8Array.of(0x6a, 0x01, 0x00) },
      "BTC_REFUND_INVALID",
    ],
    ["the HTLC's own script as destination", "htlc", "BTC_REFUND_INVALID"],
    ["a fee below 1 sat/vB", { feeLots: 50n }, "BTC_REFUND_INVALID"],
    ["a refund left below dust", { feeLots: AMOUNT - 200n }, "BTC_REFUND_INVALID"],
    ["a refund leaf paying another key", "foreign", "BTC_HTLC_REFUND_KEY_MISMATCH"],
    ["a deposit that is no PSBT", { depositPsbt: "not a psbt" }, "BTC_PSBT_INVALID"],
  ] as const)("%s", async (_name, extra, code) => {
    for (const name of ADAPTERS) {
      const { signer, calls } = adapter(name);
      const options =
        extra === "htlc"
          ? { destinationScript: deposit.htlcScript }
          : extra === "foreign"
            ? { depositPsbt: foreignRefundDeposit() }
            : extra;
      expect((await refund(signer, options)).code).toBe(code);
      expect(calls.count).toBe(0);
    }
  });

  it("a wallet of another key is refused before it is asked", async () => {
    const standin = createLeatherStandin({ key: strangerKey, other: userKey });
    let asked = 0;
    const signer = createLeatherWalletSigner({
      leather: {
        request: (method: "signPsbt", params: unknown) => {
          asked++;
          return standin.request(method, params as never);
        },
      } as LeatherProvider,
      publicKey: hex(strangerKey.publicKey),
    });
    expect((await refund(signer)).code).toBe("BTC_SIGNER_KEY_MISMATCH");
    expect(asked).toBe(0);
  });

  it("a P2WPKH wallet's refund goes to its P2WPKH script by default", async () => {
    const p2wpkhDeposit = buildDeposit({ inputs: [{ kind: "p2wpkh", value: 110_000n }] });
    const { psbt } = await signHtlcPsbt({ ecc, ...p2wpkhDeposit, userPublicKey, signer: userKey });
    const outcome = await refund(adapter("leather").signer, { depositPsbt: psbt });
    expect(outcome.code).toBe("ACCEPTED");
    const tx = Transaction.fromHex(outcome.result!.txHex);
    expect(tx.outs[0]!.script).toEqual(p2wpkhOf(userKey));
    expect(
      runInterpreter({
        txHex: outcome.result!.txHex,
        prevouts: [{ script: p2wpkhDeposit.htlcScript, value: AMOUNT }],
      }),
    ).toEqual([null]);
  });
});

describe("a wallet promise that never resolves can be abandoned on the refund path", () => {
  it.each(ADAPTERS)(
    "%s: aborting while the wallet is open rejects with BTC_SIGNING_ABORTED",
    async (name) => {
      const { signer, calls } = adapter(name, { hang: true });
      const controller = new AbortController();
      const pending = refund(signer, { signal: controller.signal });
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(calls.count).toBe(1);
      controller.abort(new Error("closed"));
      expect(await pending).toMatchObject({
        code: "BTC_SIGNING_ABORTED",
        details: { stage: "whileSigning" },
      });
    },
  );

  it.each(ADAPTERS)("%s: an already aborted signal never reaches the wallet", async (name) => {
    const { signer, calls } = adapter(name);
    const outcome = await refund(signer, { signal: AbortSignal.abort() });
    expect(outcome).toMatchObject({ code: "BTC_SIGNING_ABORTED", details: { stage: "beforeSigning" } });
    expect(calls.count).toBe(0);
  });

  it("a key signer that never answers can be abandoned too", async () => {
    const controller = new AbortController();
    const hanging = {
      publicKey: userKey.publicKey,
      sign: () => new Promise<Uint8Array>(() => {}),
      signSchnorr: () => new Promise<Uint8Array>(() => {}),
    };
    const pending = signHtlcRefund({
      ecc,
      depositPsbt: signedDeposit,
      userPublicKey,
      signer: hanging,
      feeLots: 300n,
      signal: controller.signal,
    }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 0));
    controller.abort();
    expect(await pending).toMatchObject({ code: "BTC_SIGNING_ABORTED" });
  });

  it("a signal that is no AbortSignal is refused before anything", async () => {
    const { signer, calls } = adapter("unisat");
    const outcome = await refund(signer, { signal: {} as AbortSignal });
    expect(outcome).toMatchObject({ code: "BTC_POLICY_INVALID", details: { policy: ["signal"] } });
    expect(calls.count).toBe(0);
  });
});

/** A wallet that signs the refund for real, then changes its answer with `edit` (the PSBT it hands back). */
function editing(edit: (psbt: Psbt) => void): PsbtWalletSigner {
  const inner = adapter("sats-connect").signer;
  return {
    publicKey: userKey.publicKey,
    signPsbt: async (parameters) => {
      const psbt = Psbt.fromBase64(await inner.signPsbt(parameters));
      edit(psbt);
      return psbt.toBase64();
    },
  };
}

/** The refund transaction's leaf digest for `hashType`, as the wallet was sent it. */
function leafDigest(psbt: Psbt, hashType: number): Uint8Array {
  const tx = Transaction.fromBuffer(psbt.data.globalMap.unsignedTx.toBuffer());
  const leaf = psbt.data.inputs[0]!.tapLeafScript![0]!;
  const leafHash = crypto.taggedHash("TapLeaf", Uint8Array.from([0xc0, leaf.script.length, ...leaf.script]));
  const utxo = psbt.data.inputs[0]!.witnessUtxo!;
  return tx.hashForWitnessV1(0, [utxo.script], [utxo.value], hashType, leafHash);
}

describe("a wallet's refund answer passes the same checks as a deposit answer", () => {
  const resign = (hashType: number) =>
    editing((psbt) => {
      const sig = userKey.signSchnorr(leafDigest(psbt, hashType));
      psbt.data.inputs[0]!.tapScriptSig![0]!.signature = Uint8Array.from([...sig, hashType]);
    });
  it.each([
    [
      "a flipped signature bit",
      editing((p) => {
        const s = p.data.inputs[0]!.tapScriptSig![0]!;
        s.signature = Uint8Array.from(s.signature, (b, i) => (i === 9 ? b ^ 1 : b));
      }),
      "BTC_SIGNATURE_INVALID",
    ],
    [
      "a signature by another key",
      editing((p) => {
        const s = p.data.inputs[0]!.tapScriptSig![0]!;
        s.pubkey = xOnly(strangerKey);
        s.signature = strangerKey.signSchnorr(leafDigest(p, 0));
      }),
      "BTC_SIGNATURE_UNEXPECTED",
    ],
    [
      "a signature for another leaf",
      editing((p) => {
        const s = p.data.inputs[0]!.tapScriptSig![0]!;
        s.leafHash = new Uint8Array(32).fill(1);
      }),
      "BTC_SIGNATURE_UNEXPECTED",
    ],
    [
      "a key-path signature beside it",
      editing((p) => {
        p.data.inputs[0]!.tapKeySig = new Uint8Array(64).fill(2);
      }),
      "BTC_SIGNATURE_UNEXPECTED",
    ],
    [
      "a second leaf signature",
      editing((p) => {
        const s = p.data.inputs[0]!.tapScriptSig![0]!;
        p.data.inputs[0]!.tapScriptSig!.push({ ...s, pubkey: xOnly(strangerKey) });
      }),
      "BTC_SIGNATURE_UNEXPECTED",
    ],
    [
      "the leaf script changed",
      editing((p) => {
        p.data.inputs[0]!.tapLeafScript![0]!.script = Uint8Array.of(0x51);
      }),
      "BTC_PSBT_FIELD_MODIFIED",
    ],
    [
      "the refund's output value lowered",
      editing((p) => {
        (p.data.globalMap.unsignedTx as unknown as { tx: Transaction }).tx.outs[0]!.value -= 1n;
      }),
      "BTC_TX_MODIFIED",
    ],
    [
      "a final witness with an extra item",
      editing((p) => {
        p.finalizeInput(0);
        const w = p.data.inputs[0]!.finalScriptWitness!;
        p.data.inputs[0]!.finalScriptWitness = Uint8Array.from([w[0]! + 1, ...w.slice(1), 1, 0x51]);
      }),
      "BTC_SIGNATURE_UNEXPECTED",
    ],
    ["a valid SIGHASH_SINGLE|ANYONECANPAY signature", resign(0x83), "BTC_SIGHASH_NOT_ALLOWED"],
    ["a valid SIGHASH_NONE signature", resign(0x02), "BTC_SIGHASH_NOT_ALLOWED"],
    ["a valid 65-byte SIGHASH_ALL signature (equivalent to DEFAULT)", resign(0x01), "ACCEPTED"],
  ] as const)("%s", async (_name, signer, code) => {
    const outcome = await refund(signer);
    expect(outcome.code).toBe(code);
    if (code === "ACCEPTED") {
      expect(runInterpreter({ txHex: outcome.result!.txHex, prevouts: htlcPrevout() })).toEqual([null]);
    }
  });

  it("the refused weaker signature would pass the interpreter: refused for what it commits to, not its validity", async () => {
    let answer = "";
    const weak = resign(0x83);
    const capturing: PsbtWalletSigner = {
      publicKey: userKey.publicKey,
      signPsbt: async (parameters) => {
        answer = await weak.signPsbt(parameters);
        return answer;
      },
    };
    expect((await refund(capturing)).code).toBe("BTC_SIGHASH_NOT_ALLOWED");
    const psbt = Psbt.fromBase64(answer);
    psbt.finalizeInput(0);
    const txHex = psbt.extractTransaction().toHex();
    expect(runInterpreter({ txHex, prevouts: htlcPrevout() })).toEqual([null]);
  });
});
