/**
 * Server text carried out of a result into a later error: `WAIT_TIMEOUT` names the last status only when this
 * version knows it, so a status that echoes the key never reaches the error.
 */

import { describe, expect, it } from "vitest";
import { intentId, statusWire } from "../../test/fixtures.js";
import { rejection } from "../../test/helpers.js";
import { everything, useTestServer } from "../../test/hostileServer.js";

const apiKey = "sk_live_Hostile2Key9";

const { server, client } = useTestServer(apiKey);

describe("server text carried out of a result into a later error", () => {
  it("WAIT_TIMEOUT: an unknown status that echoes the key (100 kB) is reported as Unknown, not quoted", async () => {
    server.handle(() => ({ body: statusWire(`${apiKey}${"s".repeat(100_000)}`) }));
    const error = await rejection(client().waitForIntent({ intentId, intervalMs: 5, timeoutMs: 1500 }));
    expect(error.code).toBe("WAIT_TIMEOUT");
    expect(error.details.lastStatus).toBe("Unknown");
    expect(everything(error)).not.toContain(apiKey);
    expect(everything(error).length).toBeLessThan(10_000);
  });

  it("WAIT_TIMEOUT: a known status keeps the service's spelling", async () => {
    server.handle(() => ({ body: statusWire("RefundRquested") }));
    const error = await rejection(client().waitForIntent({ intentId, intervalMs: 5, timeoutMs: 1500 }));
    expect(error.details.lastStatus).toBe("RefundRquested");
  });
});
