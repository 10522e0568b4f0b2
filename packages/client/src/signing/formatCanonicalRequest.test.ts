import { describe, expect, it } from "vitest";
import { formatCanonicalRequest, formatQueryString } from "./formatCanonicalRequest.js";
import { stringifyCanonicalJson } from "./stringifyCanonicalJson.js";

describe("formatCanonicalRequest", () => {
  it("sorts unsorted query keys, keeps repeated keys in order, and serializes a nested body canonically", () => {
    expect(
      formatCanonicalRequest({
        method: "post",
        path: "/affiliate/v1/x",
        query: [
          ["wallet", "b"],
          ["offset", "10"],
          ["wallet", "a"],
          ["active", "true"],
        ],
        body: { z: 1, a: { y: [3, { d: "é", c: null }], b: true }, m: "x:y" },
      }),
    ).toBe(
      'POST:/affiliate/v1/x:active=true&offset=10&wallet=b&wallet=a:{"a":{"b":true,"y":[3,{"c":null,"d":"é"}]},"m":"x:y","z":1}',
    );
  });

  it("leaves empty segments empty", () => {
    expect(formatCanonicalRequest({ method: "GET", path: "/affiliate/v1/networks" })).toBe(
      "GET:/affiliate/v1/networks::",
    );
    expect(formatCanonicalRequest({ method: "POST", path: "/p", body: {} })).toBe("POST:/p::{}");
  });

  it("percent-encodes query keys and values", () => {
    expect(formatQueryString({ query: [["q", "a b&c=d/é"]] })).toBe("q=a%20b%26c%3Dd%2F%C3%A9");
    expect(formatQueryString({ query: [] })).toBe("");
  });
});

describe("stringifyCanonicalJson", () => {
  it("matches JSON.stringify of a key-sorted copy, without whitespace, dropping undefined members", () => {
    expect(
      stringifyCanonicalJson({ value: { b: "1", a: [1.5, false, null], c: undefined, "\u00e9": "\n" } }),
    ).toBe('{"a":[1.5,false,null],"b":"1","é":"\\n"}');
  });

  it("refuses values JSON cannot carry", () => {
    expect(() => stringifyCanonicalJson({ value: { a: Number.NaN } })).toThrow(/non-finite/);
    expect(() => stringifyCanonicalJson({ value: { a: 1n } })).toThrow(/bigint/);
  });
});
