import type { Store } from "../db/createStore.js";

/** Intents in flight whose funds are on other engines than this sandbox's, by engines. */
export type ForeignWork = Awaited<ReturnType<Store["listForeignWork"]>>;

/**
 * Read which intents in flight hold funds on other engines (another data dir's) and say so in the log, once per
 * engines: the resolver leaves them alone (it would run their steps on engines that never saw their deposit), and
 * only a sandbox started on their data dir finishes them. `GET /sandbox/status` shows the same list.
 *
 * @example
 * const foreign = await reportForeignWork({ store, enginesId, log: console.log });
 */
export async function reportForeignWork({
  store,
  enginesId,
  log,
}: {
  store: Store;
  enginesId: string;
  log: (message: string) => void;
}): Promise<ForeignWork> {
  const foreign = await store.listForeignWork();
  for (const { enginesId: theirs, intents } of foreign)
    log(
      `${intents} intent(s) in flight hold funds on other engines (${theirs ?? "unrecorded"}) than this sandbox's (${enginesId}): resolving them is paused here; start a sandbox on the data dir of those engines to finish them`,
    );
  return foreign;
}
