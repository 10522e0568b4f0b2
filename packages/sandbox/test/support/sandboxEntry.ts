/**
 * Test-only entry point: the sandbox CLI with the in-memory TEST DOUBLE legs injected (durability tests run it
 * as a child process). `TEST_LEG_DELIVER_DELAY_MS` holds each delivery open after it is booked, so a test can
 * SIGKILL the process between the leg's transfer and the database write.
 */
import { runCli } from "../../src/cli/runCli.js";
import { createTestLegFactory } from "./createTestLeg.js";

await runCli({
  argv: process.argv.slice(2),
  extra: {
    // The test doubles hold no funds another engine could miss (see the harness).
    enginesId: "test-double-legs",
    legs: createTestLegFactory({ deliverDelayMs: Number(process.env.TEST_LEG_DELIVER_DELAY_MS ?? "0") }),
    log: (message) => process.stderr.write(`${message}\n`),
  },
});
