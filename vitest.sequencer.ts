import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Seconds each long test file took in a full `pnpm test` on a 2-core machine (CI, fresh clone), rounded. Only an
 * order hint for a run with no results of its own yet (a fresh clone): a file that got faster or slower only starts
 * a little early or late. Refresh it from a JSON report (`pnpm test --reporter=json --outputFile=r.json`) when the
 * long files change.
 */
const KNOWN_SECONDS: Record<string, number> = {
  "apps/consumer/test/consumer.test.ts": 51,
  "apps/consumer/test/consumerTypes.test.ts": 176,
  "apps/consumer/test/lowestPeers.test.ts": 33,
  "apps/consumer/test/packGuard.test.ts": 10,
  "apps/e2e/test/demoCli.test.ts": 46,
  "apps/e2e/test/examples-permit2-wallets.test.ts": 10,
  "apps/e2e/test/demo.test.ts": 10,
  "apps/docs/test/codeBlocks.test.ts": 21,
  "apps/docs/test/site.test.ts": 13,
  "apps/docs/test/guideFlows.test.ts": 11,
  "apps/browser/test/injected.bitcoin.test.ts": 7,
  "apps/browser/test/injected.permit2.test.ts": 7,
  "apps/browser/test/injected.smartAccount.test.ts": 5,
  "packages/sandbox/test/resolver-fairness.test.ts": 38,
  "packages/sandbox/test/cli-launcher.test.ts": 38,
  "packages/sandbox/test/engine-durability.test.ts": 33,
  "packages/sandbox/test/quote-pruning.test.ts": 28,
  "packages/sandbox/test/resolver-writes.test.ts": 27,
  "packages/sandbox/test/resolver-retries.test.ts": 19,
  "packages/sandbox/test/frozen-engine-close.test.ts": 19,
  "packages/sandbox/test/lifecycle.test.ts": 19,
  "packages/sandbox/test/postgres.test.ts": 17,
  "packages/sandbox/src/legs/evm/startSavingRpcProxy.test.ts": 16,
  "packages/sandbox/test/durability.test.ts": 16,
  "packages/sandbox/test/slow-clients.test.ts": 15,
  "packages/sandbox/test/flow-bitcoin-durability.test.ts": 15,
  "packages/sandbox/test/postgres-lock.test.ts": 11,
  "packages/client/src/client/responseCost.test.ts": 10,
  "packages/sandbox/test/partners.test.ts": 9,
  "packages/sandbox/test/resolver-abuse.test.ts": 8,
  "packages/sandbox/test/errors.test.ts": 7,
  "packages/sandbox/test/flow-solana-restart.test.ts": 7,
  "packages/sandbox/src/db/createStore.test.ts": 7,
  "packages/sandbox/test/data-dir-lock.test.ts": 6,
  "packages/sandbox/test/backend-differential.test.ts": 6,
};

/**
 * A type-test file: its project's whole `tsc` run (vitest runs one per project, and each file of the project waits
 * for it), so it starts with the long files.
 */
const TYPECHECK_SECONDS = 20;
/** A file of an integration folder (`test/`: sandboxes, child processes, installs) with no result yet. */
const INTEGRATION_SECONDS = 3;
/** A unit test file with no result yet. */
const UNIT_SECONDS = 1;
/** From this weight on a file is scheduled on its own weight alone, across projects. */
const LONG_SECONDS = 2;

/**
 * Longest first, over every project at once. Vitest's own order runs the projects one after another (by name),
 * each project's files by last duration; with several projects in one pool the long files of the last projects
 * (the sandbox's integration tests) then started minutes into the run and ended it alone on one core, while at the
 * start the workers took tiny unit files. Here each file is weighed by its duration in this machine's last run
 * (vitest's results cache), else by {@link KNOWN_SECONDS}, else by its kind, and the pool takes the heaviest first
 * (longest-processing-time scheduling): the short files fill the gaps at the end, project by project.
 */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const weight = new Map<TestSpecification, number>();
    for (const spec of files) {
      const path = relativePath(root, spec.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
      weight.set(
        spec,
        cached && cached.duration > 0
          ? cached.duration / 1000
          : (KNOWN_SECONDS[path] ??
              (spec.pool === "typescript"
                ? TYPECHECK_SECONDS
                : /(^|\/)test\//.test(path)
                  ? INTEGRATION_SECONDS
                  : UNIT_SECONDS)),
      );
    }
    // The short files after the long ones, one project after another: a worker of a project that shares workers
    // between files (`isolate: false`) is kept only when the next file in line is of the same project.
    const projectWeight = new Map<string, number>();
    for (const [spec, w] of weight)
      if (w < LONG_SECONDS)
        projectWeight.set(spec.project.name, (projectWeight.get(spec.project.name) ?? 0) + w);
    const key = (spec: TestSpecification) => {
      const w = weight.get(spec) ?? 0;
      return w >= LONG_SECONDS
        ? [Number.POSITIVE_INFINITY, w]
        : [projectWeight.get(spec.project.name) ?? 0, w];
    };
    return [...files].sort((a, b) => {
      const [groupA = 0, weightA = 0] = key(a);
      const [groupB = 0, weightB = 0] = key(b);
      if (groupA !== groupB) return groupB - groupA;
      if (groupA !== Number.POSITIVE_INFINITY && a.project.name !== b.project.name)
        return a.project.name < b.project.name ? -1 : 1;
      return weightB - weightA;
    });
  }
}

function relativePath(root: string, file: string): string {
  const prefix = root.endsWith("/") ? root : `${root}/`;
  return file.startsWith(prefix) ? file.slice(prefix.length) : file;
}
