/**
 * The JSON-file store: the memory engine plus persistence of the collections a write touched.
 *
 * Layout on disk, for `path` = `dir/db.json`:
 * - `dir/db.json`, the manifest: `{"format":"storefront-data","version":1,"collections":{"users":"db.users.json",…}}`,
 *   written when the data is created (and when a collection is added); never by ordinary writes.
 * - `dir/db.<collection>.json`, one lowdb `JSONFile` per collection holding its rows as a JSON array;
 * - except `dir/db.files/`, the asset bytes: one `JSONFile` per row, so that an upload writes only itself.
 *
 * A write rewrites only the files of the collections (or, for asset bytes, the rows) it changed, so a
 * token write never touches the 100 000 products. Each file is replaced atomically (temp file + rename,
 * through lowdb's steno writer) and the write is acknowledged once all of its files are written; a write
 * that fails on disk is not applied in memory and rejects. The manifest is written last when the data is
 * created, so an interrupted creation is redone on the next start rather than half-loaded. A manifest or
 * collection file that is unreadable or malformed fails the start with a {@link StoreFileError}: nothing
 * is ever reseeded over existing data unless `reset` is asked for. One process owns the files at a time.
 * Files are replaced one by one, not together: a crash in the middle of a write that spans collections
 * (an authorization code marked used + its token) can leave one file written and not the other.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { COLLECTIONS } from './collections.js';
import { createStoreEngine } from './engine.js';
import { StoreFileError } from './errors.js';
import { ArrayFile, type CollectionFiles, RowFiles } from './json-collections.js';
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
/** Collections stored one file per row. */
const ROW_FILES: ReadonlySet<CollectionName> = new Set(['files']);

interface Manifest {
  format: typeof FORMAT;
  version: number;
  collections: Partial<Record<CollectionName, string>>;
}

/** Opens the store at `path`, creating it from `options.initial` when it does not exist. */
export async function createJsonStore(path: string, options: JsonStoreOptions = {}): Promise<JsonStore> {
  const dir = dirname(path);
  const stem = basename(path).replace(/\.json$/i, '');
  const manifest = options.reset ? null : await readManifest(path);
  const created = manifest === null;

  const names = Object.fromEntries(
    COLLECTIONS.map((name) => [
      name,
      manifest?.collections[name] ?? (ROW_FILES.has(name) ? `${stem}.${name}` : `${stem}.${name}.json`),
    ]),
  ) as Record<CollectionName, string>;
  const files = Object.fromEntries(
    COLLECTIONS.map((name) => {
      const where = join(dir, names[name]);
      const kind: CollectionFiles = ROW_FILES.has(name) ? new RowFiles(name, where) : new ArrayFile(name, where);
      return [name, kind];
    }),
  ) as Record<CollectionName, CollectionFiles>;

  let data: Partial<Dataset>;
  if (created) {
    data = options.initial?.() ?? {};
    await mkdir(dir, { recursive: true });
    await Promise.all(COLLECTIONS.map((name) => files[name].create(data[name] ?? [])));
    await writeManifest(path, names);
  } else {
    data = await readCollections(files, names, dir, manifest);
    // Collections this version knows and the manifest does not (data made by an older version) start empty.
    const added = COLLECTIONS.filter((name) => !manifest.collections[name]);
    if (added.length) {
      await Promise.all(added.map((name) => files[name].create([])));
      await writeManifest(path, names);
    }
  }

  let store: Store;
  try {
    store = createStoreEngine(data, {
      persist: async (write) => {
        await Promise.all(write.changed.map((name) => files[name].persist(write)));
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
    if (typeof file !== 'string' || !/^[\w.-]+$/.test(file) || /^\.+$/.test(file)) {
      throw new StoreFileError(path, `collection "${name}" has an invalid file name`);
    }
  }
  return manifest as Manifest;
}

async function readCollections(
  files: Record<CollectionName, CollectionFiles>,
  names: Record<CollectionName, string>,
  dir: string,
  manifest: Manifest,
): Promise<Partial<Dataset>> {
  const listed = COLLECTIONS.filter((name) => manifest.collections[name]);
  const entries = await Promise.all(
    listed.map(async (name) => {
      const rows = await files[name].load();
      if (rows === null) throw new StoreFileError(join(dir, names[name]), 'is missing, though the manifest lists it');
      return [name, rows] as const;
    }),
  );
  return Object.fromEntries(entries) as Partial<Dataset>;
}

async function writeManifest(path: string, names: Record<CollectionName, string>): Promise<void> {
  const file = new Low<Manifest | null>(new JSONFile(path), null);
  file.data = { format: FORMAT, version: VERSION, collections: names };
  try {
    await file.write();
  } catch (error) {
    throw new StoreFileError(path, `cannot write (${(error as Error).message})`, { cause: error });
  }
}
