import type { Psbt } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { attempt, tamper } from "../test/attempt.js";
import { buildDeposit, hex, strangerKey, userKey } from "../test/fixtures.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import type { KeySigner } from "./types.js";

const userPublicKey = hex(userKey.publicKey);

describe("every PSBT check finishes before the key is used", () => {
  const tapLeaf = {
    leafVersion: 0xc0,
    script: Uint8Array.of(0x51),
    controlBlock: Uint8Array.from([0xc0, ...new Uint8Array(32).fill(1)]),
  };
  const listedP2wpkhFields: [string, (input: Psbt["data"]["inputs"][number]) => void][] = [
    [
      "tapLeafScript",
      (i) => {
        i.tapLeafScript = [tapLeaf];
      },
    ],
    [
      "tapBip32Derivation",
      (i) => {
        i.tapBip32Derivation = [
          {
            masterFingerprint: new Uint8Array(4),
            path: "m/86'/0'/0'/0/0",
            pubkey: userKey.publicKey.slice(1),
            leafHashes: [],
          },
        ];
      },
    ],
    [
      "tapMerkleRoot",
      (i) => {
        i.tapMerkleRoot = new Uint8Array(32).fill(9);
      },
    ],
    [
      "tapInternalKey",
      (i) => {
        i.tapInternalKey = userKey.publicKey.slice(1);
      },
    ],
    [
      "tapKeySig",
      (i) => {
        i.tapKeySig = new Uint8Array(64).fill(1);
      },
    ],
    [
      "tapScriptSig",
      (i) => {
        i.tapScriptSig = [
          { pubkey: userKey.publicKey.slice(1), leafHash: new Uint8Array(32), signature: new Uint8Array(64) },
        ];
      },
    ],
    [
      "witnessScript",
      (i) => {
        i.witnessScript = Uint8Array.of(0x51);
      },
    ],
    [
      "redeemScript",
      (i) => {
        i.redeemScript = Uint8Array.of(0x51);
      },
    ],
    [
      "porCommitment",
      (i) => {
        i.porCommitment = "proof";
      },
    ],
    [
      "unknownKeyVals",
      (i) => {
        i.unknownKeyVals = [{ key: Uint8Array.of(0xfc), value: Uint8Array.of(1) }];
      },
    ],
    [
      "bip32Derivation of another key",
      (i) => {
        i.bip32Derivation = [
          { masterFingerprint: new Uint8Array(4), path: "m/0", pubkey: strangerKey.publicKey },
        ];
      },
    ],
  ];
  it.each(listedP2wpkhFields)(
    "refuses %s on a listed P2WPKH input with the key unused",
    async (_name, edit) => {
      const deposit = tamper(buildDeposit(), (psbt) => edit(psbt.data.inputs[1]!));
      expect(await attempt(deposit)).toEqual({ code: "BTC_INPUT_FIELD_NOT_ALLOWED", uses: 0 });
    },
  );

  it.each([
    [
      "tapLeafScript",
      (i: Psbt["data"]["inputs"][number]) => {
        i.tapLeafScript = [tapLeaf];
      },
    ],
    [
      "tapMerkleRoot",
      (i: Psbt["data"]["inputs"][number]) => {
        i.tapMerkleRoot = new Uint8Array(32).fill(9);
      },
    ],
    [
      "bip32Derivation",
      (i: Psbt["data"]["inputs"][number]) => {
        i.bip32Derivation = [
          { masterFingerprint: new Uint8Array(4), path: "m/0", pubkey: userKey.publicKey },
        ];
      },
    ],
  ])("refuses %s on a listed P2TR input with the key unused", async (_name, edit) => {
    const deposit = tamper(buildDeposit(), (psbt) => edit(psbt.data.inputs[0]!));
    expect(await attempt(deposit)).toEqual({ code: "BTC_INPUT_FIELD_NOT_ALLOWED", uses: 0 });
  });

  it("refuses global and output fields a deposit does not have", async () => {
    const edits: ((psbt: Psbt) => void)[] = [
      (p) => {
        p.data.globalMap.unknownKeyVals = [{ key: Uint8Array.of(0xfc), value: Uint8Array.of(1) }];
      },
      (p) => {
        p.data.outputs[0]!.bip32Derivation = [
          { masterFingerprint: new Uint8Array(4), path: "m/0", pubkey: userKey.publicKey },
        ];
      },
      (p) => {
        p.data.outputs[1]!.bip32Derivation = [
          { masterFingerprint: new Uint8Array(4), path: "m/0", pubkey: strangerKey.publicKey },
        ];
      },
      (p) => {
        p.data.outputs[1]!.tapInternalKey = strangerKey.publicKey.slice(1);
      },
      (p) => {
        p.data.outputs[1]!.witnessScript = Uint8Array.of(0x51);
      },
    ];
    for (const edit of edits) {
      expect(await attempt(tamper(buildDeposit(), edit))).toEqual({
        code: "BTC_PSBT_FIELD_NOT_ALLOWED",
        uses: 0,
      });
    }
    const ownChange = tamper(buildDeposit(), (p) => {
      p.data.outputs[1]!.tapInternalKey = userKey.publicKey.slice(1);
    });
    expect((await attempt(ownChange)).code).toBe("ACCEPTED");
  });

  it("refuses a signer without Schnorr before it signs the P2WPKH input listed first", async () => {
    const deposit = buildDeposit({
      inputs: [
        { kind: "p2wpkh", value: 50_000n },
        { kind: "p2tr", value: 60_000n },
      ],
    });
    let uses = 0;
    const ecdsaOnly: KeySigner = {
      publicKey: userKey.publicKey,
      sign: (h) => {
        uses++;
        return userKey.sign(h);
      },
    };
    const refused = signHtlcPsbt({ ecc, ...deposit, userPublicKey, signer: ecdsaOnly });
    await expect(refused).rejects.toMatchObject({ code: "BTC_SIGNER_UNSUPPORTED" });
    expect(uses).toBe(0);
  });
});
