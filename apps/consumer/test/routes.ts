import { writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { startSandbox } from "@swapintent/sandbox";
import { build, type Plugin } from "esbuild";
import { cleanEnv, exec, repoDir } from "./project.js";

/**
 * esbuild plugin: every bare import stays external (resolved at run time from the consumer project's node_modules),
 * except the workspace's private demo support (`@swapintent/testing`), which is never published and so is bundled.
 */
const externalExceptDemoSupport: Plugin = {
  name: "external-except-demo-support",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("@swapintent/testing/") ? undefined : { path: args.path, external: true },
    );
  },
};

/** What every route run must end with: one route per approval mechanism, each Fulfilled. */
export const ROUTES_FULFILLED = [
  ["EVM -> Solana", "permit2", "Fulfilled", true],
  ["Bitcoin -> EVM", "htlc", "Fulfilled", true],
  ["Solana -> Tron", "cosign", "Fulfilled", true],
];

/** What {@link runRoutes} saw: the bundle's inputs and bare imports, where each package resolved, each route's end. */
export interface RoutesRun {
  inputs: string[];
  imported: string[];
  resolved: Record<string, string>;
  results: { route: string; ok: boolean; finalStatus: string; approvalMechanism: string | null }[];
}

/**
 * The demo's own code (apps/e2e/src, plus the private demo support it shares with apps/browser, which is never
 * published), bundled into `runDir` with every other package left as a bare import, then run by a child `node` in
 * `runDir` against a sandbox started here: at run time each published @swapintent/* and chain library comes from
 * the project's node_modules around `runDir`, nothing from the workspace.
 */
export async function runRoutes(runDir: string): Promise<RoutesRun> {
  const bundle = await build({
    entryPoints: [join(repoDir, "apps", "e2e", "src", "runDemo.ts")],
    outfile: join(runDir, "demo.mjs"),
    bundle: true,
    conditions: ["swapintent-source"],
    plugins: [externalExceptDemoSupport],
    platform: "node",
    format: "esm",
    target: "node20",
    metafile: true,
    absWorkingDir: repoDir,
    logLevel: "silent",
  });
  const inputs = Object.keys(bundle.metafile.inputs);
  const imported = (bundle.metafile.outputs[relative(repoDir, join(runDir, "demo.mjs"))]?.imports ?? []).map(
    (i) => i.path,
  );
  await writeFile(
    join(runDir, "routes.mjs"),
    `import { runDemo, TOUR } from "./demo.mjs";
const wanted = ["EVM -> Solana", "Bitcoin -> EVM", "Solana -> Tron"];
const routes = TOUR.filter((r) => wanted.includes(r.name));
if (routes.length !== wanted.length) throw new Error("the tour has no route named " + wanted.join(", "));
const resolved = Object.fromEntries(
  ["@swapintent/client", "@swapintent/permit2/evm", "@swapintent/bitcoin", "@swapintent/solana"].map((n) => [n, import.meta.resolve(n)]),
);
const result = await runDemo({ baseUrl: process.argv[2], routes, json: true, out: () => {}, timeoutMs: 120000 });
console.log(JSON.stringify({ resolved, results: result.results }));
`,
  );
  const sandbox = await startSandbox({ port: 0, dev: true, resolverIntervalMs: 100, log: () => {} });
  try {
    const { stdout } = await exec("node", ["routes.mjs", sandbox.url], { cwd: runDir, env: cleanEnv() });
    const { resolved, results } = JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as Omit<
      RoutesRun,
      "inputs" | "imported"
    >;
    return { inputs, imported, resolved, results };
  } finally {
    await sandbox.close();
  }
}
