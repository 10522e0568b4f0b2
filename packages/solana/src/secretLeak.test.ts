/**
 * No secret leaves in an error: a marker ed25519 seed (as bytes, a 64-byte secret key, base58, base64, hex, a
 * solana-keygen byte list, a web3.js Keypair, a `{ secretKey }` object) planted in every input that can hold one,
 * and in the wrong places (an address, an amount, the signer's public key), never appears in any text of the
 * refusal (String, stack, JSON, util.inspect, the cause chain) nor on the console.
 */
import { Keypair } from "@solana/web3.js";
import { isSwapIntentError } from "@swapintent/client";
import { beforeAll, describe, expect, it } from "vitest";
import { createMarkerSecret, leakOf } from "../../client/test/expectNoSecret.js";
import {
  type Chain,
  compileHex,
  createChain,
  honestInstructions,
  intentFor,
  quoteFor,
} from "../test/fixture.js";
import { getAssociatedTokenAccountAddress } from "./getAssociatedTokenAccountAddress.js";
import { base58Encode } from "./internal/base58.js";
import { signCosignTransaction } from "./signCosignTransaction.js";
import { signCosignTransactionWithKit } from "./signCosignTransactionWithKit.js";
import { signCosignTransactionWithWalletStandard } from "./signCosignTransactionWithWalletStandard.js";
import { verifyCosignTransaction } from "./verifyCosignTransaction.js";

const marker = createMarkerSecret();
const keypair = Keypair.fromSeed(marker.bytes);
const secretKey = keypair.secretKey;
// The seed's own forms, and the 64-byte secret key's text forms (whose windows are not the public key's).
const secrets = [
  marker.bytes,
  base58Encode(secretKey),
  Buffer.from(secretKey).toString("base64"),
  Buffer.from(secretKey).toString("hex"),
];

/** The forms a key can be passed in, right or wrong. */
const keyForms: Record<string, unknown> = {
  seedBytes: marker.bytes,
  secretKeyBytes: secretKey,
  secretKeyBase58: base58Encode(secretKey),
  secretKeyBase58OneCharOff: `${base58Encode(secretKey).slice(0, 20)}0${base58Encode(secretKey).slice(21)}`,
  secretKeyBase64: Buffer.from(secretKey).toString("base64"),
  seedHex: marker.hex,
  seedHexOneCharOff: `${marker.hex.slice(0, 31)}g${marker.hex.slice(32)}`,
  keygenFile: JSON.stringify([...secretKey]),
  byteList: [...secretKey],
  object: { secretKey },
  bigint: BigInt(`0x${marker.hex}`),
};

let chain: Chain;
beforeAll(async () => {
  chain = await createChain();
});

async function expectNoLeak(run: () => unknown) {
  const { error, leak } = await leakOf(run, secrets);
  expect(isSwapIntentError(error), String(error)).toBe(true);
  expect(leak, String(error)).toBeNull();
}

function base(extra: Record<string, unknown> = {}) {
  const hex = compileHex(chain, honestInstructions(chain));
  return {
    intent: intentFor(hex),
    quote: quoteFor(chain),
    escrow: { owner: chain.escrowOwner.address },
    ...extra,
  } as never;
}

describe.each(Object.entries(keyForms))("a key as %s", (_form, value) => {
  it.each([
    ["signer", () => ({ signer: value })],
    [
      "signer.publicKey of a message signer",
      () => ({ signer: { publicKey: value, signMessage: async () => new Uint8Array(64) } }),
    ],
    ["signer.publicKey of a keypair-like", () => ({ signer: { publicKey: value, secretKey: marker.bytes } })],
    ["escrow.owner", () => ({ signer: chain.user, escrow: { owner: value } })],
    ["escrow.tokenAccount", () => ({ signer: chain.user, escrow: { tokenAccount: value } })],
    ["quote.sourceToken", () => ({ signer: chain.user, quote: { ...quoteFor(chain), sourceToken: value } })],
    [
      "quote.sourceAmountLots",
      () => ({ signer: chain.user, quote: { ...quoteFor(chain), sourceAmountLots: value } }),
    ],
    ["allowedPrograms", () => ({ signer: chain.user, allowedPrograms: [value] })],
    [
      "maxNativeOutflowLamports",
      () => ({ signer: chain.user, maxNativeOutflowLamports: typeof value === "bigint" ? -value : value }),
    ],
    ["lookupTables", () => ({ signer: chain.user, lookupTables: [{ key: value, addresses: [value] }] })],
    ["signal", () => ({ signer: chain.user, signal: value })],
  ])("signCosignTransaction: %s", async (_name, extra) => {
    await expectNoLeak(() => signCosignTransaction(base(extra())));
  });
  it("verifyCosignTransaction: userAddress", async () => {
    await expectNoLeak(() => verifyCosignTransaction(base({ userAddress: value })));
  });
  it("signCosignTransactionWithKit: signer.address", async () => {
    await expectNoLeak(() =>
      signCosignTransactionWithKit(base({ signer: { address: value, signTransactions: async () => [] } })),
    );
  });
  it("signCosignTransactionWithWalletStandard: account.address", async () => {
    await expectNoLeak(() =>
      signCosignTransactionWithWalletStandard(
        base({
          wallet: { features: {} },
          account: { address: value, publicKey: value, chains: [], features: [] },
        }),
      ),
    );
  });
  it("getAssociatedTokenAccountAddress: owner", async () => {
    await expectNoLeak(() => getAssociatedTokenAccountAddress({ owner: value, mint: value } as never));
  });
});

describe("a real key whose signing is refused or fails", () => {
  it("a Keypair of the marker that is not the transaction's user", async () => {
    await expectNoLeak(() => signCosignTransaction(base({ signer: keypair })));
  });
  it("a Keypair whose secret key does not derive its public key", async () => {
    const forged = { publicKey: chain.user.publicKey, secretKey };
    await expectNoLeak(() => signCosignTransaction(base({ signer: forged })));
  });
  it("the user's Keypair, aborted", async () => {
    await expectNoLeak(() =>
      signCosignTransaction(base({ signer: chain.user, signal: AbortSignal.abort() })),
    );
  });
});
