import { runCli } from "./cli/runCli.js";

await runCli({ argv: process.argv.slice(2) }).catch((error: unknown) => {
  process.stderr.write(
    `sandbox failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
