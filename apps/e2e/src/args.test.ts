import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseDemoArgs, usage } from "./args.js";

const repo = fileURLToPath(new URL("../../..", import.meta.url));
const readme = readFileSync(join(repo, "README.md"), "utf8");
const demoSection = readme.slice(
  readme.indexOf("## The demo"),
  readme.indexOf("\n## ", readme.indexOf("## The demo") + 1),
);

/** Every non-test `.ts` file under `dir`, concatenated. */
function sources(dir: string): string {
  return readdirSync(join(repo, dir), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
    .map((file) => readFileSync(join(repo, dir, file), "utf8"))
    .join("\n");
}

const flagsOf = (text: string) => new Set([...text.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]));
const envOf = (text: string) => new Set([...text.matchAll(/\bSWAPINTENT_[A-Z_]+\b/g)].map((m) => m[0]));

describe("parseDemoArgs", () => {
  it("takes the options after a leading `--` (pnpm demo -- --json, the npm habit) as options", () => {
    expect(parseDemoArgs(["--", "--json", "--from", "tron:USDT", "--to", "bitcoin:BTC"])).toMatchObject({
      json: true,
      from: "tron:USDT",
      to: "bitcoin:BTC",
    });
  });

  it.each([
    [["--bogus"], /Unknown option '--bogus'/],
    [["--json", "extra"], /Unexpected argument 'extra'/],
    [["--", "--", "--json"], /Unexpected argument '--json'/],
    [["--from", "ethereum:USDC"], /--from and --to go together/],
    [["--amount", "1e3"], /--amount must be a positive decimal number/],
    [["--slippage", "10001"], /--slippage must be an integer from 0 to 10000/],
    [["--base-url", "localhost:8787"], /--base-url is not an http\(s\) URL/],
    [["--base-url", "not a url"], /--base-url is not an http\(s\) URL/],
    [
      ["--base-url", "http://127.0.0.1:8787/affiliate/v1"],
      /--base-url is the service's root, without \/affiliate\/v1: use http:\/\/127\.0\.0\.1:8787$/,
    ],
    [
      ["--base-url", "https://swap.example/api/affiliate/v1/"],
      /without \/affiliate\/v1: use https:\/\/swap\.example\/api$/,
    ],
  ])("refuses %j with a message naming it", (argv, message) => {
    expect(() => parseDemoArgs(argv)).toThrow(message);
  });

  it("accepts every option its usage lists", () => {
    for (const line of usage.split("\n").filter((l) => /^\s+(-h, )?--/.test(l))) {
      const [, flag, value] = /(--[a-z-]+)(?: <([^>]+)>)?/.exec(line)!;
      const sample = {
        "network:token": "ethereum:USDC",
        decimal: "1.5",
        bps: "100",
        url: "http://127.0.0.1:8787",
      };
      const argv = value ? [flag!, sample[value as keyof typeof sample]] : [flag!];
      if (flag === "--from") argv.push("--to", "l2:USDC");
      if (flag === "--to") argv.push("--from", "l2:USDC");
      expect(() => parseDemoArgs(argv), flag).not.toThrow();
    }
  });
});

describe("the demo's usage text and the README's demo section agree with the code", () => {
  it("every option the README's demo section names is in the usage text, and the reverse", () => {
    const options = flagsOf(usage.slice(usage.indexOf("Options:"), usage.indexOf("Environment:")));
    // Both name the sandbox's own --dev where they say how to start one for --base-url.
    const readmeOptions = flagsOf(demoSection);
    readmeOptions.delete("--dev");
    options.delete("--dev");
    expect(readmeOptions).toEqual(options);
  });

  it("every environment variable the demo reads is in the usage text and the README, and nothing else is", () => {
    // The demo's own code, and the one variable of the sandbox it embeds that a partner may need (the cache folder).
    const read = envOf(sources("apps/e2e/src"));
    read.add("SWAPINTENT_CACHE_DIR");
    expect(sources("packages/sandbox/src")).toContain("process.env.SWAPINTENT_CACHE_DIR");
    expect(envOf(usage)).toEqual(read);
    expect(envOf(demoSection)).toEqual(read);
  });
});
