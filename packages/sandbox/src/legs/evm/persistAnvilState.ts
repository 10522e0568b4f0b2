import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import type { Hex } from "viem";

/**
 * Write anvil's whole state (accounts, code, storage, blocks, transactions) to `file` atomically:
 * `anvil_dumpState` (gzipped JSON) is unpacked, written to a temporary file, fsynced and renamed, so the
 * file is always a complete state that `anvil --load-state` accepts, even after a SIGKILL mid-write.
 */
export async function persistAnvilState(request: {
  /** anvil's `anvil_dumpState`: the gzipped state as 0x hex. */
  dumpState: () => Promise<Hex>;
  file: string;
}): Promise<void> {
  const dump = await request.dumpState();
  const json = gunzipSync(Buffer.from(dump.slice(2), "hex"));
  const tmp = `${request.file}.tmp`;
  const fd = openSync(tmp, "w");
  try {
    writeSync(fd, json);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, request.file);
}

/** The block height recorded in a state file, or -1 when it is missing or not a complete state. */
export function readStateHeight(file: string): number {
  try {
    const state = JSON.parse(readFileSync(file, "utf8")) as {
      best_block_number?: number | string;
      block?: { number?: string };
    };
    const height = state.best_block_number ?? state.block?.number;
    return height === undefined ? -1 : Number(height);
  } catch {
    return -1;
  }
}
