/**
 * A whole data set taken from a store, and put back into it as one write: the store's own write path, so that a
 * JSON store makes it durable and a PostgreSQL store commits it in one transaction that moves the write counter,
 * which every process on the schema sees at its next request (the freshness rule of `Store.sync`). Only the
 * collections of data: the sandbox's fault rules and clock stay as they are through a reset or a restore.
 */
import { DATA_COLLECTIONS } from '../store/collections.js';
import type { Collections, DataCollectionName, Dataset, NewRow, Store } from '../store/types.js';

/** Every row of `store`, as committed (caught up with the other processes first, for a shared store). */
export async function captureDataset(store: Store): Promise<Dataset> {
  await store.sync?.();
  return Object.fromEntries(DATA_COLLECTIONS.map((name) => [name, [...store.all(name)]])) as unknown as Dataset;
}

/**
 * Makes `store` hold exactly `data`, in one write. Only what differs is written: a row still the same object
 * (a snapshot kept in memory holds the store's own rows, never changed in place) or of the same JSON is left as
 * it is, so that restoring costs what changed since, not the size of the data.
 */
export function restoreDataset(store: Store, data: Partial<Dataset>): Promise<void> {
  return store.write((tx) => {
    for (const name of DATA_COLLECTIONS) {
      const wanted = (data[name] ?? []) as Collections[DataCollectionName][];
      const ids = new Set(wanted.map((row) => row.id));
      for (const row of store.all(name)) if (!ids.has(row.id)) tx.delete(name, row.id);
      for (const row of wanted) {
        const current = store.get(name, row.id);
        if (current === row || (current && JSON.stringify(current) === JSON.stringify(row))) continue;
        // Deleted first: an insert replaces every field, where an update would keep those the snapshot lacks.
        tx.delete(name, row.id);
        tx.insert(name, row as NewRow<typeof name>);
      }
    }
  });
}
