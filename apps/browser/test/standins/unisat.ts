// `window.unisat`, following Unisat's documented API (getAccounts, getPublicKey, signPsbt(psbtHex, options) → hex).
import { createUnisatStandin } from "../../../../packages/bitcoin/test/walletStandins.js";
import { standinOptions } from "./bitcoinStandinKeys.js";

Object.assign(window, { unisat: createUnisatStandin(standinOptions()) });
