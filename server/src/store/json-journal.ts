/**
 * The JSON-file store's redo journal, `<dir>/<stem>.journal.json`: what makes a write that replaces several files
 * all or nothing across a crash.
 *
 * Such a write first records its whole change set (collection → id → the new row, or `null` for a deletion) in
 * the journal, durably, then replaces the collections' files, then deletes the journal. A crash before the
 * journal is in place leaves every file as it was (nothing else was touched yet); a crash after it leaves the
 * journal, which the next start applies to the loaded rows and writes to their files again before anything
 * else happens (`replayJournal` in `json-file.ts`): every change is a whole row or a deletion, so writing it
 * twice is harmless. The journal is renamed into place whole, so it cannot be torn; a checksum over the change
 * set checks that anyway, and a journal that fails it, or is malformed, stops the start rather than be guessed at.
 *
 * Deleting the journal need not be flushed before the write is acknowledged (the write is on disk by then); the
 * next write flushes it alongside its own (a journalled one by the flush its own journal needs anyway), so that a
 * power loss can never bring back a journal older than a write acknowledged after it.
 */
import { createHash } from 'node:crypto';
import { readFile, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isCollectionName } from './collections.js';
import { type Durability, replaceFile, syncDirectory } from './durable-file.js';
import type { PendingWrite } from './engine.js';
import { StoreFileError } from './errors.js';
import type { CollectionName } from './types.js';

const FORMAT = 'storefront-journal';
const VERSION = 1;

/** A row as the journal holds it: any stored row. */
export type JournalRow = { id: string };

/** A write's changes by collection: `[id, new row or null]`, in the order they were staged. */
export type JournalChanges = Partial<Record<CollectionName, [string, JournalRow | null][]>>;

function checksum(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The change set of `write`, as the journal holds it. */
export function changesOf(write: PendingWrite): JournalChanges {
  const changes: JournalChanges = {};
  for (const name of write.changed) changes[name] = [...write.changes(name)] as [string, JournalRow | null][];
  return changes;
}

/** The journal of one data directory. */
export class Journal {
  /** Whether the journal's last deletion may not be on disk yet. */
  private removalUnflushed = false;

  constructor(
    readonly path: string,
    private readonly durability: Durability,
  ) {}

  /**
   * Makes the journal's last deletion durable, for a write that does not go through the journal: run alongside
   * that write's own files, before it is acknowledged.
   */
  async settle(): Promise<void> {
    if (!this.removalUnflushed) return;
    this.removalUnflushed = false;
    try {
      await syncDirectory(dirname(this.path));
    } catch (error) {
      this.removalUnflushed = true;
      throw error;
    }
  }

  /** Records `changes` durably: once this resolves, the write survives a crash whatever happens to its files. */
  async record(changes: JournalChanges): Promise<void> {
    const body = JSON.stringify(changes);
    // The body is the last member and written as is, so that a reader can check the checksum over its own text.
    const text = `{"format":"${FORMAT}","version":${VERSION},"sha256":"${checksum(body)}","changes":${body}}`;
    // The flush of the directory after the rename also makes the previous journal's deletion durable.
    this.removalUnflushed = false;
    try {
      await replaceFile(this.path, text, this.durability);
    } catch (error) {
      throw new StoreFileError(this.path, `cannot write (${(error as Error).message})`, { cause: error });
    }
  }

  /**
   * Deletes the journal once its write is in its files. The deletion is flushed by the next write (see
   * {@link settle}): until then, a journal that a power loss brought back would only write the same rows again.
   */
  async remove(): Promise<void> {
    try {
      await unlink(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new StoreFileError(this.path, `cannot be removed (${(error as Error).message})`, { cause: error });
      }
    }
    if (this.durability.sync) this.removalUnflushed = true;
  }

  /** The changes of a journal a crash left, checked; `null` when there is none. */
  async read(): Promise<JournalChanges | null> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new StoreFileError(this.path, `cannot be read (${(error as Error).message})`, { cause: error });
    }
    const refuse = (reason: string): never => {
      throw new StoreFileError(
        this.path,
        `${reason}. It holds a write that a crash interrupted; the data may be partly written without it. ` +
          'Restore it from a backup, or delete it to accept the data as it is',
      );
    };
    let value: { format?: unknown; version?: unknown; sha256?: unknown; changes?: unknown };
    try {
      value = JSON.parse(text);
    } catch (error) {
      return refuse(`is not valid JSON (${(error as Error).message})`);
    }
    if (value?.format !== FORMAT || value.version !== VERSION)
      return refuse(`is not a ${FORMAT} of version ${VERSION}`);
    if (value.sha256 !== checksum(JSON.stringify(value.changes))) return refuse('does not match its checksum');
    const changes = value.changes;
    if (typeof changes !== 'object' || changes === null || Array.isArray(changes)) return refuse('has no changes');
    for (const [name, entries] of Object.entries(changes)) {
      if (!isCollectionName(name) || !Array.isArray(entries)) return refuse(`has an invalid collection "${name}"`);
      for (const entry of entries as unknown[]) {
        const [id, row] = Array.isArray(entry) ? entry : [];
        const valid =
          typeof id === 'string' &&
          (row === null || (typeof row === 'object' && !Array.isArray(row) && (row as { id?: unknown }).id === id));
        if (!valid) return refuse(`has an invalid change in "${name}"`);
      }
    }
    return changes as JournalChanges;
  }
}

/**
 * Applies a journal's changes to rows loaded from the files (in place: each changed collection's array is
 * replaced), and returns them as the write the files are then brought up to.
 */
export function replayOnto(
  data: Partial<Record<CollectionName, { id: string }[]>>,
  changes: JournalChanges,
): PendingWrite {
  const changed = Object.keys(changes) as CollectionName[];
  const byId = new Map<CollectionName, Map<string, { id: string }>>();
  const staged = new Map<CollectionName, Map<string, { id: string } | null>>();
  for (const name of changed) {
    // A Map keeps a replaced row in its place and appends new ones, as the store's tables do.
    const rows = new Map((data[name] ?? []).map((row) => [row.id, row]));
    const changesOfName = new Map(changes[name]);
    for (const [id, row] of changesOfName) {
      if (row) rows.set(id, row);
      else rows.delete(id);
    }
    byId.set(name, rows);
    staged.set(name, changesOfName);
    data[name] = [...rows.values()];
  }
  return {
    changed,
    rows: (name) => (data[name] ?? []) as never[],
    row: (name, id) => byId.get(name)?.get(id) as never,
    count: (name) => byId.get(name)?.size ?? 0,
    changes: (name) => (staged.get(name) ?? new Map()) as never,
  };
}
