/**
 * A status record about another intent (a server or cache mix-up) is refused with `RESPONSE_INVALID` at
 * `intent_id`, not returned as this intent's status. Before, `waitForIntent` resolved with another intent's
 * `Fulfilled`, and a wallet would have shown a swap as done that was not.
 */
import { describe, expect, it } from "vitest";
import { statusWire } from "../../test/fixtures.js";
import { rejection } from "../../test/helpers.js";
import { createSwapIntentClient } from "../client/createSwapIntentClient.js";

const intentId = "9b8a7c6d-5e4f-4a3b-9c2d-1e0f2a3b4c5d";
const other = "00000000-0000-4000-8000-000000000000";

function answering(id: string) {
  return createSwapIntentClient({
    baseUrl: "https://swap.example",
    apiKey: "sk_live_OtherIntent0123",
    retry: false,
    fetch: async () => new Response(JSON.stringify({ ...statusWire("Fulfilled"), intent_id: id })),
  });
}

describe("a status record about another intent", () => {
  const calls = [
    ["getIntentStatus", (id: string) => answering(id).getIntentStatus({ intentId })],
    [
      "waitForIntent",
      (id: string) => answering(id).waitForIntent({ intentId, intervalMs: 5, timeoutMs: 1000 }),
    ],
    [
      "submitApproval",
      (id: string) =>
        answering(id).submitApproval({
          intentId,
          approval: { type: "permit2", signedData: `0x${"ab".repeat(64)}1b` },
        }),
    ],
  ] as const;

  it.each(calls)("%s: RESPONSE_INVALID at intent_id", async (_name, call) => {
    const error = await rejection(call(other));
    expect(error.code).toBe("RESPONSE_INVALID");
    expect((error.details.issues as Array<{ path: string }>)[0]?.path).toBe("intent_id");
  });

  it.each(calls)("%s: the same intent, its id in upper case, is accepted", async (_name, call) => {
    const status = (await call(intentId.toUpperCase())) as { status: string } | null;
    expect(status?.status).toBe("Fulfilled");
  });
});
