/**
 * What a sandbox's reset goes back to: the data as the sandbox started serving it (the explorer's client
 * included). A store of one process (JSON files, memory) keeps it in the process's memory, captured at its start.
 * A store that processes share (PostgreSQL) keeps one for the whole fleet on its snapshot shelf, under a name no
 * snapshot can take: written by the fleet's first process as it starts and read by every process at each reset,
 * so that a worker started later, or restarted after a crash, goes back to the data the fleet started with, not
 * to what it found at its own start.
 */
import { randomUUID } from 'node:crypto';
import type { Dataset, Store } from '../store/types.js';
import { captureDataset, restoreDataset } from './restore.js';

/**
 * The shelf's name for the fleet's start data: `:` is outside a snapshot's names (letters, digits, `.`, `_`, `-`),
 * and the sandbox's list of snapshots leaves out the names that begin with it.
 */
export const BASELINE_NAME = ':start';

/**
 * The reset of a sandbox over `store`, its baseline taken now: kept on the store's shared shelf when `first` (the
 * only process, or a fleet's first worker), else read from it. A fleet whose first process kept none (a server of
 * an earlier version started it) resets to this process's own start data.
 */
export async function startBaseline(store: Store, first: boolean): Promise<() => Promise<void>> {
  const own: Dataset = await captureDataset(store);
  const shelf = store.snapshots;
  if (!shelf) return () => restoreDataset(store, own);
  // Kept in memory while the shelf's stamp says it is the fleet's still (a later first process replaces it): a
  // reset then reads the stamp alone, and the first process restores from the store's own rows, which it compares
  // by identity rather than by their JSON.
  let held: { stamp: string; data: Dataset } | undefined;
  if (first) {
    held = { stamp: `${new Date().toISOString()} ${randomUUID()}`, data: own };
    await shelf.put(BASELINE_NAME, own, held.stamp);
  }
  /** The fleet's baseline as the shelf holds it now; `undefined`: none. */
  const current = async (): Promise<Dataset | undefined> => {
    // A shelf that cannot tell the stamp alone gives the data each time.
    if (!shelf.takenOn) return shelf.get(BASELINE_NAME);
    const stamp = await shelf.takenOn(BASELINE_NAME);
    if (stamp === undefined) return undefined;
    if (stamp !== held?.stamp) {
      const data = await shelf.get(BASELINE_NAME);
      held = data && { stamp, data };
    }
    return held?.data;
  };
  return async () => restoreDataset(store, (await current()) ?? own);
}
