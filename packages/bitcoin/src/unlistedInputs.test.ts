import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { crypto, opcodes, Psbt, payments, script } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { attempt, tamper } from "../test/attempt.js";
import { buildDeposit, hex, p2trOf, p2wpkhOf, strangerKey, userKey, xOnly } from "../test/fixtures.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import type { PsbtWalletSigner } from "./types.js";

const userPublicKey = hex(userKey.publicKey);

describe("an unlisted input that names the user's key in any field", () => {
  /** The user's P2TR coin (listed) and a service coin (unlisted) whose prevout and PSBT fields `edit` sets. */
  const withServiceCoin = (edit: (input: Psbt["data"]["inputs"][number]) => void) =>
    tamper(
      buildDeposit({
        inputs: [
          { kind: "p2tr", value: 60_000n },
          { kind: "p2wpkh", value: 50_000n, owner: strangerKey },
        ],
        listed: [0],
      }),
      (psbt) => edit(psbt.data.inputs[1]!),
    );
  const multisig = payments.p2wsh({
    redeem: payments.p2ms({ m: 1, pubkeys: [userKey.publicKey, strangerKey.publicKey] }),
  });
  const userLeaf = script.compile([xOnly(userKey), opcodes.OP_CHECKSIG]);
  const leafTree = payments.p2tr({
    internalPubkey: xOnly(strangerKey),
    scriptTree: { output: userLeaf },
    redeem: { output: userLeaf },
  });
  const hashScript = payments.p2wsh({
    redeem: {
      output: script.compile([
        opcodes.OP_DUP,
        opcodes.OP_HASH160,
        crypto.hash160(userKey.publicKey),
        opcodes.OP_EQUALVERIFY,
        opcodes.OP_CHECKSIG,
      ]),
    },
  });

  it.each<[string, (input: Psbt["data"]["inputs"][number]) => void]>([
    [
      "a user+service multisig witnessScript, SIGHASH_NONE|ANYONECANPAY",
      (input) => {
        input.witnessUtxo = { script: multisig.output!, value: 50_000n };
        input.witnessScript = multisig.redeem!.output!;
        input.sighashType = 0x82;
      },
    ],
    [
      "a tapscript leaf with the user's x-only key, SIGHASH_SINGLE|ANYONECANPAY",
      (input) => {
        input.witnessUtxo = { script: leafTree.output!, value: 50_000n };
        input.tapLeafScript = [
          { leafVersion: 0xc0, script: userLeaf, controlBlock: leafTree.witness!.at(-1)! },
        ];
        input.sighashType = 0x83;
      },
    ],
    [
      "a witnessScript locked to the user's key hash",
      (input) => {
        input.witnessUtxo = { script: hashScript.output!, value: 50_000n };
        input.witnessScript = hashScript.redeem!.output!;
      },
    ],
    [
      "a P2TR prevout whose output key is the user's untweaked key",
      (input) => {
        input.witnessUtxo = { script: Uint8Array.from([0x51, 0x20, ...xOnly(userKey)]), value: 50_000n };
      },
    ],
    [
      "a tapScriptSig by the user's key",
      (input) => {
        input.tapScriptSig = [
          { pubkey: xOnly(userKey), leafHash: new Uint8Array(32).fill(1), signature: new Uint8Array(64) },
        ];
      },
    ],
  ])("refuses %s", async (_name, edit) => {
    expect(await attempt(withServiceCoin(edit))).toEqual({ code: "BTC_INPUT_NOT_LISTED_SIGNED", uses: 0 });
  });

  it("what the refused payload allows (bitcore's interpreter): a user signature with SIGHASH_NONE|ANYONECANPAY on a user+service 2-of-2 spends it in a transaction paying only the service", () => {
    const twoOfTwo = payments.p2wsh({
      redeem: payments.p2ms({ m: 2, pubkeys: [userKey.publicKey, strangerKey.publicKey] }),
    });
    const coin = { script: twoOfTwo.output!, value: 50_000n };
    const outpoint = { hash: new Uint8Array(32).fill(9), index: 0 };
    // A wallet that signs every input it can, with the sighash the PSBT asks for, in the PSBT the service sent.
    const offered = new Psbt();
    offered.setVersion(2);
    offered.addInput({
      ...outpoint,
      witnessUtxo: coin,
      witnessScript: twoOfTwo.redeem!.output!,
      sighashType: 0x82,
    });
    offered.addOutput({ script: p2trOf(userKey), value: 40_000n });
    offered.signInput(0, userKey, [0x82]);
    const userSignature = offered.data.inputs[0]!.partialSig![0]!.signature;
    // The service's own transaction: the same coin, every satoshi to the service.
    const sweep = new Psbt();
    sweep.setVersion(2);
    sweep.addInput({ ...outpoint, witnessUtxo: coin, witnessScript: twoOfTwo.redeem!.output! });
    sweep.addOutput({ script: p2wpkhOf(strangerKey), value: 49_000n });
    sweep.signInput(0, strangerKey);
    const serviceSignature = sweep.data.inputs[0]!.partialSig![0]!.signature;
    const stack = [new Uint8Array(), userSignature, serviceSignature, twoOfTwo.redeem!.output!];
    sweep.finalizeInput(0, () => ({
      finalScriptSig: undefined,
      finalScriptWitness: Uint8Array.from([stack.length, ...stack.flatMap((item) => [item.length, ...item])]),
    }));
    const txHex = sweep.extractTransaction(true).toHex();
    expect(runInterpreter({ txHex, prevouts: [coin] })).toEqual([null]);
  });

  it("refuses unknown and proprietary fields on an unlisted input (their meaning to a wallet is unknown)", async () => {
    for (const key of [Uint8Array.of(0xfc, 0x01), Uint8Array.of(0x42)]) {
      const deposit = withServiceCoin((input) => {
        input.unknownKeyVals = [{ key, value: Uint8Array.of(1) }];
      });
      expect(await attempt(deposit)).toEqual({ code: "BTC_PSBT_FIELD_NOT_ALLOWED", uses: 0 });
    }
  });

  it("still accepts a service coin whose fields name only the service's keys", async () => {
    const other = payments.p2wsh({ redeem: payments.p2ms({ m: 1, pubkeys: [strangerKey.publicKey] }) });
    const deposit = withServiceCoin((input) => {
      input.witnessUtxo = { script: other.output!, value: 50_000n };
      input.witnessScript = other.redeem!.output!;
      input.sighashType = 0x82;
    });
    expect((await attempt(deposit)).code).toBe("ACCEPTED");
  });

  it("a wallet's signPsbt sees only UTXO data on unlisted inputs: no derivation path, sighash or script to sign by", async () => {
    // The user's other coin (another key of the same wallet), offered with its derivation path and SIGHASH_NONE.
    const otherKey = strangerKey;
    const deposit = withServiceCoin((input) => {
      input.bip32Derivation = [
        { masterFingerprint: Uint8Array.of(1, 2, 3, 4), path: "m/84'/0'/0'/0/7", pubkey: otherKey.publicKey },
      ];
      input.sighashType = 0x82;
    });
    let seen: Psbt | undefined;
    const wallet: PsbtWalletSigner = {
      publicKey: userKey.publicKey,
      signPsbt: async ({ psbt: base64, inputs }) => {
        seen = Psbt.fromBase64(base64);
        const psbt = Psbt.fromBase64(base64);
        // A wallet that signs every input it recognizes, with the sighash the PSBT asks for.
        psbt.data.inputs.forEach((input, index) => {
          if (input.bip32Derivation?.some((d) => hex(d.pubkey) === hex(otherKey.publicKey)))
            psbt.signInput(index, otherKey, [input.sighashType ?? 1]);
        });
        for (const index of inputs)
          psbt.signInput(index, userKey.tweak(crypto.taggedHash("TapTweak", xOnly(userKey))));
        return psbt.toBase64();
      },
    };
    const { psbt } = await signHtlcPsbt({ ecc, ...deposit, userPublicKey, signer: wallet });
    expect(
      Object.keys(seen!.data.inputs[1]!)
        .filter((k) => k !== "unknownKeyVals")
        .sort(),
    ).toEqual(["witnessUtxo"]);
    expect(Psbt.fromBase64(psbt).data.inputs[1]!.partialSig).toBeUndefined();
  });
});
