import { describe, expect, it } from "vitest";
import { formatCanonicalRequest } from "./formatCanonicalRequest.js";

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
});
