import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { parseCliArgs } from "./parseCliArgs.js";

test("parses every option", () => {
  expect(
    parseCliArgs({
      argv: [
        "--port",
        "0",
        "--data-dir",
        "/tmp/x",
        "--api-key",
        "a",
        "--api-key=b",
        "--quote-ttl",
        "45",
        "--dev",
        "--rate-limit",
        "10",
        "--rate-window",
        "2",
      ],
    }),
  ).toEqual({
    help: false,
    options: {
      port: 0,
      dataDir: "/tmp/x",
      apiKeys: ["a", "b"],
      quoteTtlSecs: 45,
      dev: true,
      rateLimit: { requests: 10, windowSecs: 2 },
    },
  });
  expect(parseCliArgs({ argv: [] })).toEqual({ help: false, options: { port: 8787 } });
  expect(parseCliArgs({ argv: ["--help"] })).toEqual({ help: true });
});

test("relative paths resolve against the folder the command was run from", () => {
  expect(parseCliArgs({ argv: ["--data-dir", "state"], cwd: "/home/dev/wallet" })).toEqual({
    help: false,
    options: { port: 8787, dataDir: "/home/dev/wallet/state" },
  });
});

test("--key-id names the issued key id of the --public-key before it", () => {
  const dir = mkdtempSync(join(tmpdir(), "sandbox-cli-"));
  writeFileSync(join(dir, "a.pem"), "PEM A");
  writeFileSync(join(dir, "b.pem"), "PEM B");
  expect(
    parseCliArgs({
      argv: ["--public-key", "a.pem", "--key-id", "issued-a", "--public-key", "b.pem"],
      cwd: dir,
    }),
  ).toEqual({
    help: false,
    options: { port: 8787, publicKeys: [{ pem: "PEM A", keyId: "issued-a" }, "PEM B"] },
  });
});

test.each([[["--port"]], [["--port", "x"]], [["--quote-ttl", "0"]], [["--what"]], [["--key-id", "k"]]])(
  "refuses %j",
  (argv) => {
    expect(() => parseCliArgs({ argv })).toThrow();
  },
);

test("--database-url, --no-wait and --database-timeout; SANDBOX_DATABASE_URL is the default URL", () => {
  const url = "postgres://app:s3cret@db:5432/sandbox";
  expect(
    parseCliArgs({ argv: ["--database-url", url, "--no-wait", "--database-timeout", "5"], env: {} }),
  ).toEqual({
    help: false,
    options: { port: 8787, databaseUrl: url, waitForDatabaseLock: false, databaseStartTimeoutSecs: 5 },
  });
  expect(parseCliArgs({ argv: [`--database-url=${url}`], env: {} })).toEqual({
    help: false,
    options: { port: 8787, databaseUrl: url },
  });
  expect(parseCliArgs({ argv: [], env: { SANDBOX_DATABASE_URL: url } })).toEqual({
    help: false,
    options: { port: 8787, databaseUrl: url },
  });
  expect(() => parseCliArgs({ argv: ["--database-timeout", "0"], env: {} })).toThrow(
    "--database-timeout must be an integer >= 1",
  );
});

test("--lock-timeout: seconds to wait for another sandbox's lock, an integer >= 1", () => {
  expect(parseCliArgs({ argv: ["--lock-timeout", "30"], env: {} })).toEqual({
    help: false,
    options: { port: 8787, databaseLockTimeoutSecs: 30 },
  });
  for (const bad of ["0", "-1", "1.5", "soon"])
    expect(() => parseCliArgs({ argv: ["--lock-timeout", bad], env: {} })).toThrow(
      "--lock-timeout must be an integer >= 1",
    );
});

test("a mistyped flag with an inline value is named without its value (which may hold a password)", () => {
  expect(() => parseCliArgs({ argv: ["--database-urll=postgres://app:s3cret@db/sandbox"], env: {} })).toThrow(
    /^unknown argument --database-urll$/,
  );
});

test("a leading `--` (pnpm sandbox -- --port 0, the npm habit) only separates; a second one or a positional is refused", () => {
  expect(parseCliArgs({ argv: ["--", "--port", "0", "--dev"], env: {} })).toEqual({
    help: false,
    options: { port: 0, dev: true },
  });
  expect(() => parseCliArgs({ argv: ["--", "--"], env: {} })).toThrow(/^unknown argument --$/);
  expect(() => parseCliArgs({ argv: ["--dev", "8787"], env: {} })).toThrow(/^unknown argument 8787$/);
});
