/**
 * Type tests of the public API, checked by tsc under this package's tsconfig (`strict`,
 * `exactOptionalPropertyTypes: true`): main signatures, results, error codes, and every optional input
 * property accepting `undefined`.
 */
import { describe, expectTypeOf, it } from "vitest";
import {
  type Approval,
  type BaseClient,
  type BaseError,
  type CallOptions,
  type ClientErrorCode,
  type ClientHooks,
  type ClientOptions,
  type CodedError,
  type CreateIntentParams,
  createBaseClient,
  createClient,
  createRequestSigner,
  type FormatAmountParams,
  type GetBestQuoteParams,
  type GetIntentStatusParams,
  type GetSwapHistoryParams,
  type GetTokensParams,
  getIntentStatus,
  getTokens,
  type Intent,
  type IsQuoteExpiredParams,
  type IterateSwapHistoryParams,
  type IterateTokensParams,
  isSwapIntentError,
  type Network,
  type Page,
  type ParseUnitsParams,
  parseUnits,
  type Quote,
  type RequestSigner,
  type RequestSigningOptions,
  type RetryOptions,
  type SignableRequest,
  type SubmitApprovalParams,
  type SwapHistoryFilter,
  type SwapHistoryItem,
  type SwapIntentClient,
  type SwapStatus,
  type Token,
  type TokenFilter,
  type WaitForIntentParams,
  type WatchIntentParams,
} from "./index.js";

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

describe("createClient", () => {
  it("accepts the README line with an environment variable that may be unset", () => {
    const client = createClient({ baseUrl: "https://swap.example", apiKey: process.env.SWAPINTENT_API_KEY });
    createClient({ baseUrl: "https://swap.example", apiKey: env.SWAPINTENT_API_KEY });
    expectTypeOf(client).toEqualTypeOf<SwapIntentClient>();
    expectTypeOf(client).toExtend<BaseClient>();
    expectTypeOf(createBaseClient).parameter(0).toEqualTypeOf<ClientOptions>();
    expectTypeOf(createBaseClient).returns.toEqualTypeOf<BaseClient>();
  });

  it('accepts undefined for every option, and auth only as "none"', () => {
    createClient({
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
    createClient({ baseUrl: "https://swap.example", auth: "none" });
    // @ts-expect-error auth has one value
    createClient({ baseUrl: "https://swap.example", auth: "bearer" });
    // @ts-expect-error baseUrl is required
    createClient({ apiKey: "k" });
    // @ts-expect-error apiKey is a string
    createClient({ baseUrl: "https://swap.example", apiKey: 42 });
  });

  it("request signing takes a signer: createRequestSigner with a private key and a public key or an issued key id", () => {
    createClient({
      baseUrl: "https://swap.example",
      requestSigning: createRequestSigner({ privateKey: "pem", publicKey: "pem" }),
    });
    createClient({
      baseUrl: "https://swap.example",
      requestSigning: createRequestSigner({ privateKey: "pem", keyId: "id" }),
    });
    // @ts-expect-error the private key is required
    createRequestSigner({ keyId: "id" });
    createClient({
      baseUrl: "https://swap.example",
      // @ts-expect-error the former shape (options instead of a signer) no longer compiles
      requestSigning: { privateKey: "pem", publicKey: "pem" },
    });
    expectTypeOf(createRequestSigner).returns.toEqualTypeOf<RequestSigner>();
    expectTypeOf<RequestSigner>().parameter(0).toEqualTypeOf<SignableRequest>();
  });
});

describe("every optional input property accepts undefined", () => {
  it("options and parameters of every public function", () => {
    expectTypeOf<RejectsUndefined<ClientOptions>>().toBeNever();
    expectTypeOf<RejectsUndefined<RetryOptions>>().toBeNever();
    expectTypeOf<RejectsUndefined<ClientHooks>>().toBeNever();
    expectTypeOf<RejectsUndefined<CallOptions>>().toBeNever();
    expectTypeOf<RejectsUndefined<RequestSigningOptions>>().toBeNever();
    expectTypeOf<RejectsUndefined<GetBestQuoteParams>>().toBeNever();
    expectTypeOf<RejectsUndefined<CreateIntentParams>>().toBeNever();
    expectTypeOf<RejectsUndefined<SubmitApprovalParams>>().toBeNever();
    expectTypeOf<RejectsUndefined<GetIntentStatusParams>>().toBeNever();
    expectTypeOf<RejectsUndefined<GetTokensParams>>().toBeNever();
    expectTypeOf<RejectsUndefined<TokenFilter>>().toBeNever();
    expectTypeOf<RejectsUndefined<IterateTokensParams>>().toBeNever();
    expectTypeOf<RejectsUndefined<GetSwapHistoryParams>>().toBeNever();
    expectTypeOf<RejectsUndefined<SwapHistoryFilter>>().toBeNever();
    expectTypeOf<RejectsUndefined<IterateSwapHistoryParams>>().toBeNever();
    expectTypeOf<RejectsUndefined<WaitForIntentParams>>().toBeNever();
    expectTypeOf<RejectsUndefined<WatchIntentParams>>().toBeNever();
    expectTypeOf<RejectsUndefined<FormatAmountParams>>().toBeNever();
    expectTypeOf<RejectsUndefined<IsQuoteExpiredParams>>().toBeNever();
    expectTypeOf<RejectsUndefined<ParseUnitsParams>>().toBeNever();
  });

  it("the helper itself finds an optional property that rejects undefined", () => {
    expectTypeOf<RejectsUndefined<{ a?: string; b?: number | undefined; c: string }>>().toEqualTypeOf<"a">();
  });
});

describe("results", () => {
  const client = createClient({ baseUrl: "https://swap.example", apiKey: "k" });

  it("each method resolves to its domain type; amounts are bigint lots", () => {
    expectTypeOf(client.getBestQuote).returns.resolves.toEqualTypeOf<Quote>();
    expectTypeOf<Quote["sourceAmountLots"]>().toEqualTypeOf<bigint>();
    expectTypeOf(client.createIntent).returns.resolves.toEqualTypeOf<Intent>();
    expectTypeOf(client.submitApproval).returns.resolves.toEqualTypeOf<SwapStatus | null>();
    expectTypeOf(client.getIntentStatus).returns.resolves.toEqualTypeOf<SwapStatus>();
    expectTypeOf(client.getNetworks).returns.resolves.toEqualTypeOf<Network[]>();
    expectTypeOf(client.getTokens).returns.resolves.toEqualTypeOf<Page<Token>>();
    expectTypeOf(client.iterateTokens).returns.toEqualTypeOf<AsyncGenerator<Token>>();
    expectTypeOf(client.getSwapHistory).returns.resolves.toEqualTypeOf<Page<SwapHistoryItem>>();
    expectTypeOf(client.waitForIntent).returns.resolves.toEqualTypeOf<SwapStatus>();
    expectTypeOf(parseUnits).returns.toEqualTypeOf<bigint>();
  });

  it("standalone actions take the base client first", () => {
    expectTypeOf(getIntentStatus).parameters.toEqualTypeOf<[BaseClient, GetIntentStatusParams]>();
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

  it("isSwapIntentError narrows to a BaseError with that code", () => {
    const error: unknown = new Error("x");
    if (isSwapIntentError(error, "RESPONSE_TOO_LARGE")) {
      expectTypeOf(error).toEqualTypeOf<BaseError<"RESPONSE_TOO_LARGE">>();
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
