// Entry point `@swapintent/bitcoin/wallets`: adapters from the injected wallets' documented `signPsbt` calls to a
// `PsbtWalletSigner` for `signHtlcPsbt`. No wallet SDK is a dependency: each takes the injected object (or
// sats-connect's `request`) typed structurally.
export {
  type CreateLeatherWalletSignerErrorType,
  type CreateLeatherWalletSignerParameters,
  type CreateLeatherWalletSignerReturnType,
  createLeatherWalletSigner,
  type LeatherProvider,
  type LeatherSignPsbtParams,
  type LeatherSignPsbtResponse,
} from "./wallets/createLeatherWalletSigner.js";
export {
  type CreateSatsConnectWalletSignerErrorType,
  type CreateSatsConnectWalletSignerParameters,
  type CreateSatsConnectWalletSignerReturnType,
  createSatsConnectWalletSigner,
  type SatsConnectRequest,
  type SatsConnectResponse,
  type SatsConnectSignPsbtParams,
  type SatsConnectSignPsbtResult,
} from "./wallets/createSatsConnectWalletSigner.js";
export {
  type CreateUnisatWalletSignerErrorType,
  type CreateUnisatWalletSignerParameters,
  type CreateUnisatWalletSignerReturnType,
  createUnisatWalletSigner,
  type UnisatProvider,
  type UnisatSignPsbtOptions,
  type UnisatToSignInput,
} from "./wallets/createUnisatWalletSigner.js";
