import { startSandbox } from "@swapintent/sandbox";

/** The sandbox in your own tests: the whole service plus local chains, on a free port, gone after close(). */
export async function withSandbox(run: (baseUrl: string) => Promise<void>) {
  const sandbox = await startSandbox({ port: 0, dev: true }); // dev: /sandbox/faucet, /chains, /clock, /faults
  try {
    await run(sandbox.url);
  } finally {
    await sandbox.close();
  }
}
