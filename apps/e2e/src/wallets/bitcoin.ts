import { signHtlcPsbt, verifyHtlcPsbt } from "@swapintent/bitcoin";
import { formatLots } from "@swapintent/client";
import { createSignOnlyWalletBase } from "@swapintent/testing/wallet";
import { initEccLib, networks, payments } from "bitcoinjs-lib";
import { ECPairFactory } from "ecpair";
import * as ecc from "tiny-secp256k1";
import type { Redactor } from "../redact.js";
import { type ChainInfo, type DemoWallet, readFact } from "./types.js";

initEccLib(ecc);
const ECPair = ECPairFactory(ecc);

/** A Bitcoin (regtest) wallet holding one key; its address is the key's BIP-86 P2TR address. */
export function createBitcoinWallet(params: {
  info: ChainInfo;
  redactor: Redactor;
  wif?: string;
}): DemoWallet {
  const network = networks.regtest;
  const key = params.wif ? ECPair.fromWIF(params.wif, network) : ECPair.makeRandom({ network });
  if (key.privateKey) params.redactor.add(key.privateKey);
  if (params.wif) params.redactor.add(params.wif);
  const address = payments.p2tr({ internalPubkey: key.publicKey.slice(1), network }).address as string;
  const publicKeyHex = Buffer.from(key.publicKey).toString("hex");
  const policy = { resolverPublicKey: readFact(params.info, "resolverPublicKey") };
  const describe = (verified: ReturnType<typeof verifyHtlcPsbt>) => [
    `Lock ${formatLots({ value: verified.htlc.valueLots, decimals: 8 })} BTC in a Taproot HTLC (output ${verified.htlc.outputIndex})`,
    `Claimable only with the preimage of the intent's secret hash by the resolver key`,
    `Refundable to you after ${verified.htlc.csvBlocks} blocks`,
    `Signing ${verified.inputs.length} input(s); network fee ${verified.feeLots} sat`,
  ];
  return {
    ...createSignOnlyWalletBase({ type: "BITCOIN", address, publicKeyHex }),
    async approve({ intent, quote, dryRun }) {
      if (dryRun) {
        const verified = verifyHtlcPsbt({ ecc, intent, quote, userPublicKey: publicKeyHex, policy });
        return { approval: null, summary: describe(verified) };
      }
      const signed = await signHtlcPsbt({
        ecc,
        intent,
        quote,
        userPublicKey: publicKeyHex,
        signer: key,
        policy,
      });
      return { approval: signed.approval, summary: describe(signed.verified) };
    },
  };
}
