/**
 * Type tests of the public API, checked by tsc under this package's tsconfig (`strict`,
 * `exactOptionalPropertyTypes: true`): main signatures, results, error codes, and every optional input
 * property accepting `undefined`.
 */
import { describe, expectTypeOf, it } from "vitest";
import type * as Root from "./index.js";
import {
  type Approval,
  type BaseClient,
  type CallOptions,
  type ClientError,
  type ClientErrorCode,
  type ClientErrorDetails,
  type ClientHooks,
  type ClientOptions,
  type CodedError,
  type CreateIntentParameters,
  type CreateRequestSignerErrorType,
  type CreateSwapIntentClientErrorType,
  type CreateSwapIntentClientParameters,
  type CryptoKeyFields,
  createBaseClient,
  createRequestSigner,
  createSwapIntentClient,
  type FormatAmountParameters,
  type FormatLotsParameters,
  type FormatQueryStringParameters,
  formatLots,
  formatQueryString,
  type GetBestQuoteErrorType,
  type GetBestQuoteParameters,
  type GetBestQuoteReturnType,
  type GetIntentStatusParameters,
  type GetNetworksParameters,
  type GetSwapHistoryParameters,
  type GetTokensParameters,
  getBestQuote,
  getIntentStatus,
  getTokens,
  type HttpErrorDetails,
  type Intent,
  type IsQuoteExpiredParameters,
  type IterateSwapHistoryParameters,
  type IterateTokensParameters,
  type IterateTokensReturnType,
  isClientError,
  isSwapIntentError,
  type Network,
  type Page,
  type ParseLotsErrorType,
  type ParseLotsParameters,
  parseLots,
  type QueryParameters,
  type Quote,
  type RequestError,
  type RequestSigner,
  type RequestSigningOptions,
  type ResponseIssue,
  type RetryOptions,
  type SignableRequest,
  type SubmitApprovalParameters,
  type SubmitApprovalReturnType,
  type SwapHistoryFilter,
  type SwapHistoryItem,
  type SwapIntentClient,
  type SwapIntentError,
  type SwapStatus,
  type TokenFilter,
  type TokenInfo,
  type WaitForIntentParameters,
  type WatchIntentParameters,
  type WebCryptoKey,
} from "./index.js";
import type * as Internal from "./internal.js";

/** The optional keys of `T`. */
type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];
/**
 * The optional keys of `T` whose declared type does not accept `undefined` (under exactOptionalPropertyTypes).
 * `-?` drops the implicit `undefined` of an optional property and keeps an explicit `| undefined`.
 */
type RejectsUndefined<T> = {
  [K in OptionalKeys<T>]-?: undefined extends Required<T>[K] ? never : K;
}[OptionalKeys<T>];

declare const env: Record<string, string | undefined>;

describe("createSwapIntentClient", () => {
  it("accepts the README line with an environment variable that may be unset", () => {
    const client = createSwapIntentClient({
      baseUrl: "https://swap.example",
      apiKey: process.env.SWAPINTENT_API_KEY,
    });
    createSwapIntentClient({ baseUrl: "https://swap.example", apiKey: env.SWAPINTENT_API_KEY });
    expectTypeOf(client).toEqualTypeOf<SwapIntentClient>();
    expectTypeOf(client).toExtend<BaseClient>();
    expectTypeOf(createBaseClient).parameter(0).toEqualTypeOf<ClientOptions>();
    expectTypeOf(createBaseClient).returns.toEqualTypeOf<BaseClient>();
  });

  it('accepts undefined for every option, and auth only as "none"', () => {
    createSwapIntentClient({
      baseUrl: "https://swap.example",
      apiKey: undefined,
      requestSigning: undefined,
      auth: undefined,
      fetch: undefined,
      timeoutMs: undefined,
      maxResponseBytes: undefined,
      retry: undefined,
      hooks: { onRequest: undefined, onResponse: undefined, onRetry: undefined },
      headers: undefined,
    });
    createSwapIntentClient({ baseUrl: "https://swap.example", auth: "none" });
    // @ts-expect-error auth has one value
    createSwapIntentClient({ baseUrl: "https://swap.example", auth: "bearer" });
    // @ts-expect-error baseUrl is required
    createSwapIntentClient({ apiKey: "k" });
    // @ts-expect-error apiKey is a string
    createSwapIntentClient({ baseUrl: "https://swap.example", apiKey: 42 });
  });

  it("request signing takes a signer: createRequestSigner with a private key and a public key or an issued key id", () => {
    createSwapIntentClient({
      baseUrl: "https://swap.example",
      requestSigning: createRequestSigner({ privateKey: "pem", publicKey: "pem" }),
    });
    createSwapIntentClient({
      baseUrl: "https://swap.example",
      requestSigning: createRequestSigner({ privateKey: "pem", keyId: "id" }),
    });
    // @ts-expect-error the private key is required
    createRequestSigner({ keyId: "id" });
    createSwapIntentClient({
      baseUrl: "https://swap.example",
      // @ts-expect-error the former shape (options instead of a signer) no longer compiles
      requestSigning: { privateKey: "pem", publicKey: "pem" },
    });
    expectTypeOf(createRequestSigner).returns.toEqualTypeOf<RequestSigner>();
    expectTypeOf<RequestSigner>().parameter(0).toEqualTypeOf<SignableRequest>();
  });

  it("keys are the program's own CryptoKey where it has one (here the DOM lib), so nothing narrows for it", () => {
    expectTypeOf<WebCryptoKey>().toEqualTypeOf<CryptoKey>();
    expectTypeOf<RequestSigningOptions["privateKey"]>().toEqualTypeOf<CryptoKey | string>();
    // the fallback for programs without a global CryptoKey accepts a real key, and not a bare object
    expectTypeOf<CryptoKey>().toExtend<CryptoKeyFields>();
    expectTypeOf<{ type: string }>().not.toExtend<CryptoKeyFields>();
  });
});

describe("every optional input property accepts undefined", () => {
  it("options and parameters of every public function", () => {
    expectTypeOf<RejectsUndefined<ClientOptions>>().toBeNever();
    expectTypeOf<RejectsUndefined<RetryOptions>>().toBeNever();
    expectTypeOf<RejectsUndefined<ClientHooks>>().toBeNever();
    expectTypeOf<RejectsUndefined<CallOptions>>().toBeNever();
    expectTypeOf<RejectsUndefined<RequestSigningOptions>>().toBeNever();
    expectTypeOf<RejectsUndefined<GetBestQuoteParameters>>().toBeNever();
    expectTypeOf<RejectsUndefined<CreateIntentParameters>>().toBeNever();
    expectTypeOf<RejectsUndefined<SubmitApprovalParameters>>().toBeNever();
    expectTypeOf<RejectsUndefined<GetIntentStatusParameters>>().toBeNever();
    expectTypeOf<RejectsUndefined<GetTokensParameters>>().toBeNever();
    expectTypeOf<RejectsUndefined<TokenFilter>>().toBeNever();
    expectTypeOf<RejectsUndefined<IterateTokensParameters>>().toBeNever();
    expectTypeOf<RejectsUndefined<GetSwapHistoryParameters>>().toBeNever();
    expectTypeOf<RejectsUndefined<SwapHistoryFilter>>().toBeNever();
    expectTypeOf<RejectsUndefined<IterateSwapHistoryParameters>>().toBeNever();
    expectTypeOf<RejectsUndefined<WaitForIntentParameters>>().toBeNever();
    expectTypeOf<RejectsUndefined<WatchIntentParameters>>().toBeNever();
    expectTypeOf<RejectsUndefined<FormatAmountParameters>>().toBeNever();
    expectTypeOf<RejectsUndefined<IsQuoteExpiredParameters>>().toBeNever();
    expectTypeOf<RejectsUndefined<ParseLotsParameters>>().toBeNever();
  });

  it("the helper itself finds an optional property that rejects undefined", () => {
    expectTypeOf<RejectsUndefined<{ a?: string; b?: number | undefined; c: string }>>().toEqualTypeOf<"a">();
  });
});

describe("results", () => {
  const client = createSwapIntentClient({ baseUrl: "https://swap.example", apiKey: "k" });

  it("each method resolves to its domain type; amounts are bigint lots", () => {
    expectTypeOf(client.getBestQuote).returns.resolves.toEqualTypeOf<Quote>();
    expectTypeOf<Quote["sourceAmountLots"]>().toEqualTypeOf<bigint>();
    expectTypeOf(client.createIntent).returns.resolves.toEqualTypeOf<Intent>();
    expectTypeOf(client.submitApproval).returns.resolves.toEqualTypeOf<SwapStatus | null>();
    expectTypeOf(client.getIntentStatus).returns.resolves.toEqualTypeOf<SwapStatus>();
    expectTypeOf(client.getNetworks).returns.resolves.toEqualTypeOf<Network[]>();
    expectTypeOf(client.getTokens).returns.resolves.toEqualTypeOf<Page<TokenInfo>>();
    expectTypeOf(client.iterateTokens).returns.toEqualTypeOf<AsyncGenerator<TokenInfo>>();
    expectTypeOf(client.getSwapHistory).returns.resolves.toEqualTypeOf<Page<SwapHistoryItem>>();
    expectTypeOf(client.waitForIntent).returns.resolves.toEqualTypeOf<SwapStatus>();
    expectTypeOf(parseLots).returns.toEqualTypeOf<bigint>();
  });

  it("standalone actions take the base client first", () => {
    expectTypeOf(getIntentStatus).parameters.toEqualTypeOf<[BaseClient, GetIntentStatusParameters]>();
    expectTypeOf(getTokens).parameter(0).toEqualTypeOf<BaseClient>();
  });

  it("an intent narrows on its approval mechanism; an approval on its type", () => {
    const intent = {} as Intent;
    if (intent.approvalMechanism === "htlc")
      expectTypeOf(intent.paramsToSign.inputs).toEqualTypeOf<number[]>();
    if (intent.approvalMechanism === "cosign") expectTypeOf(intent.paramsToSign.transaction).toBeString();
    const approval = {} as Approval;
    if (approval.type === "permit2") expectTypeOf(approval.signedData).toEqualTypeOf<`0x${string}`>();
  });
});

describe("error codes", () => {
  it("the union lists the transport's codes and rejects others", () => {
    expectTypeOf<"REDIRECT_REFUSED">().toExtend<ClientErrorCode>();
    expectTypeOf<"RESPONSE_TOO_LARGE">().toExtend<ClientErrorCode>();
    expectTypeOf<"INVALID_OPTIONS">().toExtend<ClientErrorCode>();
    // @ts-expect-error not a client code
    const unknown: ClientErrorCode = "REDIRECT_FOLLOWED";
    void unknown;
  });

  it("isSwapIntentError narrows to a SwapIntentError with that code", () => {
    const error: unknown = new Error("x");
    if (isSwapIntentError(error, "RESPONSE_TOO_LARGE")) {
      expectTypeOf(error).toEqualTypeOf<SwapIntentError<"RESPONSE_TOO_LARGE">>();
      expectTypeOf(error.code).toEqualTypeOf<"RESPONSE_TOO_LARGE">();
      expectTypeOf(error.details).toEqualTypeOf<Readonly<Record<string, unknown>>>();
    }
  });
});

describe("CodedError", () => {
  interface MyErrorDetails {
    MY_AMOUNT_MISMATCH: { expected: bigint; actual: bigint };
    MY_INPUT_INVALID: { field: string };
  }
  it("narrowing the code narrows the details", () => {
    const error = {} as CodedError<MyErrorDetails>;
    if (error.code === "MY_AMOUNT_MISMATCH") expectTypeOf(error.details.expected).toEqualTypeOf<bigint>();
    else expectTypeOf(error.details).toEqualTypeOf<Readonly<{ field: string }>>();
    expectTypeOf<
      CodedError<MyErrorDetails, "MY_INPUT_INVALID">["code"]
    >().toEqualTypeOf<"MY_INPUT_INVALID">();
  });
});

describe("ClientError (typed details per code)", () => {
  it("isClientError narrows to the code and its details", () => {
    const error: unknown = new Error("x");
    if (isClientError(error, "RATE_LIMITED")) {
      expectTypeOf(error.code).toEqualTypeOf<"RATE_LIMITED">();
      expectTypeOf(error.details.status).toEqualTypeOf<number>();
      expectTypeOf(error.details.retryAfterMs).toEqualTypeOf<number | undefined>();
    }
    if (isClientError(error, "INVALID_INPUT")) {
      expectTypeOf(error.details.field).toEqualTypeOf<string>();
      expectTypeOf(error.details.reason).toEqualTypeOf<string>();
    }
    if (isClientError(error, "TIMEOUT")) expectTypeOf(error.details.timeoutMs).toEqualTypeOf<number>();
    if (isClientError(error, "RESPONSE_INVALID"))
      expectTypeOf(error.details.issues).toEqualTypeOf<readonly ResponseIssue[] | undefined>();
  });

  it("without a code it narrows to the union, and a switch on code narrows details", () => {
    const error: unknown = new Error("x");
    if (isClientError(error)) {
      expectTypeOf(error).toEqualTypeOf<ClientError>();
      switch (error.code) {
        case "QUOTE_EXPIRED":
          expectTypeOf(error.details.expiryMs).toEqualTypeOf<number>();
          break;
        case "RESPONSE_TOO_LARGE":
          expectTypeOf(error.details.receivedBytes).toEqualTypeOf<number>();
          break;
        case "NOT_FOUND":
          expectTypeOf(error.details).toEqualTypeOf<Readonly<HttpErrorDetails>>();
          break;
      }
      // @ts-expect-error `expiryMs` is a fact of QUOTE_EXPIRED only
      void error.details.expiryMs;
    }
  });

  it("the guard accepts only client codes", () => {
    // @ts-expect-error not a client code
    isClientError(new Error("x"), "PERMIT2_AMOUNT_MISMATCH");
    expectTypeOf<ClientErrorCode>().toEqualTypeOf<keyof ClientErrorDetails>();
  });
});

describe("viem's naming: Parameters, ReturnType, ErrorType", () => {
  it("each action's ReturnType is what it resolves to", () => {
    expectTypeOf(getBestQuote).returns.resolves.toEqualTypeOf<GetBestQuoteReturnType>();
    expectTypeOf<GetBestQuoteReturnType>().toEqualTypeOf<Quote>();
    expectTypeOf<SubmitApprovalReturnType>().toEqualTypeOf<SwapStatus | null>();
    expectTypeOf<GetNetworksParameters>().toEqualTypeOf<CallOptions>();
    expectTypeOf<IterateTokensReturnType>().toEqualTypeOf<AsyncGenerator<TokenInfo>>();
    expectTypeOf(getBestQuote).parameters.toEqualTypeOf<[BaseClient, GetBestQuoteParameters]>();
  });

  it("ErrorType names the codes a function can throw", () => {
    expectTypeOf<GetBestQuoteErrorType>().toEqualTypeOf<RequestError>();
    expectTypeOf<ParseLotsErrorType>().toEqualTypeOf<ClientError<"INVALID_INPUT">>();
    expectTypeOf<CreateSwapIntentClientErrorType>().toEqualTypeOf<ClientError<"INVALID_OPTIONS">>();
    expectTypeOf<CreateRequestSignerErrorType["code"]>().toEqualTypeOf<
      "INVALID_OPTIONS" | "SIGNING_FAILED"
    >();
  });

  it("every function takes one object parameter (actions: the client first)", () => {
    expectTypeOf(formatLots).parameters.toEqualTypeOf<[FormatLotsParameters]>();
    expectTypeOf(formatQueryString).parameters.toEqualTypeOf<[FormatQueryStringParameters]>();
    expectTypeOf<FormatQueryStringParameters["query"]>().toEqualTypeOf<QueryParameters | undefined>();
    expectTypeOf(createSwapIntentClient).parameters.toEqualTypeOf<[CreateSwapIntentClientParameters]>();
  });
});

describe("the root's deprecated plumbing types", () => {
  it("have the same shape as `@swapintent/client/internal`'s", async () => {
    const root = await import("./index.js");
    const internal = await import("./internal.js");
    expectTypeOf<Root.IsAbortSignalLikeParameters>().toEqualTypeOf<Internal.IsAbortSignalLikeParameters>();
    expectTypeOf<Root.RaceAbortSignalParameters<number>>().toEqualTypeOf<
      Internal.RaceAbortSignalParameters<number>
    >();
    expectTypeOf<Root.ReadAbortSignalParameters>().toEqualTypeOf<Internal.ReadAbortSignalParameters>();
    expectTypeOf<Root.ReadAbortSignalReturnType>().toEqualTypeOf<Internal.ReadAbortSignalReturnType>();
    expectTypeOf<Root.StringifyCanonicalJsonParameters>().toEqualTypeOf<Internal.StringifyCanonicalJsonParameters>();
    expectTypeOf<Root.StringifyCanonicalJsonErrorType>().toEqualTypeOf<Internal.StringifyCanonicalJsonErrorType>();
    expectTypeOf(root.raceAbortSignal<number>).toEqualTypeOf(internal.raceAbortSignal<number>);
    expectTypeOf(root.hasErrorCode).toEqualTypeOf(internal.hasErrorCode);
    expectTypeOf(root.isAbortSignalLike).toEqualTypeOf(internal.isAbortSignalLike);
    expectTypeOf(root.readAbortSignal).toEqualTypeOf(internal.readAbortSignal);
    expectTypeOf(root.stringifyCanonicalJson).toEqualTypeOf(internal.stringifyCanonicalJson);
  });
});
