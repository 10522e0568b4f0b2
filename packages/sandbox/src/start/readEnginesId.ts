import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The file in a data dir that names its engines. */
export const ENGINES_ID_FILE = "engines-id";

/**
 * The identity of the engines a sandbox runs (anvil state, the Bitcoin UTXO ledger, litesvm snapshots): with a data
 * dir, the id kept in `<dataDir>/engines-id`, drawn on the dir's first start, so every sandbox started on that dir
 * (a restart, a takeover on the same dir, a copy of it) has the same engines; without one, a new id each start (the
 * engines live in memory and die with the process). Each intent records the id it was created under, and a sandbox
 * resolves only the intents whose funds are on its own engines.
 *
 * @example
 * const enginesId = readEnginesId({ dataDir: ".sandbox-data" }); // "data-dir:3f0c…", the same on every start
 */
export function readEnginesId({ dataDir }: { dataDir: string | undefined }): string {
  if (dataDir === undefined) return `memory:${randomUUID()}`;
  const file = join(dataDir, ENGINES_ID_FILE);
  const stored = readStored(file);
  if (stored !== undefined) return stored;
  mkdirSync(dataDir, { recursive: true });
  const id = `data-dir:${randomUUID()}`;
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${id}\n`);
  renameSync(tmp, file);
  return id;
}

/** The id in `file`, or undefined when there is none yet (an empty or garbled file is an error: never replaced). */
function readStored(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const id = text.trim();
  if (!/^data-dir:[0-9a-f-]{36}$/.test(id))
    throw new Error(`${file} does not name the data dir's engines (${JSON.stringify(id.slice(0, 60))})`);
  return id;
}
