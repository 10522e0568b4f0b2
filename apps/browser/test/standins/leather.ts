// `window.LeatherProvider`, following Leather's documented RPC (`request("getAddresses")`,
// `request("signPsbt", { hex, signAtIndex, allowedSighash, broadcast })`; a refusal rejects with a JSON-RPC error).
import { createLeatherStandin } from "../../../../packages/bitcoin/test/walletStandins.js";
import { standinOptions } from "./bitcoinStandinKeys.js";

Object.assign(window, { LeatherProvider: createLeatherStandin(standinOptions()) });
