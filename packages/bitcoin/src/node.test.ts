import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { Psbt } from "bitcoinjs-lib";
import { expect, it } from "vitest";
import { buildDeposit, hex, userKey } from "../test/fixtures.js";

it("@swapintent/bitcoin/node exports only createNodeHtlcActions, which signs with tiny-secp256k1", async () => {
  const entry = await import("./node.js");
  expect(Object.keys(entry).sort()).toMatchInlineSnapshot(`
    [
      "createNodeHtlcActions",
    ]
  `);
  const deposit = buildDeposit();
  const { psbt } = await entry.createNodeHtlcActions().sign({
    intent: deposit.intent,
    quote: deposit.quote,
    userPublicKey: hex(userKey.publicKey),
    signer: userKey,
  });
  expect(
    runInterpreter({ txHex: Psbt.fromBase64(psbt).extractTransaction().toHex(), prevouts: deposit.prevouts }),
  ).toEqual([null, null]);
});
