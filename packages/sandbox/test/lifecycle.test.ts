import { expect, test } from "vitest";
import { startSandbox } from "../src/index.js";
import { createTestLegFactory, type TestLeg } from "./support/createTestLeg.js";

test("close() stops the legs and the server and is idempotent", async () => {
  const legs: TestLeg[] = [];
  const sandbox = await startSandbox({
    port: 0,
    log: () => {},
    legs: createTestLegFactory({ onCreate: (l) => legs.push(l) }),
  });
  expect(legs.map((l) => l.calls.start)).toEqual([1, 1, 1, 1, 1]);
  const first = sandbox.close();
  const second = sandbox.close();
  await Promise.all([first, second]);
  await sandbox.close();
  expect(legs.map((l) => l.calls.stop)).toEqual([1, 1, 1, 1, 1]);
  await expect(fetch(`${sandbox.url}/affiliate/v1/networks`)).rejects.toThrow();
});

test("a failed start (port taken) stops every leg it created and rejects", async () => {
  const holder = await startSandbox({ port: 0, log: () => {}, legs: createTestLegFactory() });
  try {
    const legs: TestLeg[] = [];
    await expect(
      startSandbox({
        port: holder.port,
        log: () => {},
        legs: createTestLegFactory({ onCreate: (l) => legs.push(l) }),
      }),
    ).rejects.toThrow(/EADDRINUSE/);
    expect(legs.map((l) => l.calls.stop)).toEqual([1, 1, 1, 1, 1]);
  } finally {
    await holder.close();
  }
});

test("a leg that fails to start fails the sandbox start with its error", async () => {
  const base = createTestLegFactory();
  const stopped: number[] = [];
  await expect(
    startSandbox({
      port: 0,
      log: () => {},
      legs: (ctx) => {
        const leg = base(ctx);
        return {
          ...leg,
          start: ctx.network.id === 4 ? () => Promise.reject(new Error("engine missing")) : leg.start,
          stop: async () => {
            stopped.push(ctx.network.id);
          },
        };
      },
    }),
  ).rejects.toThrow("engine missing");
  expect(stopped.sort()).toEqual([1, 2, 3, 4, 5]);
});
