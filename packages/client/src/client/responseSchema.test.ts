/**
 * The response schemas (internal/schema) against bodies a hostile service would send, from a real node:http server
 * through the whole client: prototype keys, twin keys, wrong shapes, absurd numbers and dates, deep nesting. Each
 * describe is one class of body; every body that is refused is refused at its path, and nothing is polluted.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { intentId, permit2IntentWire, quoteId, quoteWire, statusWire } from "../../test/fixtures.js";
import { rejection, testClient } from "../../test/helpers.js";
import { startTestServer, type TestServer } from "../../test/startTestServer.js";
import type { Permit2Params } from "../types.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  expect(({} as Record<string, unknown>).polluted, "Object.prototype polluted").toBeUndefined();
});

const addresses = { refundAddress: "refund", userSourceAddress: "source", userDestinationAddress: "0xdest" };

/** Serves `body` (a raw text, sent as is) for every path; networks for the intent's chain check. */
function serveText(body: string) {
  server.handle((request) =>
    request.path === "/affiliate/v1/networks"
      ? {
          body: [
            {
              id: 1,
              name: "E",
              type: "evm",
              supports_optimized_swap: false,
              icon_url: "",
              supports_custom_tokens: false,
            },
          ],
        }
      : { body },
  );
}

/** The permit2 intent body with `additionalData` edited as raw JSON text in place of the fixture's. */
function permit2Text(edit: (additionalData: string) => string): string {
  const wire = permit2IntentWire();
  const params = wire.params_to_sign as Record<string, unknown>;
  const marker = '"@additional_data@"';
  const text = JSON.stringify({
    ...wire,
    params_to_sign: { ...params, additional_data: "@additional_data@" },
  });
  return text.replace(marker, edit(JSON.stringify(params.additional_data)));
}

async function permit2Params(text: string): Promise<Permit2Params> {
  serveText(text);
  const intent = await testClient(server).createIntent({ quote: quoteId, ...addresses });
  if (intent.approvalMechanism !== "permit2") throw new Error("expected permit2");
  return intent.paramsToSign;
}

async function invalid(text: string, call: "status" | "intent" | "quote" = "status") {
  serveText(text);
  const client = testClient(server, { retry: false });
  const error = await rejection(
    call === "status"
      ? client.getIntentStatus({ intentId })
      : call === "intent"
        ? client.createIntent({ quote: quoteId, ...addresses })
        : client.getBestQuote({
            sourceChain: 1,
            sourceToken: "a",
            destChain: 5,
            destToken: "b",
            amount: "1.5",
            slippageBps: 50,
          }),
  );
  expect(error.code).toBe("RESPONSE_INVALID");
  return (error.details.issues as { path: string; message: string }[])[0]!;
}

describe("prototype keys in server maps (permit2 domain, types, witness)", () => {
  for (const key of ["__proto__", "constructor", "prototype"]) {
    it(`${key} as a key of domain, types or witness is refused at its path, nothing polluted`, async () => {
      for (const map of ["domain", "types", "witness"]) {
        const value = map === "types" ? '[{"name":"x","type":"uint256"}]' : '{"polluted":"yes"}';
        const text = permit2Text((data) => data.replace(`"${map}":{`, `"${map}":{"${key}":${value},`));
        expect(await invalid(text, "intent")).toEqual({
          path: `additional_data.${map}.${key}`,
          message: "unsafe key",
        });
      }
    });
  }

  it("a prototype key nested inside a witness or domain value is refused too, at its full path", async () => {
    const text = permit2Text((data) =>
      data.replace('"witness":{', '"witness":{"inner":{"list":[{"__proto__":{"polluted":"yes"}}]},'),
    );
    expect(await invalid(text, "intent")).toEqual({
      path: "additional_data.witness.inner.list.0.__proto__",
      message: "unsafe key",
    });
  });

  it("a key the server did not send reads as undefined, never as an inherited function", async () => {
    const params = await permit2Params(permit2Text((data) => data));
    const { domain, types, witness } = params.additionalData as unknown as Record<
      string,
      Record<string, unknown>
    >;
    for (const map of [domain, types, witness]) {
      for (const name of ["toString", "hasOwnProperty", "valueOf", "constructor", "__proto__"])
        expect(map![name], name).toBeUndefined();
      expect(Object.getPrototypeOf(map)).toBeNull();
    }
    // the values the server did send are all there, and a copy by Object.assign carries no prototype
    expect({ ...domain }).toEqual({
      name: "Permit2",
      chainId: 1337001,
      verifyingContract: "0x000000000022D473030F116dDEE9F6B43aC78BA3",
    });
    expect(Object.getPrototypeOf(Object.assign({}, domain))).toBe(Object.prototype);
  });

  it("toString or hasOwnProperty sent as map keys are plain data", async () => {
    const params = await permit2Params(
      permit2Text((data) => data.replace('"domain":{', '"domain":{"toString":"t","hasOwnProperty":1,')),
    );
    const domain = params.additionalData.domain as Record<string, unknown>;
    expect(domain.toString).toBe("t");
    expect(domain.hasOwnProperty).toBe(1);
    expect(Object.keys(domain).slice(0, 2)).toEqual(["toString", "hasOwnProperty"]);
  });
});

describe("prototype keys and inherited properties in schema objects", () => {
  it("__proto__ or constructor in a status body or its metadata are ignored, the result has a plain prototype", async () => {
    const text = JSON.stringify(statusWire("Accepted"))
      .replace(
        "{",
        '{"__proto__":{"polluted":"yes","source_chain":9},"constructor":{"prototype":{"polluted":1}},',
      )
      .replace('"swap_metadata":{', '"swap_metadata":{"__proto__":{"created_at":null},');
    serveText(text);
    const status = await testClient(server).getIntentStatus({ intentId });
    expect(Object.getPrototypeOf(status)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(status.swapMetadata)).toBe(Object.prototype);
    expect(status.sourceChain).toBe(1);
    expect(status.swapMetadata.createdAt).toEqual(new Date("2026-11-22T10:00:00Z"));
    expect((status as unknown as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("a field on a polluted Object.prototype never stands in for a field the server left out", async () => {
    const body = statusWire("Accepted");
    delete body.source_chain;
    const proto = Object.prototype as Record<string, unknown>;
    proto.source_chain = 1;
    try {
      expect(await invalid(JSON.stringify(body))).toEqual({ path: "source_chain", message: "missing" });
    } finally {
      delete proto.source_chain;
    }
  });
});

describe("twin keys: case, snake/camel, duplicates", () => {
  it("a camelCase twin never overwrites the wire key it is renamed from, in either order", async () => {
    for (const twinFirst of [true, false]) {
      const twins = '"sourceAmountLots":"999999","sourceChain":7,"minDestAmountLots":"0","Source_chain":8';
      const wire = JSON.stringify(statusWire("Accepted"));
      serveText(twinFirst ? wire.replace("{", `{${twins},`) : wire.replace(/}$/, `,${twins}}`));
      const status = await testClient(server).getIntentStatus({ intentId });
      expect(status.sourceAmountLots).toBe(1_500_000n);
      expect(status.sourceChain).toBe(1);
      expect(status.minDestAmountLots).toBe(995n);
    }
  });

  it("a camelCase twin never fills a missing wire key", async () => {
    const body = statusWire("Accepted", { sourceAmountLots: "1" });
    delete body.source_amount_lots;
    expect(await invalid(JSON.stringify(body))).toEqual({ path: "source_amount_lots", message: "missing" });
  });

  it("duplicate keys: the last one wins, as in JSON.parse, and it is the one checked", async () => {
    const wire = JSON.stringify(statusWire("Accepted"));
    serveText(
      wire.replace('"source_amount_lots":"1500000"', '"source_amount_lots":"1","source_amount_lots":"7"'),
    );
    expect((await testClient(server).getIntentStatus({ intentId })).sourceAmountLots).toBe(7n);
    const bad = wire.replace(
      '"source_amount_lots":"1500000"',
      '"source_amount_lots":"1","source_amount_lots":"-7"',
    );
    expect(await invalid(bad)).toEqual({
      path: "source_amount_lots",
      message: "expected an integer decimal string of at most 78 digits",
    });
  });
});

describe("shapes: arrays for objects, null, missing, extra fields", () => {
  it("an array where an object is expected is refused, even when every field of the object may be absent", async () => {
    expect(await invalid(JSON.stringify(statusWire("Accepted", { swap_metadata: [] })))).toEqual({
      path: "swap_metadata",
      message: "expected Object",
    });
    expect(await invalid(JSON.stringify([statusWire("Accepted")]))).toEqual({
      path: "",
      message: "expected Object",
    });
  });

  it("an object where an array is expected is refused (a length key is no array)", async () => {
    const text = permit2Text((data) =>
      data.replace(
        /"TokenPermissions":\[[^\]]*\]/,
        '"TokenPermissions":{"length":1,"0":{"name":"a","type":"b"}}',
      ),
    );
    expect(await invalid(text, "intent")).toEqual({
      path: "additional_data.types.TokenPermissions",
      message: "expected Array",
    });
  });

  it("extra fields are dropped from the typed result", async () => {
    serveText(JSON.stringify(statusWire("Accepted", { extra: { deep: 1 }, rawStatus: "Refunded" })));
    const status = await testClient(server).getIntentStatus({ intentId });
    expect(status).not.toHaveProperty("extra");
    expect(status.rawStatus).toBe("Accepted");
  });

  it("null for a required field is refused; null and missing are alike only where a stage may be unreached", async () => {
    expect(await invalid(JSON.stringify(statusWire("Accepted", { source_chain: null })))).toEqual({
      path: "source_chain",
      message: "expected number",
    });
    const metadata = { ...(statusWire("Accepted").swap_metadata as object), fulfilled_at: undefined };
    serveText(JSON.stringify(statusWire("Accepted", { swap_metadata: metadata })));
    expect((await testClient(server).getIntentStatus({ intentId })).swapMetadata.fulfilledAt).toBeNull();
  });
});

describe("numbers and lots", () => {
  it("1e400 (Infinity after JSON.parse) and fractions are refused as integers", async () => {
    const wire = JSON.stringify(statusWire("Accepted"));
    for (const number of ["1e400", "-1e400", "1.5", "9007199254740993"])
      expect(await invalid(wire.replace('"source_chain":1', `"source_chain":${number}`))).toEqual({
        path: "source_chain",
        message: "expected an integer",
      });
  });

  it("-0 parses as 0", async () => {
    serveText(JSON.stringify(statusWire("Accepted")).replace('"source_chain":1', '"source_chain":-0'));
    expect(Object.is((await testClient(server).getIntentStatus({ intentId })).sourceChain, 0)).toBe(true);
  });

  it("lots: signs, spaces, exponents, NaN, fractions and non-ASCII digits are refused; leading zeros are the value", async () => {
    const wire = JSON.stringify(statusWire("Accepted"));
    for (const lots of [
      "+1",
      "-1",
      " 1",
      "1 ",
      "1e3",
      "NaN",
      "Infinity",
      "1.0",
      "0x10",
      "١٢٣",
      "１２",
      "",
      "1_000",
    ])
      expect(await invalid(wire.replace('"1500000"', JSON.stringify(lots))), lots).toEqual({
        path: "source_amount_lots",
        message: "expected an integer decimal string of at most 78 digits",
      });
    serveText(wire.replace('"1500000"', `"${"0".repeat(70)}42"`));
    expect((await testClient(server).getIntentStatus({ intentId })).sourceAmountLots).toBe(42n);
  });
});

describe("dates", () => {
  const at = (createdAt: unknown) =>
    JSON.stringify(
      statusWire("Accepted", {
        swap_metadata: { ...(statusWire("Accepted").swap_metadata as object), created_at: createdAt },
      }),
    );

  it("a date-time without an offset is UTC (the spec's zone), whatever the wallet's time zone", async () => {
    const zone = process.env.TZ;
    process.env.TZ = "Asia/Tokyo";
    try {
      for (const [text, iso] of [
        ["2026-11-22T10:00:00", "2026-11-22T10:00:00.000Z"],
        ["2026-11-22T10:00", "2026-11-22T10:00:00.000Z"],
        ["2026-11-22T10:00:00.25", "2026-11-22T10:00:00.250Z"],
        ["2026-11-22", "2026-11-22T00:00:00.000Z"],
        ["2026-11-22T10:00:00+09:00", "2026-11-22T01:00:00.000Z"],
        ["2026-11-22T10:00:00-02:30", "2026-11-22T12:30:00.000Z"],
      ]) {
        serveText(at(text));
        const status = await testClient(server).getIntentStatus({ intentId });
        expect(status.swapMetadata.createdAt?.toISOString(), text).toBe(iso);
      }
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it("dates at the edges: impossible days, hours, minutes, offsets and forms are refused", async () => {
    for (const text of [
      "2026-02-29",
      "2026-02-31T00:00:00Z",
      "2026-13-01",
      "2026-00-10",
      "2026-11-22T25:00:00Z",
      "2026-11-22T10:60:00Z",
      "2026-11-22T23:59:60Z",
      "2026-11-22T10:00:00+99:99",
      "2026-11-22T10:00:00z",
      "2026-11-22 10:00:00Z",
      "+022026-11-22",
      "1",
      "March 7",
      "２０２６-11-22",
      3,
    ])
      expect(await invalid(at(text)), String(text)).toEqual({
        path: "swap_metadata.created_at",
        message: "expected an ISO 8601 date",
      });
  });
});

describe("the message names no server value", () => {
  it("an unknown approval_mechanism is not quoted (it could be huge or hold a secret)", async () => {
    const secret = `sk_live_${"z".repeat(5000)}`;
    serveText(JSON.stringify({ ...permit2IntentWire(), approval_mechanism: secret }));
    const error = await rejection(
      testClient(server, { retry: false }).createIntent({ quote: quoteId, ...addresses }),
    );
    expect(error.code).toBe("RESPONSE_INVALID");
    expect(error.shortMessage).not.toContain("sk_live_");
    expect(error.details.issues).toEqual([
      { path: "approval_mechanism", message: "expected permit2, htlc or cosign" },
    ]);
  });
});

describe("deep nesting", () => {
  it("a witness nested 100 000 levels deep is RESPONSE_INVALID (too deep), never a RangeError", async () => {
    const depth = 100_000;
    const text = permit2Text((data) =>
      data.replace('"witness":{', `"witness":{"deep":${"[".repeat(depth)}${"]".repeat(depth)},`),
    );
    const issue = await invalid(text, "intent");
    expect(issue.message).toBe("too deep");
    expect(issue.path.startsWith("additional_data.witness.deep.0.0")).toBe(true);
  });

  it("a quote body nested deep where a string is expected is refused at that field", async () => {
    const text = JSON.stringify(quoteWire()).replace(
      '"swap_type":"standard"',
      `"swap_type":${"[".repeat(50_000)}${"]".repeat(50_000)}`,
    );
    expect(await invalid(text, "quote")).toEqual({ path: "swap_type", message: "expected string" });
  });
});
