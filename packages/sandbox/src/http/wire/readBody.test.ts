import { Hono } from "hono";
import { describe, expect, test } from "vitest";
import { createErrorHandler } from "../requestHygiene.js";
import { readBody } from "./readBody.js";
import { ApprovalEnvelopeSchema, FaultsRequestSchema, QuoteRequestSchema } from "./requestSchemas.js";

/** An app that answers each schema's output as JSON (bigint-free: the fields are strings and safe integers). */
function createEchoApp() {
  const app = new Hono();
  app.onError(createErrorHandler(() => {}));
  app.post("/quote", async (c) => c.json(await readBody({ c, schema: QuoteRequestSchema, entity: "Quote" })));
  app.post("/approval", async (c) =>
    c.json(await readBody({ c, schema: ApprovalEnvelopeSchema, entity: "Approval" })),
  );
  app.post("/faults", async (c) =>
    c.json(
      await readBody({
        c,
        schema: FaultsRequestSchema,
        entity: "Other",
        objectMessage: "A JSON object is required.",
      }),
    ),
  );
  return app;
}

const app = createEchoApp();
const post = async (path: string, body: string) => {
  const response = await app.request(path, {
    method: "POST",
    body,
    headers: { "content-type": "application/json" },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};
const quote = (fields: Record<string, string>) =>
  `{${Object.entries({
    source_chain: "1",
    source_token: '"a"',
    dest_chain: "2",
    dest_token: '"b"',
    amount: "1",
    slippage_bps: '"0"',
    swap_type: '"standard"',
    ...fields,
  })
    .map(([k, v]) => `"${k}":${v}`)
    .join(",")}}`;

describe("amounts keep their exact decimal text", () => {
  test.each([
    ["0.1", "0.1"],
    ["0.30000000000000004", "0.30000000000000004"],
    ["123456789012345678901234567890.123456789", "123456789012345678901234567890.123456789"],
    ["1e-7", "1e-7"],
    ['" 2.50 "', "2.50"],
  ])("amount %s is read as %j, never through a float", async (amount, text) => {
    const r = await post("/quote", quote({ amount }));
    expect(r).toMatchObject({ status: 200, body: { amount: text } });
  });

  test.each([["true"], ['""'], ['"  "'], ["[1]"], ["{}"]])(
    "amount %s is 400 INVALID_FIELD naming it",
    async (amount) => {
      const r = await post("/quote", quote({ amount }));
      expect(r).toEqual({
        status: 400,
        body: {
          code: 400,
          entity: "Quote",
          type: "INVALID_FIELD",
          message: "The field `amount` must be a number.",
        },
      });
    },
  );
});

describe("integers", () => {
  test.each([["9007199254740993"], ["1.0"], ["1e3"], ['"1"'], ["-0.5"]])(
    "source_chain %s is 400 INVALID_FIELD (not a safe JSON integer)",
    async (chain) => {
      const r = await post("/quote", quote({ source_chain: chain }));
      expect(r.body).toMatchObject({
        type: "INVALID_FIELD",
        message: "The field `source_chain` must be an integer.",
      });
    },
  );
});

describe("the first refused field is answered, in the order the fields are read", () => {
  test("missing source_token before a mistyped amount", async () => {
    const r = await post("/quote", quote({ source_token: "null", amount: "false" }));
    expect(r.body).toMatchObject({ type: "MISSING_FIELD", message: "The field `source_token` is required." });
  });
  test("a bad retail_user_id after everything else", async () => {
    const r = await post("/quote", quote({ retail_user_id: '"x"' }));
    expect(r.body).toMatchObject({
      type: "INVALID_FIELD",
      message: "The field `retail_user_id` must be a UUID.",
    });
  });
});

describe("hostile bodies get a coded 400, never a 500", () => {
  test.each([
    ["a number", "5", "INVALID_BODY"],
    ["a string", '"x"', "INVALID_BODY"],
    ["null", "null", "INVALID_BODY"],
    ["__proto__ keys", '{"__proto__":{"type":"permit2"},"constructor":{"prototype":1}}', "MISSING_FIELD"],
    ["a type named toString", '{"type":"toString","signed_data":"0x"}', "INVALID_APPROVAL_TYPE"],
    ["a type that is an object", '{"type":{"length":1},"signed_data":"0x"}', "INVALID_FIELD"],
    ["a duplicate key (the last wins)", '{"type":"permit2","type":7,"signed_data":"0x"}', "INVALID_FIELD"],
    [
      "nesting deeper than the reader allows",
      `{"type":"permit2","signed_data":${"[".repeat(100)}${"]".repeat(100)}}`,
      "MALFORMED_JSON",
    ],
    ["nesting within it", `{"type":"permit2","signed_data":${"[".repeat(50)}${"]".repeat(50)}}`, null],
  ])("approval: %s", async (_, body, type) => {
    const r = await post("/approval", body);
    if (type === null) expect(r.status).toBe(200);
    else expect(r).toMatchObject({ status: 400, body: { code: 400, entity: "Approval", type } });
  });

  test("approval_type is read only without type, and signed_data must be present", async () => {
    expect((await post("/approval", '{"type":"htlc","approval_type":5,"signed_data":"x"}')).body).toEqual({
      type: "psbt",
      signedData: "x",
    });
    expect((await post("/approval", '{"approval_type":5,"signed_data":"x"}')).body).toMatchObject({
      type: "INVALID_FIELD",
      message: "The field `approval_type` must be a string.",
    });
    expect((await post("/approval", '{"type":"cosign","signed_data":null}')).body).toMatchObject({
      type: "MISSING_FIELD",
      message: "The field `signed_data` is required.",
    });
  });

  test.each([
    ['{"__proto__":true}', "UNKNOWN_FAULT"],
    ['{"decline_all":"yes"}', "INVALID_FIELD"],
    ["[]", "INVALID_BODY"],
    ["7", "INVALID_BODY"],
  ])("faults %s is 400 %s", async (body, type) => {
    expect((await post("/faults", body)).body).toMatchObject({ code: 400, type });
  });

  test("faults change only what is named", async () => {
    expect((await post("/faults", '{"decline_all":true}')).body).toEqual({ decline_all: true });
  });
});

describe("an unknown fault's key is repeated back only when it is a plain short name", () => {
  test.each([
    ['{"fail_delivry":true}', "Unknown fault `fail_delivry`."],
    ['{"__proto__":true}', "Unknown fault `__proto__`."],
    ['{"\\u3164":true}', "Unknown fault; the faults are fail_delivery and decline_all."],
    ['{"fail_delivery\\u200b":true}', "Unknown fault; the faults are fail_delivery and decline_all."],
    ['{"a`b":true}', "Unknown fault; the faults are fail_delivery and decline_all."],
    [`{"${"k".repeat(65)}":true}`, "Unknown fault; the faults are fail_delivery and decline_all."],
  ])("faults %s", async (body, message) => {
    expect((await post("/faults", body)).body).toEqual({
      code: 400,
      type: "UNKNOWN_FAULT",
      entity: "Other",
      message,
    });
  });
});
