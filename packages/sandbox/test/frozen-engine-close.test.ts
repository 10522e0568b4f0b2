import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listWaitsRunOut } from "@swapintent/testing/listWaitsRunOut";
import { afterEach, expect, test } from "vitest";
import { SANDBOX_NETWORKS } from "../src/config/networks.js";
import { startSandbox } from "../src/index.js";
import { createEvmLeg } from "../src/legs/evm/index.js";
import { STOP_SAVE_TIMEOUT_MS } from "../src/legs/evm/permit2Leg/createPermit2Leg.js";
import { CLOSE_GRACE_MS } from "../src/net/closeGracefully.js";
import { createLegContext, createManualClock } from "./legs-evm-helpers.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** SIGSTOP the engine (a frozen VM, a debugger); SIGKILL it at the end of the test in any case. */
function freeze(pid: number): void {
  process.kill(pid, "SIGSTOP");
  cleanups.push(() => {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  });
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "swapintent-frozen-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The waits of more than a second that ran out: what ended a stop (the 2 s save bound, the 5 s grace, or before, the RPC client's 10 s timeout). */
const long = (waits: number[]) => waits.filter((ms) => ms > 1_000);

/**
 * A durable EVM leg saves anvil's state when it stops: a frozen anvil never answered the dump, so the stop waited for
 * the RPC client's 10 s timeout (close() of a sandbox with one frozen engine took 10.05 s), and 10 s more for a write
 * of the leg still waiting on the engine ahead of it (about 20 s). The last save now gets at most 2 s; an engine that
 * does not answer by then is stopped without it, as a crash would leave it.
 */
test("close() of a sandbox whose anvil is frozen ends on the 2 s save bound, not the RPC timeout", {
  timeout: 120_000,
}, async () => {
  const sandbox = await startSandbox({
    port: 0,
    dataDir: tempDir(),
    networks: SANDBOX_NETWORKS.filter((n) => n.type === "EVM").slice(0, 1),
    log: () => {},
  });
  freeze(sandbox.chains()[0]!.info.enginePid as number);
  expect(long(await listWaitsRunOut({ run: () => sandbox.close() }))).toEqual([STOP_SAVE_TIMEOUT_MS]);
});

/**
 * The ~20 s case: a request in flight waits on the frozen engine (a faucet write; the resolver's steps go through the
 * same queue). close() gives it the 5 s grace, then the leg's last save queued behind it waited for the write's 10 s
 * RPC timeout and its own 10 s. Now: the grace, then at most 2 s for the save.
 */
test("close() while a request waits on a frozen anvil ends on the 5 s grace and then the 2 s save bound", {
  timeout: 120_000,
}, async () => {
  const sandbox = await startSandbox({
    port: 0,
    dev: true,
    dataDir: tempDir(),
    networks: SANDBOX_NETWORKS.filter((n) => n.type === "EVM").slice(0, 1),
    log: () => {},
  });
  freeze(sandbox.chains()[0]!.info.enginePid as number);
  const faucet = fetch(`${sandbox.url}/sandbox/faucet`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      network_id: sandbox.chains()[0]!.network_id,
      address: "0x000000000000000000000000000000000000dEaD",
      token: "USDC",
      amount: 1,
    }),
  }).catch((error: unknown) => error);
  await new Promise((resolve) => setTimeout(resolve, 300)); // the faucet write waits on the frozen engine
  expect(long(await listWaitsRunOut({ run: () => sandbox.close() }))).toEqual([
    CLOSE_GRACE_MS,
    STOP_SAVE_TIMEOUT_MS,
  ]);
  await faucet;
});

test("stop() of a durable EVM leg whose anvil froze under a write ends on the 2 s save bound; the write fails", {
  timeout: 120_000,
}, async () => {
  const leg = createEvmLeg(
    createLegContext({ id: 1, type: "EVM", clock: createManualClock(), dataDir: tempDir() }),
  );
  await leg.start();
  freeze(leg.info().enginePid as number);
  const write = leg
    .faucet({ address: "0x000000000000000000000000000000000000dEaD", token: "ETH", amountLots: 1n })
    .then(
      () => "written",
      () => "failed",
    );
  await new Promise((resolve) => setTimeout(resolve, 200)); // the write waits on the frozen engine
  expect(long(await listWaitsRunOut({ run: () => leg.stop() }))).toEqual([STOP_SAVE_TIMEOUT_MS]);
  expect(await write).toBe("failed");
});
