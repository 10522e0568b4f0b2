// A sats-connect wallet's injected provider (`window.XverseProviders.BitcoinProvider`): `request(method, params)`
// answers JSON-RPC 2.0 (`result` or `error`), which sats-connect's `request` turns into `{ status, result | error }`.
import { createSatsConnectStandin } from "../../../../packages/bitcoin/test/walletStandins.js";
import { standinOptions } from "./bitcoinStandinKeys.js";

const request = createSatsConnectStandin(standinOptions());
let id = 0;
const BitcoinProvider = {
  request: async (method: string, params?: Record<string, unknown>) => {
    id += 1;
    const answer = (await request(method, params ?? {})) as
      | { status: "success"; result: unknown }
      | { status: "error"; error: unknown };
    const envelope = { jsonrpc: "2.0", id: String(id) };
    return answer.status === "success"
      ? { ...envelope, result: answer.result }
      : { ...envelope, error: answer.error };
  },
};
Object.assign(window, { XverseProviders: { BitcoinProvider } });
