// `window.ethereum` of a smart-account wallet (as Coinbase Smart Wallet or a Safe app behaves), following EIP-1193:
// its account is a contract (a sandbox `SandboxSmartAccount`, ERC-1271) whose owner key the wallet holds;
// `eth_signTypedData_v4` answers with the owner's signature of the account's replay-safe hash of the typed data
// (EIP-712 over the account's own domain), wrapped in ERC-6492 with the factory call while the account has no code.
// Chain reads (`eth_getCode`, `eth_call`, `eth_blockNumber`, ...) go to the chain's JSON-RPC URL, as a wallet's RPC
// does. Tamper: `otherHash` signs another hash than the typed data's.
import {
  type Hex,
  hashTypedData,
  keccak256,
  serializeErc6492Signature,
  type TypedDataDefinition,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";

export interface SmartWalletStandinConfig {
  ownerPrivateKey: Hex;
  account: Hex;
  factory: Hex;
  factoryData: Hex;
  chainId: number;
  rpcUrl: string;
  tamper: "none" | "otherHash";
}

const config = (window as unknown as { __smartWalletStandin?: SmartWalletStandinConfig })
  .__smartWalletStandin;
if (!config) throw new Error("the smart-wallet stand-in has no configuration");
const owner = privateKeyToAccount(config.ownerPrivateKey);

function rpcError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

async function forward(method: string, params: readonly unknown[] | undefined): Promise<unknown> {
  const response = await fetch(config!.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: params ?? [] }),
  });
  const body = (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
  if (body.error) throw rpcError(body.error.code, body.error.message);
  return body.result;
}

async function signTypedData(json: string): Promise<Hex> {
  const { domain, types, primaryType, message } = JSON.parse(json);
  const permitHash = hashTypedData({ domain, types, primaryType, message } as TypedDataDefinition);
  const hash = config!.tamper === "otherHash" ? keccak256(permitHash) : permitHash;
  const signature = await owner.signTypedData({
    domain: {
      name: "SandboxSmartAccount",
      version: "1",
      chainId: config!.chainId,
      verifyingContract: config!.account,
    },
    types: { SandboxSmartAccountMessage: [{ name: "hash", type: "bytes32" }] },
    primaryType: "SandboxSmartAccountMessage",
    message: { hash },
  });
  const code = await forward("eth_getCode", [config!.account, "latest"]);
  if (typeof code === "string" && code !== "0x") return signature;
  return serializeErc6492Signature({ address: config!.factory, data: config!.factoryData, signature });
}

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
      return [config!.account];
    case "eth_chainId":
      return `0x${config!.chainId.toString(16)}`;
    case "eth_signTypedData_v4": {
      const [from, json] = (params ?? []) as [unknown, unknown];
      if (typeof from !== "string" || from.toLowerCase() !== config!.account.toLowerCase())
        throw rpcError(4100, "The requested account has not been authorized by the user.");
      if (typeof json !== "string")
        throw rpcError(-32602, "Invalid parameters: typed data must be a JSON string.");
      return signTypedData(json);
    }
    case "eth_sendTransaction":
    case "eth_sign":
    case "personal_sign":
      throw rpcError(4200, `The wallet does not support ${method} here.`);
    default:
      return forward(method, params);
  }
}

Object.assign(window, { ethereum: { request, on: () => {}, removeListener: () => {} } });
