// The Bitcoin wallets of `?wallets=injected`: Unisat (`window.unisat`), a sats-connect wallet (Xverse's
// `window.XverseProviders.BitcoinProvider`) and Leather (`window.LeatherProvider`), each through its adapter of
// `@swapintent/bitcoin/wallets`. The key stays in the wallet; the page only learns the public key and address.
import * as ecc from "@bitcoinerlab/secp256k1";
import { createHtlcActions, type PsbtWalletSigner } from "@swapintent/bitcoin";
import {
  createLeatherWalletSigner,
  createSatsConnectWalletSigner,
  createUnisatWalletSigner,
  type LeatherProvider,
  type SatsConnectRequest,
  type UnisatProvider,
} from "@swapintent/bitcoin/wallets";
import type { ChainFacts } from "@swapintent/testing/devApi";
import { createSignOnlyWalletBase } from "@swapintent/testing/wallet";
import { type BrowserWallet, readFact } from "../wallets/types.js";
import { injectedWallets } from "./index.js";

/** A wallet's address entry (sats-connect's and Leather's `getAddresses`). */
interface AddressEntry {
  address: string;
  publicKey: string;
  addressType?: string;
  type?: string;
}

/** A JSON-RPC 2.0 answer, as the injected providers of sats-connect wallets and Leather give it. */
type JsonRpcAnswer = { result: unknown } | { error: { code: number | string; message: string } };

declare global {
  interface Window {
    unisat?: UnisatProvider & { getPublicKey(): Promise<string>; getAccounts(): Promise<string[]> };
    XverseProviders?: {
      BitcoinProvider?: { request(method: string, params?: unknown): Promise<JsonRpcAnswer> };
    };
    LeatherProvider?: { request(method: string, params?: unknown): Promise<JsonRpcAnswer> };
  }
}

/** The page's wallet: the injected wallet's address and key, signing through `signer` after verification. */
function walletOf(params: {
  chain: ChainFacts;
  address: string;
  publicKey: string;
  signer: PsbtWalletSigner;
}) {
  const { chain, address, publicKey, signer } = params;
  const bitcoin = createHtlcActions({
    ecc,
    policy: { resolverPublicKey: readFact(chain.info, "resolverPublicKey") },
  });
  const wallet: BrowserWallet = {
    ...createSignOnlyWalletBase({ type: "BITCOIN", address, publicKeyHex: publicKey }),
    async approve({ intent, quote }) {
      const signed = await bitcoin.sign({ intent, quote, userPublicKey: publicKey, signer });
      const v = signed.verified;
      return {
        approval: signed.approval,
        summary: [
          `Lock ${v.htlc.valueLots} sat in a Taproot HTLC (output ${v.htlc.outputIndex}), refundable after ${v.htlc.csvBlocks} blocks`,
          `Signed ${v.inputs.length} input(s) in the injected wallet; network fee ${v.feeLots} sat`,
        ],
      };
    },
  };
  return wallet;
}

/** sats-connect's `request` over an injected provider: its JSON-RPC answer as `{ status, result | error }`. */
function satsConnectRequest(
  provider: NonNullable<Window["XverseProviders"]>["BitcoinProvider"],
): SatsConnectRequest {
  return (async (method: string, params: unknown) => {
    const answer = await provider!.request(method, params);
    return "error" in answer
      ? { status: "error", error: answer.error }
      : { status: "success", result: answer.result };
  }) as SatsConnectRequest;
}

/** The user's P2TR entry of a `getAddresses` answer. */
function taprootEntry(answer: unknown): AddressEntry {
  const addresses = (answer as { addresses?: AddressEntry[] }).addresses ?? [];
  const entry = addresses.find((a) => a.addressType === "p2tr" || a.type === "p2tr");
  if (!entry) throw new Error("the wallet has no Taproot address");
  return entry;
}

injectedWallets.push(
  {
    name: "unisat",
    type: "BITCOIN",
    create: async ({ chain }) => {
      const unisat = window.unisat;
      if (!unisat) throw new Error("window.unisat is missing");
      const [address] = await unisat.getAccounts();
      const publicKey = await unisat.getPublicKey();
      const signer = createUnisatWalletSigner({ unisat, publicKey });
      return walletOf({ chain, address: address!, publicKey, signer });
    },
  },
  {
    name: "sats-connect",
    type: "BITCOIN",
    create: async ({ chain }) => {
      const provider = window.XverseProviders?.BitcoinProvider;
      if (!provider) throw new Error("window.XverseProviders.BitcoinProvider is missing");
      const request = satsConnectRequest(provider);
      const answer = await provider.request("getAddresses", { purposes: ["ordinals", "payment"] });
      if (!("result" in answer)) throw new Error("getAddresses was refused");
      const { address, publicKey } = taprootEntry(answer.result);
      const signer = createSatsConnectWalletSigner({ request, publicKey, bech32Prefix: "bcrt" });
      return walletOf({ chain, address, publicKey, signer });
    },
  },
  {
    name: "leather",
    type: "BITCOIN",
    create: async ({ chain }) => {
      const provider = window.LeatherProvider;
      if (!provider) throw new Error("window.LeatherProvider is missing");
      const answer = await provider.request("getAddresses");
      if (!("result" in answer)) throw new Error("getAddresses was refused");
      const { address, publicKey } = taprootEntry(answer.result);
      const signer = createLeatherWalletSigner({ leather: provider as LeatherProvider, publicKey });
      return walletOf({ chain, address, publicKey, signer });
    },
  },
);
