/**
 * Each action's `XErrorType` holds the codes that action can throw, no more: a `switch` over `code` with one case per
 * code is exhaustive (the `default` branch is `never`), and a code the action cannot throw does not compile as a case.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { ClientErrorCode, RequestErrorCode } from "../errors/codes.js";
import type { CreateIntentErrorType } from "./createIntent.js";
import type { GetIntentStatusErrorType } from "./getIntentStatus.js";
import type { SubmitApprovalErrorType } from "./submitApproval.js";
import type { WaitForIntentErrorType } from "./waitForIntent.js";

/** What a wallet would do with each request error: retry, ask the user, or give up. */
function handleRequestError(error: GetIntentStatusErrorType): "retry" | "user" | "fail" {
  switch (error.code) {
    case "TIMEOUT":
    case "NETWORK_ERROR":
    case "RATE_LIMITED":
    case "SERVER_ERROR":
      return "retry";
    case "ABORTED":
    case "UNAUTHORIZED":
    case "FORBIDDEN":
    case "NOT_FOUND":
    case "UNPROCESSABLE":
    case "BAD_REQUEST":
    case "INVALID_INPUT":
      return "user";
    case "INVALID_OPTIONS":
    case "SIGNING_FAILED":
    case "REDIRECT_REFUSED":
    case "RESPONSE_TOO_LARGE":
    case "RESPONSE_INVALID":
    case "HTTP_ERROR":
      return "fail";
    default:
      expectTypeOf(error).toBeNever();
      return error;
  }
}

describe("each action's ErrorType is narrowed to what it can throw", () => {
  it("getIntentStatus: the request codes only, exhaustive in a switch; QUOTE_EXPIRED and WAIT_TIMEOUT are not among them", () => {
    expectTypeOf(handleRequestError).parameter(0).toEqualTypeOf<GetIntentStatusErrorType>();
    expectTypeOf<GetIntentStatusErrorType["code"]>().toEqualTypeOf<RequestErrorCode>();
    expectTypeOf<"QUOTE_EXPIRED">().not.toExtend<GetIntentStatusErrorType["code"]>();
    expectTypeOf<"WAIT_TIMEOUT">().not.toExtend<GetIntentStatusErrorType["code"]>();
    expectTypeOf<SubmitApprovalErrorType["code"]>().toEqualTypeOf<RequestErrorCode>();
    expectTypeOf<GetIntentStatusErrorType["code"]>().not.toEqualTypeOf<ClientErrorCode>();
  });

  it("createIntent adds QUOTE_EXPIRED, waitForIntent adds WAIT_TIMEOUT, and details narrow with the code", () => {
    expectTypeOf<CreateIntentErrorType["code"]>().toEqualTypeOf<RequestErrorCode | "QUOTE_EXPIRED">();
    expectTypeOf<WaitForIntentErrorType["code"]>().toEqualTypeOf<RequestErrorCode | "WAIT_TIMEOUT">();
    const onCreate = (error: CreateIntentErrorType) => {
      if (error.code === "QUOTE_EXPIRED") expectTypeOf(error.details.expiryMs).toEqualTypeOf<number>();
      else expectTypeOf(error.code).toEqualTypeOf<RequestErrorCode>();
    };
    const onWait = (error: WaitForIntentErrorType) => {
      if (error.code === "WAIT_TIMEOUT") expectTypeOf(error.details.intentId).toEqualTypeOf<string>();
      // @ts-expect-error waitForIntent never throws QUOTE_EXPIRED
      if (error.code === "QUOTE_EXPIRED") return;
    };
    expectTypeOf(onCreate).toBeFunction();
    expectTypeOf(onWait).toBeFunction();
  });
});
