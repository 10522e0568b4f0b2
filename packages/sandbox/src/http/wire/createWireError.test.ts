import { describe, expect, test } from "vitest";
import type { z } from "zod";
import { createWireError } from "./createWireError.js";

const custom = (params: unknown, path: PropertyKey[] = ["amount"]) =>
  ({ code: "custom", path, message: "refused", input: undefined, params }) as z.core.$ZodIssue;

describe("an issue a field check did not make is INVALID_FIELD naming its path", () => {
  test.each([
    ["no issue at all", undefined, "The request is invalid."],
    [
      "zod's own type issue",
      { code: "invalid_type", expected: "string", path: ["q"], message: "x", input: 1 } as z.core.$ZodIssue,
      "The field `q` is invalid.",
    ],
    ["a refinement without params", custom(undefined), "The field `amount` is invalid."],
    ["params without a code", custom({ hint: "x" }), "The field `amount` is invalid."],
    ["a code that is not text", custom({ code: 400 }), "The field `amount` is invalid."],
    ["an empty code", custom({ code: "" }), "The field `amount` is invalid."],
    ["a code that is not an API code", custom({ code: "not a code" }), "The field `amount` is invalid."],
    [
      "a message that is not text",
      custom({ code: "INVALID_FIELD", message: { a: 1 } }),
      "The field `amount` is invalid.",
    ],
    ["params that are text", custom("INVALID_FIELD"), "The field `amount` is invalid."],
    [
      "a symbol and an index in the path",
      custom(undefined, [Symbol("s"), 0]),
      "The field `Symbol(s).0` is invalid.",
    ],
  ])("%s", (_name, issue, message) => {
    const error = createWireError({ issue, entity: "Quote" });
    expect({ code: error.code, message: error.shortMessage, entity: error.entity }).toEqual({
      code: "INVALID_FIELD",
      message,
      entity: "Quote",
    });
  });
});

test("a field check's params give the code, the message and a known entity; an unknown entity is the request's", () => {
  const own = createWireError({
    issue: custom({ code: "INVALID_PAGINATION", message: "`limit` is bad.", entity: "Token" }),
    entity: "Swap",
  });
  expect([own.code, own.shortMessage, own.entity]).toEqual([
    "INVALID_PAGINATION",
    "`limit` is bad.",
    "Token",
  ]);
  const unknownEntity = createWireError({
    issue: custom({ code: "INVALID_FIELD", entity: "Wallet" }),
    entity: "Swap",
  });
  expect([unknownEntity.code, unknownEntity.shortMessage, unknownEntity.entity]).toEqual([
    "INVALID_FIELD",
    "The field `amount` must be valid.",
    "Swap",
  ]);
});
