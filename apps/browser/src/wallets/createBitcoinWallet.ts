import * as ecc from "@bitcoinerlab/secp256k1";
import { createHtlcActions } from "@swapintent/bitcoin";
import { createSignOnlyWalletBase } from "@swapintent/testing/wallet";
import { initEccLib, networks, payments } from "bitcoinjs-lib";
import { ECPairFactory } from "ecpair";
import { type BrowserWallet, type ChainInfo, readFact, toHex } from "./types.js";

/**
 * A Bitcoin (regtest) wallet with a key generated in the browser; its address is the key's BIP-86 P2TR address.
 * secp256k1 comes from the pure-JS `@bitcoinerlab/secp256k1` (no WebAssembly).
 */
export function createBitcoinWallet(params: { info: ChainInfo }): BrowserWallet {
  initEccLib(ecc);
  const network = networks.regtest;
  const key = ECPairFactory(ecc).makeRandom({ network });
  const address = payments.p2tr({ internalPubkey: key.publicKey.slice(1), network }).address as string;
  const publicKeyHex = toHex(key.publicKey);
  const bitcoin = createHtlcActions({
    ecc,
    policy: { resolverPublicKey: readFact(params.info, "resolverPublicKey") },
  });
  return {
    ...createSignOnlyWalletBase({ type: "BITCOIN", address, publicKeyHex }),
    async approve({ intent, quote }) {
      const signed = await bitcoin.sign({ intent, quote, userPublicKey: publicKeyHex, signer: key });
      const v = signed.verified;
      return {
        approval: signed.approval,
        summary: [
          `Lock ${v.htlc.valueLots} sat in a Taproot HTLC (output ${v.htlc.outputIndex}), refundable after ${v.htlc.csvBlocks} blocks`,
          `Signing ${v.inputs.length} input(s); network fee ${v.feeLots} sat`,
        ],
      };
    },
  };
}
