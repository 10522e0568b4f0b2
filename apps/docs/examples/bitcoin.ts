import { signHtlcPsbt, signHtlcRefund } from "@swapintent/bitcoin";
import { createSwapIntentClient } from "@swapintent/client";
import { initEccLib, networks, payments } from "bitcoinjs-lib";
import { ECPairFactory } from "ecpair";
import * as ecc from "tiny-secp256k1"; // browsers: import * as ecc from "@bitcoinerlab/secp256k1"
import { fundFromFaucet, getSandboxChain, readChainFact } from "./sandbox.js";
import { swap } from "./swap.js";

initEccLib(ecc);

/**
 * BTC on the sandbox's Bitcoin network (4, regtest) to USDC on its network 1: the user's coins fund a Taproot HTLC
 * that only the intent's secret unlocks, refundable to the user after a timelock. The wallet signs its own refund
 * at deposit time and keeps it, so the user can take the coins back if the service never claims them.
 */
export async function swapOnBitcoin({ baseUrl, apiKey }: { baseUrl: string; apiKey: string }) {
  const bitcoin = await getSandboxChain({ baseUrl, apiKey, networkId: 4 });
  const destination = await getSandboxChain({ baseUrl, apiKey, networkId: 1 });
  // The resolver's key is a fact the wallet configures: the HTLC's claim path must name it.
  const resolverPublicKey = readChainFact(bitcoin, "resolverPublicKey");
  const destUsdc = destination.info.tokens.USDC!;

  const key = ECPairFactory(ecc).makeRandom({ network: networks.regtest }); // your wallet's key
  const publicKey = Buffer.from(key.publicKey).toString("hex");
  const address = payments.p2tr({ internalPubkey: key.publicKey.slice(1), network: networks.regtest })
    .address!;
  const recipient = "0x3279d973d95E8A532f541Dd3c18B8dC621CBDe91"; // what the user typed
  await fundFromFaucet({ baseUrl, apiKey, networkId: 4, address, token: "BTC", amount: "0.01" });

  let refund: { txHex: string; csvBlocks: number } | undefined;
  const status = await swap({
    client: createSwapIntentClient({ baseUrl, apiKey }),
    from: { networkId: 4, token: bitcoin.info.tokens.BTC!, address, publicKey },
    to: { networkId: 1, token: destUsdc, address: recipient },
    amount: "0.001",
    sign: async ({ intent, quote }) => {
      // Every check (inputs, HTLC leaves, amount, change, fee, sighash) finishes before the key is used.
      const { approval, verified } = await signHtlcPsbt({
        ecc,
        intent,
        quote,
        userPublicKey: publicKey,
        signer: key, // or an adapter of @swapintent/bitcoin/wallets (Unisat, sats-connect, Leather)
        policy: { resolverPublicKey, maxFeeLots: 20_000n },
      });
      console.log(`HTLC ${verified.htlc.valueLots} sat in ${verified.txid}:0, fee ${verified.feeLots} sat`);
      // The user's own way back: spend the HTLC through its refund leaf once csvBlocks have passed.
      refund = await signHtlcRefund({
        ecc,
        depositPsbt: approval.signedData,
        userPublicKey: publicKey,
        signer: key,
        feeLots: 500n,
      });
      return approval;
    },
  });
  return { status, refund }; // broadcast refund.txHex only if the deposit is still unclaimed after csvBlocks
}
