/**
 * The JSON-file store's redo journal, `<dir>/<stem>.journal.json`: what makes a write that replaces several files
 * all or nothing across a crash.
 *
 * The journal is one file kept while the data is open, empty between writes. A write of several files takes two
 * rounds of flushes, as a write of one file does:
 * 1. each file's new content is written to its temporary file and flushed and, at the same time, the write's whole
 *    change set (collection → id → the new row, or `null` for a deletion) is written over the journal, in place,
 *    and flushed;
 * 2. once all of that is on disk, the temporary files are renamed over the files and the directories flushed.
 * Then the journal is emptied, without waiting for the disk, and the write is acknowledged.
 *
 * A crash in round 1 leaves every file as it was, since nothing was renamed; the journal may then be torn (a mix
 * of its old and new bytes), which its checksum shows, and a torn journal is discarded: it is that of a write
 * none of whose files was touched. A crash in round 2 leaves the whole journal, flushed before the first rename,
 * which the next start applies to the loaded rows and writes to their files again before anything else happens
 * (`json-file.ts`): every change is a whole row or a deletion, so writing it twice is harmless. A journal that
 * passes its checksum but is not one this version reads stops the start rather than be guessed at.
 *
 * An old journal must never be applied over a later write: after a power loss it would revert it. Its emptying
 * is flushed before the next write renames anything, in that write's round 1: a write of one file flushes it
 * ({@link Journal.settle}) beside its temporary file, and a write of several files overwrites the journal with its
 * own, flushed before its renames. So at any moment when a file is renamed, the journal on disk is empty or that
 * of the write being renamed; a journal that survives a power loss un-emptied belongs to the last write, whose
 * files hold its rows already, so applying it again writes the same rows.
 */
import { createHash } from 'node:crypto';
import { type FileHandle, open, readFile, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isCollectionName } from '../collections.js';
import type { PendingWrite } from '../engine.js';
import { StoreFileError } from '../errors.js';
import type { CollectionName } from '../types.js';
import { type Durability, syncDirectory } from './durable-file.js';

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

/** The journal's text for `changes`. */
export function journalText(changes: JournalChanges): string {
  const body = JSON.stringify(changes);
  // The body is the last member and written as is, so that a reader can check the checksum over its own text.
  return `{"format":"${FORMAT}","version":${VERSION},"sha256":"${checksum(body)}","changes":${body}}`;
}

/** A journal larger than this (a development theme's) is cut to nothing once applied, rather than kept. */
const SHRINK_ABOVE = 1 << 20;
const NEWLINE = Buffer.from('\n');

/**
 * What the journal on disk may hold: nothing (`empty`), or `emptied` but possibly not on disk yet, or a write
 * (`holding`: being recorded, or one whose emptying failed).
 */
type State = 'empty' | 'emptied' | 'holding';

/** The journal of one data directory, open while the data is. */
export class Journal {
  private handle: FileHandle | undefined;
  private state: State = 'holding';
  /** The file's size: a journal shorter than the last one is written over it. */
  private size = 0;

  constructor(
    readonly path: string,
    private readonly durability: Durability,
  ) {}

  private fail(what: string, error: unknown): never {
    throw new StoreFileError(this.path, `${what} (${(error as Error).message})`, { cause: error });
  }

  private get file(): FileHandle {
    if (!this.handle) throw new StoreFileError(this.path, 'is not open');
    return this.handle;
  }

  /**
   * Opens the journal, creating it (durably: a journal whose entry a power loss took away would be missed), and
   * returns the changes of the write a crash interrupted, checked; `null` when there is none, or when the journal
   * was torn or is not to be `completed` (then it is emptied, durably, before anything else is written).
   */
  async open(completed = true): Promise<JournalChanges | null> {
    try {
      this.handle = await open(this.path, 'r+');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.fail('cannot be opened', error);
      try {
        this.handle = await open(this.path, 'w+');
        if (this.durability.sync) await syncDirectory(dirname(this.path));
      } catch (error) {
        await this.handle?.close();
        this.handle = undefined;
        this.fail('cannot be created', error);
      }
    }
    let text: string;
    try {
      text = await this.file.readFile('utf8');
    } catch (error) {
      this.fail('cannot be read', error);
    }
    this.size = Buffer.byteLength(text);
    if (text === '') {
      this.state = 'empty';
      return null;
    }
    const changes = completed ? changesIn(text, this.path) : null;
    // Emptied now when there is nothing to complete, or later by the start once it is complete.
    if (changes === null) await this.empty(true);
    return changes;
  }

  /**
   * Records `changes` over the journal, in place, and flushes it: once this resolves, the write survives a crash
   * whatever happens to its files. Until then a crash may leave it torn, which is why no file of the write may be
   * renamed before.
   */
  async record(changes: JournalChanges): Promise<void> {
    // Ended by a newline, and not cut to its length: what follows, left by a longer journal, is not read. Written
    // over blocks the file has already, a journal is flushed without the file system's metadata.
    const bytes = Buffer.from(`${journalText(changes)}\n`, 'utf8');
    this.state = 'holding';
    try {
      await this.writeAt(bytes);
      if (this.durability.sync) await this.file.datasync();
    } catch (error) {
      this.fail('cannot write', error);
    }
  }

  private async writeAt(bytes: Buffer): Promise<void> {
    for (let at = 0; at < bytes.length; ) at += (await this.file.write(bytes, at, bytes.length - at, at)).bytesWritten;
    this.size = Math.max(this.size, bytes.length);
  }

  /**
   * Empties the journal: a newline over its first byte, or, once it is large, a truncation, which gives the disk
   * its space back at the cost of a flush of metadata. `durably`: when nothing else will be written before it is
   * read again.
   */
  private async cut(durably: boolean): Promise<void> {
    if (durably || this.size > SHRINK_ABOVE) {
      await this.file.truncate(0);
      this.size = 0;
    } else {
      await this.writeAt(NEWLINE);
    }
  }

  /**
   * Empties the journal once its write is in its files, without flushing: see {@link settle}. A failure is kept
   * for the next write to retry rather than reported, as the write is complete.
   */
  async clear(): Promise<void> {
    try {
      await this.cut(false);
      this.state = this.durability.sync ? 'emptied' : 'empty';
    } catch {
      this.state = 'holding';
    }
  }

  /**
   * Makes the journal empty on disk, for a write that does not go through it: run beside that write's staging,
   * before any of its files is renamed (a journal still holding a write after a power loss would be applied over
   * it). Costs nothing when the journal is empty on disk already.
   */
  async settle(): Promise<void> {
    if (this.state !== 'empty') await this.empty();
  }

  /** Empties the journal, durably; `whole`: all of its bytes, as the start does. */
  async empty(whole = false): Promise<void> {
    try {
      if (whole || this.state !== 'emptied') await this.cut(whole);
      if (this.durability.sync) await this.file.datasync();
    } catch (error) {
      this.state = 'holding';
      this.fail('cannot be emptied', error);
    }
    this.state = 'empty';
  }

  /**
   * Closes the journal and, unless `keep` (a write recorded there is not complete), deletes it: between writes
   * it holds none. Without a flush: brought back by a power loss, it is empty, or holds the last write, whose
   * rows are in their files already.
   */
  async close(keep = false): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
    if (keep || !handle) return;
    try {
      await unlink(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.fail('cannot be removed', error);
    }
  }
}

/**
 * The changes of the write a journal's `text` holds, `null` when it holds none (empty, emptied, or torn); throws
 * for a whole journal this version does not read. The journal is the text's first line; one written whole by an
 * earlier version has no newline.
 */
function changesIn(text: string, path: string): JournalChanges | null {
  const end = text.indexOf('\n');
  if (text === '' || end === 0) return null;
  return parse(end === -1 ? text : text.slice(0, end), path) ?? (end === -1 ? null : parse(text, path));
}

/** The changes `text` holds, `null` for a torn journal; throws for a whole one this version does not read. */
function parse(text: string, path: string): JournalChanges | null {
  let value: { format?: unknown; version?: unknown; sha256?: unknown; changes?: unknown };
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  // Checked first: only a whole journal is judged on its content.
  if (typeof value?.sha256 !== 'string' || value.sha256 !== checksum(JSON.stringify(value.changes))) return null;
  const refuse = (reason: string): never => {
    throw new StoreFileError(
      path,
      `${reason}. It holds a write that a crash interrupted; the data may be partly written without it. ` +
        'Restore it from a backup, or delete it to accept the data as it is',
    );
  };
  if (value.format !== FORMAT || value.version !== VERSION) return refuse(`is not a ${FORMAT} of version ${VERSION}`);
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

/**
 * The changes of the write a crash interrupted, as the journal at `path` holds them, read without opening it (nor
 * creating, emptying or locking anything): `null` when there is no journal or it holds no whole write. For reading
 * data that no process has open (`readJsonData`), which applies them in memory as a start would to its files.
 */
export async function readJournal(path: string): Promise<JournalChanges | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new StoreFileError(path, `cannot be read (${(error as Error).message})`, { cause: error });
  }
  return changesIn(text, path);
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
