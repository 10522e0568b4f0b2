export {
  type CreateIntentErrorType,
  type CreateIntentParameters,
  type CreateIntentReturnType,
  createIntent,
} from "./actions/createIntent.js";
export {
  type GetBestQuoteErrorType,
  type GetBestQuoteParameters,
  type GetBestQuoteReturnType,
  getBestQuote,
} from "./actions/getBestQuote.js";
export {
  type GetIntentStatusErrorType,
  type GetIntentStatusParameters,
  type GetIntentStatusReturnType,
  getIntentStatus,
} from "./actions/getIntentStatus.js";
export {
  type GetNetworksErrorType,
  type GetNetworksParameters,
  type GetNetworksReturnType,
  getNetworks,
} from "./actions/getNetworks.js";
export {
  type GetSwapHistoryErrorType,
  type GetSwapHistoryParameters,
  type GetSwapHistoryReturnType,
  getSwapHistory,
  type SwapHistoryFilter,
} from "./actions/getSwapHistory.js";
export {
  type GetTokensErrorType,
  type GetTokensParameters,
  type GetTokensReturnType,
  getTokens,
  type TokenFilter,
} from "./actions/getTokens.js";
export {
  type IterateSwapHistoryErrorType,
  type IterateSwapHistoryParameters,
  type IterateSwapHistoryReturnType,
  iterateSwapHistory,
} from "./actions/iterateSwapHistory.js";
export {
  type IterateTokensErrorType,
  type IterateTokensParameters,
  type IterateTokensReturnType,
  iterateTokens,
} from "./actions/iterateTokens.js";
export {
  type SubmitApprovalErrorType,
  type SubmitApprovalParameters,
  type SubmitApprovalReturnType,
  submitApproval,
} from "./actions/submitApproval.js";
export {
  type WaitForIntentErrorType,
  type WaitForIntentParameters,
  type WaitForIntentReturnType,
  waitForIntent,
} from "./actions/waitForIntent.js";
export {
  type WatchIntentErrorType,
  type WatchIntentParameters,
  type WatchIntentReturnType,
  watchIntent,
} from "./actions/watchIntent.js";
export {
  type CreateBaseClientErrorType,
  type CreateBaseClientParameters,
  type CreateBaseClientReturnType,
  createBaseClient,
} from "./client/createBaseClient.js";
export {
  type CreateClientErrorType,
  type CreateClientParameters,
  type CreateClientReturnType,
  type CreateSwapIntentClientErrorType,
  type CreateSwapIntentClientParameters,
  type CreateSwapIntentClientReturnType,
  createClient,
  createSwapIntentClient,
  type SwapIntentClient,
} from "./client/createSwapIntentClient.js";
export type {
  BaseClient,
  CallOptions,
  ClientHooks,
  ClientOptions,
  ClientRequest,
  RequestBody,
  RequestEvent,
  ResponseEvent,
  RetryEvent,
  RetryOptions,
} from "./client/types.js";
export {
  hasErrorCode,
  type IsAbortSignalLikeErrorType,
  type IsAbortSignalLikeParameters,
  type IsAbortSignalLikeReturnType,
  isAbortSignalLike,
  type RaceAbortSignalErrorType,
  type RaceAbortSignalParameters,
  type RaceAbortSignalReturnType,
  type ReadAbortSignalErrorType,
  type ReadAbortSignalParameters,
  type ReadAbortSignalReturnType,
  raceAbortSignal,
  readAbortSignal,
  type StringifyCanonicalJsonErrorType,
  type StringifyCanonicalJsonParameters,
  type StringifyCanonicalJsonReturnType,
  stringifyCanonicalJson,
} from "./deprecatedAliases.js";
export {
  type ClientError,
  type ClientErrorCode,
  type ClientErrorDetails,
  type HttpErrorDetails,
  isClientError,
  type NetworkFailure,
  type RequestDetails,
  type RequestError,
  type RequestErrorCode,
  type ResponseIssue,
} from "./errors/codes.js";
export type { CodedError } from "./errors/swapIntentError.js";
export { BaseError, isSwapIntentError, SwapIntentError } from "./errors/swapIntentError.js";
export {
  type CreateRequestSignerErrorType,
  type CreateRequestSignerParameters,
  type CreateRequestSignerReturnType,
  type CryptoKeyFields,
  createRequestSigner,
  type RequestSigner,
  type RequestSigningOptions,
  type SignableRequest,
  type WebCryptoKey,
} from "./signing/createRequestSigner.js";
export {
  type FormatCanonicalRequestErrorType,
  type FormatCanonicalRequestParameters,
  type FormatCanonicalRequestReturnType,
  formatCanonicalRequest,
} from "./signing/formatCanonicalRequest.js";
export {
  type FormatQueryStringErrorType,
  type FormatQueryStringParameters,
  type FormatQueryStringReturnType,
  formatQueryString,
  type QueryParameters,
} from "./signing/formatQueryString.js";
export type {
  Approval,
  ApprovalMechanism,
  CosignParams,
  Hex,
  HexString,
  HtlcParams,
  Intent,
  IntentStatus,
  KnownIntentStatus,
  Network,
  NetworkId,
  Page,
  Permit2Params,
  Quote,
  SwapHistoryItem,
  SwapMetadata,
  SwapStatus,
  Token,
  TokenInfo,
  TypedDataField,
} from "./types.js";
export {
  type FormatAmountErrorType,
  type FormatAmountParameters,
  type FormatAmountReturnType,
  formatAmount,
} from "./utils/formatAmount.js";
export {
  type FormatLotsErrorType,
  type FormatLotsParameters,
  type FormatLotsReturnType,
  type FormatUnitsErrorType,
  type FormatUnitsParameters,
  type FormatUnitsReturnType,
  formatLots,
  formatUnits,
} from "./utils/formatLots.js";
export {
  type GetQuoteTimeLeftErrorType,
  type GetQuoteTimeLeftParameters,
  type GetQuoteTimeLeftReturnType,
  getQuoteTimeLeft,
} from "./utils/getQuoteTimeLeft.js";
export {
  type IsQuoteExpiredErrorType,
  type IsQuoteExpiredParameters,
  type IsQuoteExpiredReturnType,
  isQuoteExpired,
} from "./utils/isQuoteExpired.js";
export {
  type IsTerminalStatusErrorType,
  type IsTerminalStatusParameters,
  type IsTerminalStatusReturnType,
  isTerminalStatus,
  terminalStatuses,
} from "./utils/isTerminalStatus.js";
export {
  type ParseLotsErrorType,
  type ParseLotsParameters,
  type ParseLotsReturnType,
  type ParseUnitsErrorType,
  type ParseUnitsParameters,
  type ParseUnitsReturnType,
  parseLots,
  parseUnits,
} from "./utils/parseLots.js";
export { type WireIntentStatus, wireIntentStatuses } from "./wireIntentStatuses.js";
