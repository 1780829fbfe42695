/**
 * The JSON-file store: the memory engine plus persistence of the collections a write touched.
 *
 * Layout on disk, for `path` = `dir/db.json`:
 * - `dir/db.json`, the manifest: `{"format":"storefront-data","version":1,"collections":{"users":"db.users.json",…}}`,
 *   written when the data is created and whenever a collection file is added; never on ordinary writes.
 * - `dir/db.<collection>.json`, one lowdb `JSONFile` per collection holding its rows as a JSON array.
 *
 * A write rewrites only the files of the collections it changed (a token write never touches the
 * 100 000 products), each atomically (temp file + rename, through lowdb's steno writer), and is
 * acknowledged once every one of those files has been written. The manifest is written last when the
 * data is created, so an interrupted creation is redone on the next start rather than half-loaded.
 * A manifest or collection file that is unreadable or malformed fails the start with a
 * {@link StoreFileError}; nothing is ever reseeded over existing data unless `reset` is asked for.
 * One process owns the files at a time.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { COLLECTIONS } from './collections.js';
import { createStoreEngine } from './engine.js';
import { StoreFileError } from './errors.js';
import type { CollectionName, Dataset, Store } from './types.js';

/** Options of {@link createJsonStore}. */
export interface JsonStoreOptions {
  /** The data to create the store with when `path` does not exist yet (or on `reset`). Default: empty. */
  initial?: () => Partial<Dataset>;
  /** Replace whatever `path` holds with `initial()`. */
  reset?: boolean;
}

/** A store backed by JSON files. */
export interface JsonStore extends Store {
  /** Whether this start created the data (the file was missing, or `reset` was asked for) from `initial`. */
  readonly created: boolean;
  /** The manifest's path. */
  readonly path: string;
}

const FORMAT = 'storefront-data';
const VERSION = 1;

interface Manifest {
  format: typeof FORMAT;
  version: number;
  collections: Partial<Record<CollectionName, string>>;
}

/** `null` until read: a file that does not exist reads as `null`, which tells it apart from an empty collection. */
type Files = Record<CollectionName, Low<unknown[] | null>>;

/** Opens the store at `path`, creating it from `options.initial` when it does not exist. */
export async function createJsonStore(path: string, options: JsonStoreOptions = {}): Promise<JsonStore> {
  const dir = dirname(path);
  const stem = basename(path).replace(/\.json$/i, '');
  const manifestFile = new Low<Manifest | null>(new JSONFile(path), null);
  const manifest = options.reset ? null : await readManifest(path);
  const created = manifest === null;

  const names = Object.fromEntries(
    COLLECTIONS.map((name) => [name, manifest?.collections[name] ?? `${stem}.${name}.json`]),
  ) as Record<CollectionName, string>;
  const files = Object.fromEntries(
    COLLECTIONS.map((name) => [name, new Low<unknown[] | null>(new JSONFile(join(dir, names[name])), null)]),
  ) as Files;

  let data: Partial<Dataset>;
  if (created) {
    data = options.initial?.() ?? {};
    await mkdir(dir, { recursive: true });
    await Promise.all(COLLECTIONS.map((name) => save(files[name], data[name] ?? [], join(dir, names[name]))));
    await writeManifest(manifestFile, names, path);
  } else {
    data = await readCollections(files, names, dir, manifest);
    // A collection this version knows and the file's manifest does not (data made by an older version).
    if (COLLECTIONS.some((name) => !manifest.collections[name])) {
      await Promise.all(
        COLLECTIONS.filter((name) => !manifest.collections[name]).map((name) =>
          save(files[name], [], join(dir, names[name])),
        ),
      );
      await writeManifest(manifestFile, names, path);
    }
  }

  let store: Store;
  try {
    store = createStoreEngine(data, {
      persist: async (changed, rows) => {
        await Promise.all(changed.map((name) => save(files[name], rows(name), join(dir, names[name]))));
      },
    });
  } catch (error) {
    throw new StoreFileError(path, `cannot load the data: ${(error as Error).message}`, { cause: error });
  }
  return Object.assign(store, { created, path });
}

async function readManifest(path: string): Promise<Manifest | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new StoreFileError(path, `cannot read the data file (${(error as Error).message})`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new StoreFileError(
      path,
      `not valid JSON (${(error as Error).message}); fix or remove it, or start with reset`,
      {
        cause: error,
      },
    );
  }
  const manifest = value as Partial<Manifest> | null;
  if (manifest?.format !== FORMAT || typeof manifest.collections !== 'object' || manifest.collections === null) {
    throw new StoreFileError(path, `not a ${FORMAT} manifest; refusing to overwrite it (use another path, or reset)`);
  }
  if (manifest.version !== VERSION) {
    throw new StoreFileError(path, `data format version ${manifest.version} is not supported (expected ${VERSION})`);
  }
  for (const [name, file] of Object.entries(manifest.collections)) {
    // The manifest names files next to it only: no path separators, so it cannot point elsewhere.
    if (typeof file !== 'string' || !/^[\w.-]+\.json$/.test(file)) {
      throw new StoreFileError(path, `collection "${name}" has an invalid file name`);
    }
  }
  return manifest as Manifest;
}

async function readCollections(
  files: Files,
  names: Record<CollectionName, string>,
  dir: string,
  manifest: Manifest,
): Promise<Partial<Dataset>> {
  const entries = await Promise.all(
    COLLECTIONS.filter((name) => manifest.collections[name]).map(async (name) => {
      const file = join(dir, names[name]);
      try {
        await files[name].read();
      } catch (error) {
        const reason = error instanceof SyntaxError ? 'not valid JSON' : 'cannot be read';
        throw new StoreFileError(file, `${reason} (${(error as Error).message})`, { cause: error });
      }
      const rows = files[name].data;
      if (rows === null) throw new StoreFileError(file, 'is missing, though the manifest lists it');
      if (!Array.isArray(rows)) throw new StoreFileError(file, 'expected a JSON array of rows');
      for (const row of rows) {
        if (typeof row !== 'object' || row === null || typeof (row as { id?: unknown }).id !== 'string') {
          throw new StoreFileError(file, 'every row must be an object with a string "id"');
        }
      }
      return [name, rows] as const;
    }),
  );
  return Object.fromEntries(entries) as Partial<Dataset>;
}

async function save(file: Low<unknown[] | null>, rows: readonly unknown[], path: string): Promise<void> {
  file.data = rows as unknown[];
  try {
    await file.write();
  } catch (error) {
    throw new StoreFileError(path, `cannot write (${(error as Error).message})`, { cause: error });
  }
}

async function writeManifest(file: Low<Manifest | null>, names: Record<CollectionName, string>, path: string) {
  file.data = { format: FORMAT, version: VERSION, collections: names };
  try {
    await file.write();
  } catch (error) {
    throw new StoreFileError(path, `cannot write (${(error as Error).message})`, { cause: error });
  }
}
