import { spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { processesMarked } from "@swapintent/testing/processesMarked";
import { afterEach, expect, test, vi } from "vitest";
import { compileSolidity } from "./compileSolidity.js";

const previous = process.env.SWAPINTENT_CACHE_DIR;
afterEach(() => {
  if (previous === undefined) delete process.env.SWAPINTENT_CACHE_DIR;
  else process.env.SWAPINTENT_CACHE_DIR = previous;
});

test("a compile lock left by a process killed mid-compile is taken over at once, with no wait", async () => {
  const cache = mkdtempSync(join(tmpdir(), "swapintent-solc-"));
  process.env.SWAPINTENT_CACHE_DIR = cache;
  try {
    const job = {
      label: "lock-test",
      sources: {
        "A.sol":
          "// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract A { uint256 public x = 1; }\n",
      },
      settings: {},
      contracts: ["A.sol:A"],
    };
    const first = await compileSolidity(job);
    const [artifact] = readdirSync(cache).filter((name) => name.endsWith(".json"));
    rmSync(join(cache, artifact!));
    // What a demo SIGKILLed while compiling leaves: the lock, holding the pid of a process that no longer runs.
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    writeFileSync(join(cache, `${artifact}.lock`), String(dead));

    // "at once" as a count, not a time: the compile may not wait a single time for the dead holder's lock (before, it
    // waited in 250 ms steps until the lock was two minutes old); any wait it starts fails the compile here
    const realSetTimeout = globalThis.setTimeout;
    const waits = vi.spyOn(globalThis, "setTimeout").mockImplementation(((
      handler: (...args: unknown[]) => void,
      ms?: number,
      ...args: unknown[]
    ) => {
      if (new Error().stack?.includes("compileSolidity.ts"))
        throw new Error(`the compile waited ${ms} ms for the lock of a holder that no longer runs`);
      return realSetTimeout(handler, ms, ...args);
    }) as typeof setTimeout);
    try {
      expect(await compileSolidity(job)).toEqual(first);
    } finally {
      waits.mockRestore();
    }
    expect(existsSync(join(cache, `${artifact}.lock`))).toBe(false);
    expect(existsSync(join(cache, artifact!))).toBe(true);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}, 60_000);

test("a process that exits while solc compiles takes the solc child with it, leaving no orphan compiler", async () => {
  const cache = mkdtempSync(join(tmpdir(), "swapintent-solc-"));
  const mark = `SWAPINTENT_TEST_RUN=${randomUUID()}`;
  const loader = fileURLToPath(new URL("./loadPermit2Artifact.ts", import.meta.url));
  try {
    // Permit2 via-IR: a compile of many seconds; the process exits 1.5 s into it (as the demo does when interrupted).
    const script = `import { loadPermit2Artifact } from ${JSON.stringify(loader)}; void loadPermit2Artifact(); setTimeout(() => process.exit(0), 1500);`;
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "--conditions=swapintent-source", "--input-type=module", "-e", script],
      {
        env: { ...process.env, SWAPINTENT_CACHE_DIR: cache, [mark.split("=")[0]!]: mark.split("=")[1]! },
        stdio: "ignore",
      },
    );
    await new Promise((resolve) => child.once("exit", resolve));
    const deadline = Date.now() + 5_000;
    while (processesMarked(mark).length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(processesMarked(mark)).toEqual([]);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}, 60_000);

test("a compile says when it starts (compiler, cache folder) and when it is done; a cache hit says nothing", async () => {
  const cache = mkdtempSync(join(tmpdir(), "swapintent-solc-"));
  process.env.SWAPINTENT_CACHE_DIR = cache;
  try {
    const heard: string[] = [];
    const job = {
      label: "progress-test",
      sources: {
        "B.sol":
          "// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract B { uint256 public y = 2; }\n",
      },
      settings: {},
      contracts: ["B.sol:B"],
      onProgress: (message: string) => void heard.push(message),
    };
    await compileSolidity(job);
    expect(heard[0]).toBe(
      `compiling progress-test with solc 0.8.17 (first start only: 20 to 70 s; cached in ${cache})`,
    );
    expect(heard.at(-1)).toMatch(/^compiled progress-test in \d+ s$/);
    expect(heard.slice(1, -1).every((line) => /^still compiling progress-test \(\d+ s\)$/.test(line))).toBe(
      true,
    );
    const before = heard.length;
    await compileSolidity(job);
    expect(heard.length).toBe(before);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}, 60_000);
