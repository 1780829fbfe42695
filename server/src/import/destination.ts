/**
 * Where an import writes, through the stores' own creation path (`initial`): a JSON data directory, written
 * whole in the staging directory beside it and put in place by a rename, or a PostgreSQL schema, written in one
 * transaction. Either way a failed or killed import leaves the destination as it was.
 */
import { existsSync } from 'node:fs';
import { readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { DATA_FILE_NAME, dataFilePath } from '../data-path.js';
import { DATA_COLLECTIONS } from '../store/collections.js';
import { StoreError } from '../store/errors.js';
import { createJsonStore } from '../store/json/json-file.js';
import { isPostgresUrl, withoutPassword } from '../store/postgres/postgres-url.js';
import type { Dataset, Store } from '../store/types.js';

/** An import's destination. */
export interface Destination {
  /** What messages name: the directory, or the database without its password and the schema. */
  readonly location: string;
  /** The staging directory of the import: its resume state (and, for a directory, the data before the rename). */
  readonly staging: string;
  /** The data it holds now; `undefined`: none. */
  read(): Promise<Dataset | undefined>;
  /** Replaces whatever it holds with `data`. */
  write(data: Dataset): Promise<void>;
}

function datasetOf(store: Store): Dataset | undefined {
  const data = Object.fromEntries(DATA_COLLECTIONS.map((name) => [name, [...store.all(name)]])) as unknown as Dataset;
  return DATA_COLLECTIONS.some((name) => data[name].length > 0) ? data : undefined;
}

/**
 * The data file an import into `to` writes: as `--data` reads `to` (a directory, or the data file itself), so that
 * `--data` serves what `--to` wrote. A path that does not exist yet is a directory to make, unless it names a
 * `.json` file (`--to ./shop/db.json`), which `--data` would read as the file.
 */
export function importDataFile(to: string): string {
  return /\.json$/i.test(to) || existsSync(to) ? dataFilePath(to) : join(resolve(to), DATA_FILE_NAME);
}

/** A JSON data directory (or its `db.json`), `staging` beside it (`DIR.partial`) unless given. */
function jsonDestination(to: string, staging?: string): Destination {
  const file = importDataFile(to);
  const dir = dirname(file);
  const stage = staging ?? `${dir}.partial`;
  const built = join(stage, 'data');
  const previous = join(stage, 'previous');
  return {
    location: dir,
    staging: stage,
    async read() {
      // A rename interrupted between its two steps: the data set it was replacing goes back.
      if (!existsSync(dir) && existsSync(previous)) await rename(previous, dir);
      const entries = await readdir(dir).catch(() => [] as string[]);
      if (!existsSync(file)) {
        if (entries.length > 0) {
          throw new StoreError(`${dir} holds files but no ${basename(file)}: not a data directory, left as it is`);
        }
        return undefined;
      }
      // The directory is replaced whole at the end: it must hold the data's files only.
      const stem = basename(file).replace(/\.json$/i, '');
      const foreign = entries.filter((name) => !name.startsWith(`${stem}.`) && !name.startsWith(`.${stem}.`));
      if (foreign.length > 0) {
        throw new StoreError(
          `${dir} holds other files than the data (${foreign.slice(0, 3).join(', ')}): import into a directory of its own`,
        );
      }
      // Opened as a server opens it: a server that has it open holds its lock, and this fails saying so.
      const store = await createJsonStore(file, { initial: () => ({}) });
      try {
        return datasetOf(store);
      } finally {
        await store.close();
      }
    },
    async write(data) {
      await rm(built, { recursive: true, force: true });
      const store = await createJsonStore(join(built, basename(file)), { initial: () => data, reset: true });
      await store.close();
      await rm(previous, { recursive: true, force: true });
      if (existsSync(dir)) await rename(dir, previous);
      await rename(built, dir);
      await rm(previous, { recursive: true, force: true });
    },
  };
}

/** A PostgreSQL schema; the staging directory in the working directory, named after the schema, unless given. */
async function postgresDestination(url: string, staging?: string): Promise<Destination> {
  const { createPostgresStore, hasSchema } = await import('../store/postgres/postgres.js');
  const schema = new URL(url).searchParams.get('schema') ?? 'storefront';
  const open = (options: Parameters<typeof createPostgresStore>[1]) =>
    createPostgresStore(url, { connections: 2, warn: () => undefined, ...options });
  return {
    location: `${withoutPassword(url)}`,
    staging: staging ?? resolve(`storefront-import-${schema}.partial`),
    async read() {
      // Opening a store makes its tables: a schema that does not exist holds no data, and stays absent until written.
      if (!(await hasSchema(url))) return undefined;
      const store = await open({});
      try {
        return datasetOf(store);
      } finally {
        await store.close();
      }
    },
    async write(data) {
      // One transaction (the store's creation): the schema holds the old data set or the new one.
      const store = await open({ initial: () => data, reset: true });
      await store.close();
    },
  };
}

/** The destination `to`: a PostgreSQL URL, or a JSON data directory. */
export function destinationOf(to: string, staging?: string): Promise<Destination> | Destination {
  return isPostgresUrl(to) ? postgresDestination(to, staging) : jsonDestination(to, staging);
}
