/**
 * Snapshots kept in the memory of one process: the MSW mock's, and a server's whose store no other process shares
 * (a JSON data directory is one process's). They last as long as the mock or the server.
 */
import type { Dataset, SnapshotInfo, SnapshotShelf } from '../store/types.js';

/** An empty shelf in memory. Its data sets hold the store's own rows, which nobody changes in place. */
export function memoryShelf(): SnapshotShelf {
  const kept = new Map<string, { data: Dataset; info: SnapshotInfo }>();
  return {
    async put(name, data, takenOn) {
      kept.set(name, { data, info: { name, taken_on: takenOn } });
    },
    async get(name) {
      return kept.get(name)?.data;
    },
    async takenOn(name) {
      return kept.get(name)?.info.taken_on;
    },
    async list() {
      return [...kept.values()].map(({ info }) => info).sort((a, b) => (a.name < b.name ? -1 : 1));
    },
    async delete(name) {
      return kept.delete(name);
    },
  };
}
