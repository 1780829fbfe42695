/**
 * How one collection of the JSON-file store lives on disk, in one of three layouts (`json-layout.ts` says which
 * collection has which, and why): all rows in one JSON array file ({@link ArrayFile}); one JSON file per row in a
 * directory ({@link RowFiles}); rows spread by a hash of their id over JSON array files in a directory
 * (`ShardFiles`, in `json-shards.ts`). Every file goes through lowdb's `Low` over {@link DurableJSONFile}, or,
 * for the part of a write it holds, through that adapter's staging, so that the write's files are put in place
 * only once all of them (and the journal) are flushed.
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { mapLimited } from '@storefront-platform/sdk/internal';
import { Low } from 'lowdb';
import type { PendingWrite } from '../engine.js';
import { StoreFileError } from '../errors.js';
import type { CollectionName } from '../types.js';
import {
  type Durability,
  DurableJSONFile,
  FILES_AT_ONCE,
  removeFile,
  removeTempFiles,
  type Staged,
  syncDirectory,
} from './durable-file.js';
import { stageAll } from './stage-all.js';

/** How {@link CollectionFiles.load} reads. */
export interface LoadOptions {
  /**
   * Change nothing on disk: leave the temporary files of interrupted writes and rows in the wrong shard where they
   * are (the data's owner tidies them when it opens the data). For reading data without opening it
   * (`readJsonData`).
   */
  readOnly?: boolean;
}

/** One collection's files. */
export interface CollectionFiles {
  /** The file or directory next to the manifest that holds the collection, as the manifest names it. */
  readonly entry: string;
  /** The stored rows, checked to be objects with string ids; `null` when a collection's file does not exist. */
  load(options?: LoadOptions): Promise<unknown[] | null>;
  /** Replaces whatever is stored with `rows` (creation, reset, migration). */
  create(rows: readonly unknown[]): Promise<void>;
  /** Stages the collection's part of a write: its files are replaced (or deleted) when it is committed. */
  stage(write: PendingWrite): Promise<Staged>;
  /**
   * How many files {@link stage} replaces or deletes for `write`, each atomically on its own (a change of layout
   * committed by the manifest counts as one): more than one across a write, and it goes through the journal.
   */
  filesOf(write: PendingWrite): number;
}

function checkRow(row: unknown, path: string): asserts row is { id: string } {
  if (typeof row !== 'object' || row === null || typeof (row as { id?: unknown }).id !== 'string') {
    throw new StoreFileError(path, 'every row must be an object with a string "id"');
  }
}

export function checkRows(rows: unknown, path: string): { id: string }[] {
  if (!Array.isArray(rows)) throw new StoreFileError(path, 'expected a JSON array of rows');
  for (const row of rows) checkRow(row, path);
  return rows;
}

/** The content of the JSON file `path`, `null` when it does not exist. */
export async function readJson(path: string, durability: Durability): Promise<unknown> {
  const file = new Low<unknown>(new DurableJSONFile(path, durability), null);
  try {
    await file.read();
  } catch (error) {
    const reason = error instanceof SyntaxError ? 'not valid JSON' : 'cannot be read';
    throw new StoreFileError(path, `${reason} (${(error as Error).message})`, { cause: error });
  }
  return file.data;
}

/** Replaces the JSON file `path` with `data`, durably. */
export async function writeJson(path: string, data: unknown, durability: Durability): Promise<void> {
  const file = new Low<unknown>(new DurableJSONFile(path, durability), null);
  file.data = data;
  try {
    await file.write();
  } catch (error) {
    throw new StoreFileError(path, `cannot write (${(error as Error).message})`, { cause: error });
  }
}

/** Stages the replacement of the JSON file `path` with `data` (see `stageFile`); a failure names the file. */
export async function stageJson(path: string, data: unknown, durability: Durability): Promise<Staged> {
  const fail = (error: unknown): never => {
    throw new StoreFileError(path, `cannot write (${(error as Error).message})`, { cause: error });
  };
  const staged = await new DurableJSONFile(path, durability).stage(data).catch(fail);
  return { commit: () => staged.commit().catch(fail), discard: () => staged.discard() };
}

/** Stages the deletion of the file `path`: nothing happens before the commit. */
function stageDeletion(path: string, durability: Durability): Staged {
  return { commit: () => deleteFile(path, durability), discard: async () => undefined };
}

/** Deletes the file `path`, durably. */
export async function deleteFile(path: string, durability: Durability): Promise<void> {
  try {
    await removeFile(path, durability);
  } catch (error) {
    throw new StoreFileError(path, `cannot be removed (${(error as Error).message})`, { cause: error });
  }
}

/** Whether `id` is a whole number as the store allocates them (no sign, no leading zero). */
function isWholeNumber(id: string): boolean {
  if (id.length === 0 || (id.length > 1 && id.charCodeAt(0) === 48)) return false;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

const byCodeUnits = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const byValue = (a: { id: string }, b: { id: string }) => a.id.length - b.id.length || byCodeUnits(a, b);

/**
 * `rows` in the order they load in from files that keep none (a directory, several shards): ids that are whole
 * numbers first, by value (for ids the store allocated, that is insertion order), then the others by code unit.
 * The same order after every restart, whatever the directory's; a sort of 100 000 rows takes milliseconds.
 */
export function sortById<R extends { id: string }>(rows: readonly R[]): R[] {
  const numbers: R[] = [];
  const others: R[] = [];
  for (const row of rows) (isWholeNumber(row.id) ? numbers : others).push(row);
  return [...numbers.sort(byValue), ...others.sort(byCodeUnits)];
}

/**
 * The JSON files of directory `dir`, once the temporary files that interrupted writes left there are removed
 * (unless `readOnly`: they are then only skipped). A missing directory holds none, and is made again unless
 * `readOnly`: git, and other copies of the files, keep no empty folder, and a collection kept in a directory is
 * empty (no asset bytes, no tokens yet) as often as not, where the store never removes a directory the manifest
 * names.
 */
export async function jsonFilesIn(
  dir: string,
  durability: Durability,
  { readOnly = false }: LoadOptions = {},
): Promise<string[]> {
  try {
    const names = readOnly ? await namesIn(dir) : await removeTempFiles(dir);
    if (names === null && !readOnly) {
      await mkdir(dir, { recursive: true });
      if (durability.sync) await syncDirectory(dirname(dir));
    }
    return (names ?? []).filter((name) => name.endsWith('.json') && !name.startsWith('.'));
  } catch (error) {
    throw new StoreFileError(dir, `cannot be read (${(error as Error).message})`, { cause: error });
  }
}

/** The entries of `dir`, `null` when it does not exist. */
async function namesIn(dir: string): Promise<string[] | null> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Fills a new directory `dir` (whatever stood there is deleted) with `files`, name → content, and makes it
 * durable: every file, then the directory's entry in its parent. On a failure the directory is deleted: nothing
 * refers to it yet, and a full disk gets its space back now rather than at the next start.
 */
export async function createDirectory(
  dir: string,
  files: readonly (readonly [string, unknown])[],
  durability: Durability,
): Promise<void> {
  try {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
  } catch (error) {
    throw new StoreFileError(dir, `cannot be created (${(error as Error).message})`, { cause: error });
  }
  try {
    await mapLimited(files, FILES_AT_ONCE, ([name, data]) => writeJson(join(dir, name), data, durability));
    if (durability.sync) await syncDirectory(dirname(dir));
  } catch (error) {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    if (error instanceof StoreFileError) throw error;
    throw new StoreFileError(dir, `cannot be written (${(error as Error).message})`, { cause: error });
  }
}

/** All rows of the collection in one JSON array file, rewritten whole when the collection changes. */
export class ArrayFile implements CollectionFiles {
  private readonly path: string;

  constructor(
    private readonly name: CollectionName,
    dir: string,
    readonly entry: string,
    private readonly durability: Durability,
  ) {
    this.path = join(dir, entry);
  }

  async load(): Promise<unknown[] | null> {
    const rows = await readJson(this.path, this.durability);
    return rows === null ? null : checkRows(rows, this.path);
  }

  create(rows: readonly unknown[]): Promise<void> {
    return writeJson(this.path, rows, this.durability);
  }

  stage(pending: PendingWrite): Promise<Staged> {
    return stageJson(this.path, pending.rows(this.name), this.durability);
  }

  filesOf(): number {
    return 1;
  }
}

/** A file name for any id: characters outside `[A-Za-z0-9_-]` are percent-encoded, so no id can escape. */
function fileNameOf(id: string): string {
  const safe = Array.from(new TextEncoder().encode(id), (byte) => {
    const c = String.fromCharCode(byte);
    return /[A-Za-z0-9_-]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }).join('');
  return `${safe}.json`;
}

/** One JSON file per row in a directory; a write touches only the files of the rows it changed. */
export class RowFiles implements CollectionFiles {
  private readonly dir: string;

  constructor(
    private readonly name: CollectionName,
    dir: string,
    readonly entry: string,
    private readonly durability: Durability,
  ) {
    this.dir = join(dir, entry);
  }

  async load(options?: LoadOptions): Promise<unknown[]> {
    const files = await jsonFilesIn(this.dir, this.durability, options);
    const rows = await mapLimited(files, FILES_AT_ONCE, async (name) => {
      const path = join(this.dir, name);
      const row = await readJson(path, this.durability);
      checkRow(row, path);
      return row;
    });
    return sortById(rows);
  }

  create(rows: readonly unknown[]): Promise<void> {
    const files = rows.map((row) => [fileNameOf((row as { id: string }).id), row] as const);
    return createDirectory(this.dir, files, this.durability);
  }

  filesOf(pending: PendingWrite): number {
    return pending.changes(this.name).size;
  }

  stage(pending: PendingWrite): Promise<Staged> {
    return stageAll([...pending.changes(this.name)], async ([id, row]) => {
      const path = join(this.dir, fileNameOf(id));
      return row ? stageJson(path, row, this.durability) : stageDeletion(path, this.durability);
    });
  }
}
