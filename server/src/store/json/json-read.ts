/**
 * Reading the collections of a JSON data directory: by the store as it opens the data (`json-file.ts`), and
 * without opening it, by {@link readJsonData}, which takes no lock and changes no file.
 */
import { basename, dirname, join } from 'node:path';
import { COLLECTIONS } from '../collections.js';
import { StoreFileError } from '../errors.js';
import type { CollectionName, StoredData } from '../types.js';
import { lockHolder } from './data-lock.js';
import type { CollectionFiles, LoadOptions } from './json-collections.js';
import { readJournal, replayOnto } from './json-journal.js';
import { type CollectionPlace, layoutOf, openCollection } from './json-layout.js';
import { type Manifest, readManifest } from './json-manifest.js';
import { StoreLockedError } from './store-locked-error.js';

/** The manifest's name without `.json`: the prefix of every file of the data. */
export function stemOf(path: string): string {
  return basename(path).replace(/\.json$/i, '');
}

/** The files the manifest lists, in its format's layouts. */
export function storedFiles(
  manifest: Manifest,
  dir: string,
  stem: string,
  place: (name: CollectionName, at: CollectionPlace) => CollectionFiles,
): Partial<Record<CollectionName, CollectionFiles>> {
  const stored: Partial<Record<CollectionName, CollectionFiles>> = {};
  for (const name of COLLECTIONS) {
    const entry = manifest.collections[name];
    if (entry === undefined) continue;
    const layout = layoutOf(manifest.version, name);
    stored[name] = place(name, { dir, stem, layout, entry, count: manifest.shards?.[name] ?? 1 });
  }
  return stored;
}

/** The rows of every collection of `stored`; a collection whose files are missing is a {@link StoreFileError}. */
export async function readCollections(
  stored: Partial<Record<CollectionName, CollectionFiles>>,
  dir: string,
  options?: LoadOptions,
): Promise<Partial<StoredData>> {
  const entries = await Promise.all(
    Object.entries(stored).map(async ([name, files]) => {
      const rows = await files.load(options);
      if (rows === null) throw new StoreFileError(join(dir, files.entry), 'is missing, though the manifest lists it');
      return [name, rows] as const;
    }),
  );
  return Object.fromEntries(entries) as Partial<StoredData>;
}

/** Reading never moves a collection's shards: nothing is written. */
const noMove = () => Promise.reject(new Error('data read without opening it is not written'));

/** Rejects when a live process has the data open: its writes could land between two of our reads. */
async function refuseIfOpen(lock: string): Promise<void> {
  const holder = await lockHolder(lock);
  if (holder) throw new StoreLockedError(lock, holder);
}

/**
 * The rows of the JSON data whose manifest is `path` (`dir/db.json`), in any data format version the store reads,
 * as the store would load them when opening it (a write that a crash interrupted is completed, in memory), read
 * without opening it: no lock is taken and no file is created, changed or deleted. Rejects with a
 * {@link StoreLockedError} while a live process has the data open (a server), and with a {@link StoreFileError}
 * when there is no manifest at `path` or a file is unreadable or malformed.
 */
export async function readJsonData(path: string): Promise<Partial<StoredData>> {
  const dir = dirname(path);
  const stem = stemOf(path);
  const lock = join(dir, `${stem}.lock`);
  await refuseIfOpen(lock);
  const manifest = await readManifest(path, true);
  if (manifest === null) throw new StoreFileError(path, 'does not exist: there is no data here to read');
  const stored = storedFiles(manifest, dir, stem, (name, at) => openCollection(name, at, { sync: false }, noMove));
  const data = await readCollections(stored, dir, { readOnly: true });
  const interrupted = await readJournal(join(dir, `${stem}.journal.json`));
  if (interrupted) replayOnto(data as Record<CollectionName, { id: string }[]>, interrupted);
  // A server that started while we read may have written over what we read.
  await refuseIfOpen(lock);
  return data;
}
