/**
 * A custom `requestSigning` (an HSM, a remote key service) that is slow or hangs is bounded like fetch: by the
 * attempt's `timeoutMs` and the caller's `signal`. Before, the transport awaited it unbounded, so a hung signer
 * hung the call forever whatever `timeoutMs` said.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { networksWire, statusWire } from "../../test/fixtures.js";
import { rejection } from "../../test/helpers.js";
import { settleAfter } from "../../test/settleAfter.js";
import { createSwapIntentClient } from "./createSwapIntentClient.js";
import type { ClientOptions } from "./types.js";

const intentId = "9b8a7c6d-5e4f-4a3b-9c2d-1e0f2a3b4c5d";
const never = () => new Promise<Record<string, string>>(() => {});

/** A client whose fetch records each call; `signer` is called per attempt. */
function clientWith(
  signer: NonNullable<ClientOptions["requestSigning"]>,
  options: Partial<ClientOptions> = {},
) {
  const sent: string[] = [];
  const client = createSwapIntentClient({
    baseUrl: "https://swap.example",
    requestSigning: signer,
    fetch: (async (url: string) => {
      sent.push(url);
      return new Response(JSON.stringify(url.endsWith("/networks") ? networksWire : statusWire("Initiated")));
    }) as typeof fetch,
    retry: false,
    ...options,
  });
  return { client, sent };
}

describe("a slow request signer is bounded by timeoutMs and signal (on a fake clock)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("a signer that never answers: TIMEOUT after the client's timeoutMs, nothing sent", async () => {
    const { client, sent } = clientWith(never, { timeoutMs: 50 });
    let error: { code?: string; details?: object } | undefined;
    const call = client.getNetworks().catch((caught: { code?: string; details?: object }) => {
      error = caught;
      throw caught;
    });
    expect(await settleAfter(call, 49)).toBe("still pending");
    expect(await settleAfter(call, 1)).toBe("TIMEOUT");
    expect(error?.details).toMatchObject({ method: "GET", path: "/affiliate/v1/networks", timeoutMs: 50 });
    expect(sent).toEqual([]);
  });

  it("a per-call timeoutMs bounds it too, on a POST (never retried)", async () => {
    const { client, sent } = clientWith(never, { timeoutMs: 60_000 });
    const call = client.submitApproval({
      intentId,
      approval: { type: "permit2", signedData: `0x${"11".repeat(64)}1b` },
      timeoutMs: 50,
    });
    expect(await settleAfter(call, 49)).toBe("still pending");
    expect(await settleAfter(call, 1)).toBe("TIMEOUT");
    expect(sent).toEqual([]);
  });

  it("an abort while the signer hangs: ABORTED at once, nothing sent", async () => {
    const { client, sent } = clientWith(never, { timeoutMs: 60_000 });
    const controller = new AbortController();
    const call = client.getIntentStatus({ intentId, signal: controller.signal });
    expect(await settleAfter(call, 20)).toBe("still pending");
    controller.abort();
    expect(await settleAfter(call, 0)).toBe("ABORTED");
    expect(sent).toEqual([]);
  });

  it("a signer slow on the first attempt only: the GET is retried after TIMEOUT and succeeds", async () => {
    let calls = 0;
    const { client, sent } = clientWith(
      async () => {
        calls++;
        if (calls === 1) return never();
        return { "x-api-key": "key-id", "x-api-signature": "sig" };
      },
      { timeoutMs: 50, retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 1 } },
    );
    // the first attempt times out at 50 ms, the retry waits its 1 ms and is answered
    const status = (await settleAfter(client.getIntentStatus({ intentId }), 51)) as {
      value?: { status?: string };
    };
    expect(status.value?.status).toBe("Initiated");
    expect(calls).toBe(2);
    expect(sent).toHaveLength(1);
  });

  it("the signer's own error still reaches the caller unchanged, and is not retried", async () => {
    let calls = 0;
    const failure = new Error("HSM unavailable");
    const { client } = clientWith(
      async () => {
        calls++;
        throw failure;
      },
      { retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 1 } },
    );
    expect(await rejection(client.getNetworks())).toBe(failure);
    expect(calls).toBe(1);
  });
});

describe("a signal aborted before the call", () => {
  it("never calls the signer nor sends", async () => {
    let calls = 0;
    const { client, sent } = clientWith(async () => {
      calls++;
      return never();
    });
    const error = await rejection(client.getNetworks({ signal: AbortSignal.abort() }));
    expect(error.code).toBe("ABORTED");
    expect(calls).toBe(0);
    expect(sent).toEqual([]);
  });
});
