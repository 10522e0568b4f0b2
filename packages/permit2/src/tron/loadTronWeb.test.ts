import { isSwapIntentError } from "@swapintent/client";
import { expect, it, vi } from "vitest";
import { buildPermit2Fixture, USER_PRIVATE_KEY } from "../../test/fixtures/buildPermit2Fixture.js";

it("without tronweb installed, the private-key path fails with PERMIT2_TRONWEB_UNAVAILABLE (after verifying)", async () => {
  const f = buildPermit2Fixture({ chain: "tron" });
  vi.resetModules();
  vi.doMock("tronweb", () => {
    throw new Error("Cannot find package 'tronweb'");
  });
  const { signTronPermit2Approval } = await import("./signTronPermit2Approval.js");
  const error = await signTronPermit2Approval({
    intent: f.intent,
    quote: f.quote,
    expected: f.expected,
    allowedPermit2Addresses: f.allowedPermit2Addresses,
    nowMs: f.nowMs,
    privateKey: USER_PRIVATE_KEY,
  }).catch((e: unknown) => e);
  expect(isSwapIntentError(error, "PERMIT2_TRONWEB_UNAVAILABLE")).toBe(true);
  vi.doUnmock("tronweb");
});
