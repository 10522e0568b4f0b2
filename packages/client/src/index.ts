export { type CreateIntentParams, createIntent } from "./actions/createIntent.js";
export { type GetBestQuoteParams, getBestQuote } from "./actions/getBestQuote.js";
export { type GetIntentStatusParams, getIntentStatus } from "./actions/getIntentStatus.js";
export { getNetworks } from "./actions/getNetworks.js";
export {
  type GetSwapHistoryParams,
  getSwapHistory,
  type SwapHistoryFilter,
} from "./actions/getSwapHistory.js";
export { type GetTokensParams, getTokens, type TokenFilter } from "./actions/getTokens.js";
export { type IterateSwapHistoryParams, iterateSwapHistory } from "./actions/iterateSwapHistory.js";
export { type IterateTokensParams, iterateTokens } from "./actions/iterateTokens.js";
export { type SubmitApprovalParams, submitApproval } from "./actions/submitApproval.js";
export { type WaitForIntentParams, waitForIntent } from "./actions/waitForIntent.js";
export { type WatchIntentParams, watchIntent } from "./actions/watchIntent.js";
export { createBaseClient } from "./client/createBaseClient.js";
export { createClient, type SwapIntentClient } from "./client/createClient.js";
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
export type { CodedError } from "./errors/baseError.js";
export { BaseError, hasErrorCode, isSwapIntentError } from "./errors/baseError.js";
export type { ClientErrorCode } from "./errors/codes.js";
export {
  createRequestSigner,
  type RequestSigner,
  type RequestSigningOptions,
  type SignableRequest,
} from "./signing/createRequestSigner.js";
export { formatCanonicalRequest } from "./signing/formatCanonicalRequest.js";
export { formatQueryString, type QueryParams } from "./signing/formatQueryString.js";
export { stringifyCanonicalJson } from "./signing/stringifyCanonicalJson.js";
export type {
  Approval,
  ApprovalMechanism,
  CosignParams,
  Hex,
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
  TypedDataField,
} from "./types.js";
export { type FormatAmountParams, formatAmount } from "./utils/formatAmount.js";
export { formatUnits } from "./utils/formatUnits.js";
export { getQuoteTimeLeft } from "./utils/getQuoteTimeLeft.js";
export { type IsQuoteExpiredParams, isQuoteExpired } from "./utils/isQuoteExpired.js";
export { isTerminalStatus, terminalStatuses } from "./utils/isTerminalStatus.js";
export { type ParseUnitsParams, parseUnits } from "./utils/parseUnits.js";
export { type WireIntentStatus, wireIntentStatuses } from "./wireIntentStatuses.js";
