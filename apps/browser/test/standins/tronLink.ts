// TronLink as a page sees it: `window.tronLink.request({ method: "tron_requestAccounts" })` (answers `{ code: 200 }`)
// and the injected `window.tronWeb` with `ready`, `defaultAddress` (`base58`, `hex`) and `trx.signTypedData(domain,
// types, value)` (alias `_signTypedData`) that signs with the wallet's own key through TronWeb's TIP-712
// implementation. Tampers: `otherKey` signs with another key, `otherChain` signs for Tron's main chain id, `junk`
// returns a malformed signature.
import * as tronweb from "tronweb";
import { standinConfig } from "./permit2StandinConfig.js";

type SignTypedData = typeof tronweb.Trx.signTypedData;

const config = standinConfig("tronLink");
const key = (config.tamper === "otherKey" ? config.otherPrivateKey : config.privateKey).slice(2);
const base58 = tronweb.TronWeb.address.fromPrivateKey(config.privateKey.slice(2)) as string;

const signTypedData = async (...[domain, types, value]: Parameters<SignTypedData>) => {
  const signed = config.tamper === "otherChain" ? { ...domain, chainId: 728126428 } : domain;
  const signature = tronweb.Trx.signTypedData(signed, types, value, key);
  return config.tamper === "junk" ? signature.slice(0, 66) : signature;
};

Object.assign(window, {
  tronLink: {
    ready: true,
    request: async ({ method }: { method: string }) => {
      if (method !== "tron_requestAccounts") throw new Error(`TronLink does not support ${method}`);
      return { code: 200, message: "The site is already in the whitelist" };
    },
  },
  tronWeb: {
    ready: true,
    defaultAddress: { base58, hex: tronweb.TronWeb.address.toHex(base58) },
    trx: { signTypedData, _signTypedData: signTypedData },
  },
});
