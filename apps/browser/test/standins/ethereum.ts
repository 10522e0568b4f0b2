// `window.ethereum`, following EIP-1193 (`request({ method, params })`, errors with a numeric `code`) and the
// methods a dapp uses to sign typed data: `eth_requestAccounts`, `eth_accounts`, `eth_chainId` (a hex quantity) and
// `eth_signTypedData_v4` (`[address, JSON typed data]`, returns a 65-byte hex signature). It signs with viem over
// the JSON it was sent, EIP712Domain included, as MetaMask does. Tampers: `otherKey` reports the user's account but
// signs with another key, `otherChain` is on another chain, `junk` returns a malformed signature.
import type { TypedDataDefinition } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { rpcError, standinConfig } from "./permit2StandinConfig.js";

const config = standinConfig("ethereum");
const account = privateKeyToAccount(config.privateKey);
const signer = config.tamper === "otherKey" ? privateKeyToAccount(config.otherPrivateKey) : account;
const chainId = config.tamper === "otherChain" ? config.chainId + 1 : config.chainId;

async function request({
  method,
  params,
}: {
  method: string;
  params?: readonly unknown[];
}): Promise<unknown> {
  switch (method) {
    case "eth_requestAccounts":
    case "eth_accounts":
      return [account.address];
    case "eth_chainId":
      return `0x${chainId.toString(16)}`;
    case "eth_signTypedData_v4": {
      const [from, json] = (params ?? []) as [unknown, unknown];
      if (typeof from !== "string" || from.toLowerCase() !== account.address.toLowerCase())
        throw rpcError(4100, "The requested account has not been authorized by the user.");
      if (typeof json !== "string")
        throw rpcError(-32602, "Invalid parameters: typed data must be a JSON string.");
      const { domain, types, primaryType, message } = JSON.parse(json);
      const signature = await signer.signTypedData({
        domain,
        types,
        primaryType,
        message,
      } as TypedDataDefinition);
      return config.tamper === "junk" ? signature.slice(0, 66) : signature;
    }
    default:
      throw rpcError(4200, `The wallet does not support ${method}.`);
  }
}

Object.assign(window, { ethereum: { request, on: () => {}, removeListener: () => {} } });
