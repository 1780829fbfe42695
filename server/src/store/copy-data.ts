/**
 * Copies a store's data into another, whole: what `storefront-server migrate` does between a JSON data directory
 * and a PostgreSQL database, either way. Rows keep their ids, fields and order. The destination must hold no data
 * (unless `replace`), so that a copy never mixes two data sets; the source is opened as a server would open it
 * (locked, for a JSON directory: stop the server that has it open first). The sandbox's fault rules and clock are
 * not data and stay behind.
 */
import { existsSync } from 'node:fs';
import { DATA_COLLECTIONS } from './collections.js';
import { StoreError } from './errors.js';
import { createJsonStore } from './json/json-file.js';
import { createPostgresStore, isPostgresUrl, withoutPassword } from './postgres/postgres.js';
import type { DataCollectionName, Dataset, Store } from './types.js';

/** Where data lives: a JSON data file (`dir/db.json`) or a PostgreSQL URL. */
export type DataLocation = string;

/** What was copied: rows per collection. */
export type CopyReport = Record<DataCollectionName, number>;

function open(location: DataLocation, options: { initial?: () => Partial<Dataset>; reset?: boolean }) {
  return isPostgresUrl(location) ? createPostgresStore(location, options) : createJsonStore(location, options);
}

/**
 * Copies every row of `from` into `to`, which must hold no data yet; `replace` replaces whatever it holds.
 * Resolves with the rows copied per collection.
 */
export async function copyData(from: DataLocation, to: DataLocation, { replace = false } = {}): Promise<CopyReport> {
  if (from === to) throw new StoreError('The source and the destination are the same');
  if (!isPostgresUrl(from) && !existsSync(from)) throw new StoreError(`${from} does not exist: nothing to copy`);
  let source: Store | undefined;
  try {
    // Reading an empty source would create it: a mistyped --from must not pass for an empty data set.
    let missing = false;
    source = await open(from, {
      initial: () => {
        missing = true;
        return {};
      },
    });
    if (missing) throw new StoreError(`${withoutPassword(from)} holds no data to copy`);
    const data = Object.fromEntries(
      DATA_COLLECTIONS.map((name) => [name, [...source!.all(name)]]),
    ) as unknown as Dataset;
    const target = await open(to, { initial: () => data, reset: replace });
    try {
      if (!target.created) {
        throw new StoreError(
          `${withoutPassword(to)} already holds data: copy into an empty one, or replace it with --replace`,
        );
      }
    } finally {
      await target.close();
    }
    return Object.fromEntries(DATA_COLLECTIONS.map((name) => [name, data[name].length])) as CopyReport;
  } finally {
    await source?.close();
  }
}
