import { formatCanonicalRequest as formatClientCanonical } from "@swapintent/client";
import { expect, test } from "vitest";
import { formatCanonicalRequest } from "./formatCanonicalRequest.js";

test("the server's canonical string equals the client's for the same request (independent implementations)", () => {
  const body = { source_chain: 1, amount: 1.25, nested: { z: "ü", a: [3, 2] }, slippage_bps: "50" };
  const query: [string, string][] = [
    ["wallet", "0xB"],
    ["limit", "5"],
    ["wallet", "0xA"],
    ["q", "usd coin&more"],
  ];
  const rawQuery = query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
  const server = formatCanonicalRequest({
    method: "post",
    path: "/affiliate/v1/x",
    rawQuery,
    body: JSON.stringify(body, null, 2),
  });
  const client = formatClientCanonical({ method: "POST", path: "/affiliate/v1/x", query, body });
  expect(server).toBe(client);
  expect(server).toBe(
    'POST:/affiliate/v1/x:limit=5&q=usd%20coin%26more&wallet=0xB&wallet=0xA:{"amount":1.25,"nested":{"a":[3,2],"z":"ü"},"slippage_bps":"50","source_chain":1}',
  );
});

test("empty segments stay empty", () => {
  expect(
    formatCanonicalRequest({ method: "GET", path: "/affiliate/v1/networks", rawQuery: "", body: "" }),
  ).toBe("GET:/affiliate/v1/networks::");
});
