import { afterEach, describe, expect, it, vi } from "vitest";
import { createDevApi } from "./devApi.js";

/** Records every request and answers each with `answer`. */
function stubFetch(answer: { status: number; body: string }) {
  const calls: { url: string; method: string; body: string | undefined; apiKey: string | null }[] = [];
  vi.stubGlobal("fetch", async (url: URL, init: RequestInit) => {
    calls.push({
      url: String(url),
      method: String(init.method),
      body: init.body === undefined ? undefined : String(init.body),
      apiKey: new Headers(init.headers).get("x-api-key"),
    });
    return new Response(answer.body === "" ? null : answer.body, { status: answer.status });
  });
  return calls;
}

const api = () => createDevApi({ baseUrl: "http://sandbox.test", apiKey: "k" });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("createDevApi", () => {
  it("writes the faucet amount's text as given, never through a float", async () => {
    const calls = stubFetch({ status: 200, body: "" });
    await api().faucet({ networkId: 1, address: "0xabc", token: "USDC", amount: "0.100000000000000001" });
    expect(calls).toEqual([
      {
        url: "http://sandbox.test/sandbox/faucet",
        method: "POST",
        body: '{"network_id":1,"address":"0xabc","token":"USDC","amount":0.100000000000000001}',
        apiKey: "k",
      },
    ]);
  });

  it.each(["1e3", "-1", "1.", "0x10", "1,5", ""])(
    "refuses the faucet amount %j before any request",
    async (amount) => {
      const calls = stubFetch({ status: 200, body: "" });
      await expect(api().faucet({ networkId: 1, address: "a", token: "t", amount })).rejects.toThrow(
        /decimal string/,
      );
      expect(calls).toEqual([]);
    },
  );

  it("reads a balance in lots as a bigint, exactly", async () => {
    const calls = stubFetch({ status: 200, body: '{"balance_lots":"123456789012345678901234567890"}' });
    expect(await api().balance({ networkId: 4, address: "bcrt1q", token: "BTC" })).toBe(
      123456789012345678901234567890n,
    );
    expect(calls[0]?.url).toBe("http://sandbox.test/sandbox/balance?network_id=4&address=bcrt1q&token=BTC");
  });

  it("throws with the status and the answer's text on a failed call", async () => {
    stubFetch({ status: 404, body: "no such chain" });
    await expect(api().chains()).rejects.toThrow("GET /sandbox/chains answered 404: no such chain");
  });
});
