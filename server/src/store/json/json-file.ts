/**
 * The JSON-file store: the memory engine plus persistence of what a write touched.
 *
 * Layout on disk (format version 2), for `path` = `dir/db.json`:
 * - `dir/db.json`, the manifest (`json-manifest.ts`): `{"format":"storefront-data","version":2,"collections":
 *   {"users":"db.users.json",…,"tokens":"db.tokens.8",…},"shards":{"tokens":8,…}}`;
 * - `dir/db.lock` while a process has the data open (`data-lock.ts`);
 * - `dir/db.journal.json` while the data is open (empty between writes), or after a crash;
 * - users, apps and shops: `dir/db.<collection>.json`, a JSON array each;
 * - themes, templates and asset bytes: `dir/db.<collection>/<id>.json`, a file per row;
 * - tokens, codes, products, orders and asset metadata: `dir/db.<collection>.<n>/<shard>.json`, rows spread over
 *   n files by a hash of their id (`json-shards.ts`); `json-layout.ts` says why each collection has its layout.
 *
 * A write rewrites only the files of the rows it changed (a row's file, or the shards holding them), so its cost
 * does not grow with the store, and is acknowledged once they are on disk, flushed (`durable-file.ts`); a write
 * that fails on disk is not applied in memory and rejects. One process has the data open at a time, enforced by
 * the lock; writes go through the engine's one queue. At the start, temporary files of writes a crash
 * interrupted are deleted, and data of format version 1 (one array file per collection) is migrated: the new
 * files are written, then the manifest, then the old files deleted, so a crash in between leaves version 1 in
 * use. A manifest or collection file that is unreadable or malformed fails the start with a
 * {@link StoreFileError}: nothing is ever reseeded over existing data unless `reset` is asked for.
 * A write that replaces more than one file (a template and its theme, an asset's bytes and its row, a development
 * theme's hundreds of templates) is all or nothing across a crash: it goes through the redo journal
 * `dir/db.journal.json` (`json-journal.ts`), which the next start completes as it opens the data. The journal is
 * flushed beside the write's temporary files, so such a write takes the two rounds of flushes (files, then their
 * renames) that a write of one file takes; a write of one file is atomic by itself and skips the journal.
 */
import { readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { COLLECTIONS, isSandboxCollection } from '../collections.js';
import { createStoreEngine, type PendingWrite, type Persistence } from '../engine.js';
import { StoreFileError } from '../errors.js';
import type { CollectionName, Dataset, Store, StoredData } from '../types.js';
import { type DataLock, lockData } from './data-lock.js';
import { type Durability, makeDirectory, removeTempFiles, type Staged } from './durable-file.js';
import type { CollectionFiles } from './json-collections.js';
import { changesOf, Journal, replayOnto } from './json-journal.js';
import { type CollectionPlace, isShardEntry, layoutOf, newPlace, openCollection, VERSION } from './json-layout.js';
import { FORMAT, type Manifest, ManifestFile, readManifest } from './json-manifest.js';
import { readCollections, stemOf, storedFiles } from './json-read.js';
import { ShardFiles } from './json-shards.js';
import { stageAll } from './stage-all.js';

/** Options of {@link createJsonStore}. */
export interface JsonStoreOptions {
  /** The data to create the store with when `path` does not exist yet (or on `reset`). Default: empty. */
  initial?: () => Partial<Dataset> | Promise<Partial<Dataset>>;
  /** Replace whatever `path` holds with `initial()`. */
  reset?: boolean;
  /**
   * Flush every write to the disk (fsync) before acknowledging it. Default `true`. With `false` an acknowledged
   * write still survives the process being killed, but not a power loss or a crash of the machine: for tests and
   * throwaway data.
   */
  sync?: boolean;
}

/** A store backed by JSON files. */
export interface JsonStore extends Store {
  /** Whether this start created the data (the file was missing, or `reset` was asked for) from `initial`. */
  readonly created: boolean;
  /** The manifest's path. */
  readonly path: string;
}

type Files = Record<CollectionName, CollectionFiles>;

/**
 * Opens the store at `path`, creating it from `options.initial` when it does not exist. Rejects with a
 * `StoreLockedError` when another process (or this one) has it open.
 */
export async function createJsonStore(path: string, options: JsonStoreOptions = {}): Promise<JsonStore> {
  const dir = dirname(path);
  const durability: Durability = { sync: options.sync ?? true };
  try {
    await makeDirectory(dir, durability);
  } catch (error) {
    throw new StoreFileError(dir, `cannot be created (${(error as Error).message})`, { cause: error });
  }
  const lock = await lockData(join(dir, `${stemOf(path)}.lock`));
  try {
    return await open(path, options, durability, lock);
  } catch (error) {
    await lock.release();
    throw error;
  }
}

async function open(path: string, options: JsonStoreOptions, durability: Durability, lock: DataLock) {
  const dir = dirname(path);
  const stem = stemOf(path);
  // Only the lock's holder may: another process's temporary files could be writes in flight.
  await removeTempFiles(dir, (name) => name.startsWith(`.${stem}.`) && name.endsWith('.json.tmp'));
  const previous = options.reset ? await readManifest(path).catch(() => null) : await readManifest(path);
  const found = options.reset ? null : previous;

  const manifestFile = new ManifestFile(path, durability);
  const files = {} as Files;
  const save = () => manifestFile.save(manifestOf(files));
  // The sandbox's rules and clock are not flushed: a server with the control API clears them as it starts, so a
  // crash that lost their last write changes nothing, and a request that a rule matches costs no flush.
  const durabilityOf = (name: CollectionName) => (isSandboxCollection(name) ? { sync: false } : durability);
  const place = (name: CollectionName, at: CollectionPlace) => openCollection(name, at, durabilityOf(name), save);

  let data: Partial<StoredData>;
  let rewritten: readonly CollectionName[];
  if (found === null) {
    data = (await options.initial?.()) ?? {};
    for (const name of COLLECTIONS) files[name] = place(name, newPlace(dir, stem, name, data[name]?.length ?? 0));
    rewritten = COLLECTIONS;
  } else {
    const stored = storedFiles(found, dir, stem, place);
    data = await readCollections(stored, dir);
    // Collections whose layout changed since the data was written, or that it lacks, are written anew.
    rewritten = COLLECTIONS.filter((name) => {
      const kept = stored[name];
      if (kept && layoutOf(found.version, name) === layoutOf(VERSION, name)) files[name] = kept;
      else files[name] = place(name, newPlace(dir, stem, name, data[name]?.length ?? 0));
      return files[name] !== kept;
    });
  }

  const journal = new Journal(join(dir, `${stem}.journal.json`), durability);
  let store: Store;
  try {
    // Fresh data has nothing to complete: a journal there belongs to the data that `reset` replaced.
    const interrupted = await journal.open(found !== null);
    const replay = interrupted && replayOnto(data as Record<CollectionName, { id: string }[]>, interrupted);
    try {
      // Before anything is written: building the tables checks the rows (unique ids).
      store = createStoreEngine(data, writeThrough(files, journal));
    } catch (error) {
      throw new StoreFileError(path, `cannot load the data: ${(error as Error).message}`, { cause: error });
    }
    if (rewritten.length) {
      await Promise.all(rewritten.map((name) => files[name].create(data[name] ?? [])));
      await save();
    }
    if (replay) {
      // Collections written anew above hold the replayed rows already.
      await (await stageWrite(files, replay, (name) => !rewritten.includes(name))).commit();
      await journal.empty(true);
    }
  } catch (error) {
    // Kept: a write it holds is completed at the next start.
    await journal.close(true).catch(() => undefined);
    throw error;
  }
  await removeSuperseded(dir, stem, previous, files);

  let closing: Promise<void> | undefined;
  const json: JsonStore = {
    ...store,
    created: found === null,
    path,
    close: () => {
      closing ??= store.close().finally(() => lock.release());
      return closing;
    },
  };
  return json;
}

/** Stages the files of `write`'s collections (those `only` accepts), as one change. */
function stageWrite(
  files: Files,
  write: PendingWrite,
  only: (name: CollectionName) => boolean = () => true,
): Promise<Staged> {
  // Every collection's files settle before a failure is reported (see `mapLimited`).
  return stageAll(write.changed.filter(only), (name) => files[name].stage(write));
}

/**
 * How a write reaches its files: staged, then committed (see `json-journal.ts` for why in two rounds), through the
 * journal when it replaces more than one file, so that a crash leaves all of it or none. A failure before the
 * commit leaves nothing behind and the store usable. Once a journalled write commits, it is decided: a failure
 * then (or a journal that cannot be emptied of a failed write) leaves the store refusing writes until the data is
 * opened again, which completes it (memory could not be kept in step).
 */
function writeThrough(files: Files, journal: Journal): Persistence {
  let broken: StoreFileError | undefined;
  const breakOn = (error: unknown, what: string): never => {
    broken = new StoreFileError(
      journal.path,
      `${what} (${(error as Error).message}); no write is accepted until the data is opened again (restart ` +
        'the server), which completes it',
      { cause: error },
    );
    throw broken;
  };
  return {
    async persist(write) {
      if (broken) throw broken;
      let fileCount = 0;
      for (const name of write.changed) fileCount += files[name].filesOf(write);
      const journalled = fileCount > 1;
      // Round 1: the temporary files and, beside them, the journal (or the flush of its emptying).
      const [staged, logged] = await Promise.allSettled([
        stageWrite(files, write),
        journalled ? journal.record(changesOf(write)) : journal.settle(),
      ]);
      if (staged.status === 'rejected' || logged.status === 'rejected') {
        if (staged.status === 'fulfilled') await staged.value.discard();
        // The journal may hold the write whole: it must not be applied at the next start. All of it is cut, to
        // give the space it took back to a full disk.
        if (journalled) {
          await journal.empty(true).catch((error) => breakOn(error, 'a write that failed is recorded here'));
        }
        throw staged.status === 'rejected' ? staged.reason : (logged as PromiseRejectedResult).reason;
      }
      // Round 2: the renames.
      try {
        await staged.value.commit();
      } catch (error) {
        if (!journalled) throw error;
        breakOn(error, 'a write is recorded here but its files could not all be written');
      }
      if (journalled) await journal.clear();
    },
    close: () => journal.close(broken !== undefined),
  };
}

function manifestOf(files: Files): Manifest {
  const collections: Manifest['collections'] = {};
  const shards: NonNullable<Manifest['shards']> = {};
  for (const name of COLLECTIONS) {
    collections[name] = files[name].entry;
    const collection = files[name];
    if (collection instanceof ShardFiles) shards[name] = collection.count;
  }
  return { format: FORMAT, version: VERSION, collections, shards };
}

/**
 * Once the manifest names the files in use: the files of the layout they replaced (a migration, a reset), and
 * shard directories of a doubling that a crash interrupted, before or after its switch. Deleting them is
 * tidying only; the data no longer refers to them, so a failure is ignored.
 */
async function removeSuperseded(dir: string, stem: string, previous: Manifest | null, files: Files): Promise<void> {
  const inUse = new Set(COLLECTIONS.map((name) => files[name].entry));
  const old = Object.values(previous?.collections ?? {}).filter((entry) => !inUse.has(entry));
  const names = await readdir(dir).catch(() => [] as string[]);
  const leftovers = names.filter((entry) => isShardEntry(stem, entry) && !inUse.has(entry));
  await Promise.all(
    [...new Set([...old, ...leftovers])].map((entry) =>
      rm(join(dir, entry), { recursive: true, force: true }).catch(() => undefined),
    ),
  );
}
