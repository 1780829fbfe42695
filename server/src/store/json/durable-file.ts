/**
 * Files replaced so that a crash leaves the old content or the new one, never a mix, and so that the new one is on
 * the disk itself (not only in the page cache) once the write resolves: a write is acknowledged to a client only
 * after that, so a power loss cannot take back what the server already answered for.
 *
 * lowdb's `JSONFile` (through steno) writes a temporary file and renames it over the old one, which is atomic but
 * not durable: neither the file's data nor the rename is flushed. {@link DurableJSONFile} is the same write,
 * implementing lowdb's `Adapter` so that `Low` uses it unchanged, with the two flushes added.
 */
import { readFileSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';
import { serial } from '../serial.js';

/** How many files a bulk operation keeps open at once: far below the 256 descriptors a macOS shell allows. */
export const FILES_AT_ONCE = 32;

/** How hard a write tries. */
export interface Durability {
  /** Flush to the disk before a write resolves. Without it a write survives a crash of the process, not of the machine. */
  sync: boolean;
}

/** The temporary file a write goes through: steno's name, so that leftovers of older versions are recognised too. */
function tempPathOf(path: string): string {
  return join(dirname(path), `.${basename(path)}.tmp`);
}

/** Whether a directory entry is a leftover temporary file of an interrupted write. */
function isTempName(name: string): boolean {
  return name.startsWith('.') && name.endsWith('.tmp');
}

async function flushDirectory(dir: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(dir, 'r');
  } catch (error) {
    // Windows cannot open a directory; its renames are journalled by NTFS instead.
    if (process.platform === 'win32') return;
    throw error;
  }
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Directory → the flush running now, and the one queued behind it. */
const directoryFlushes = new Map<string, { running: Promise<void>; queued?: Promise<void> }>();

function startDirectoryFlush(dir: string): Promise<void> {
  const entry: { running: Promise<void>; queued?: Promise<void> } = {
    running: flushDirectory(dir).finally(() => {
      if (directoryFlushes.get(dir) === entry) directoryFlushes.delete(dir);
    }),
  };
  directoryFlushes.set(dir, entry);
  return entry.running;
}

/**
 * Makes the renames and deletions done so far in `dir` durable. Callers that arrive while a flush runs share the
 * next one (a flush that started before their rename would not cover it), so the shards of one write, or writes
 * of several stores in one directory, cost one flush of the directory between them rather than one each.
 */
export function syncDirectory(dir: string): Promise<void> {
  const current = directoryFlushes.get(dir);
  if (!current) return startDirectoryFlush(dir);
  current.queued ??= current.running.catch(() => undefined).then(() => startDirectoryFlush(dir));
  return current.queued;
}

/**
 * Creates `dir` and its missing parents, durably: a file flushed into a directory that a power loss then takes
 * away would be lost with it.
 */
export async function makeDirectory(dir: string, durability: Durability): Promise<void> {
  const first = await mkdir(dir, { recursive: true });
  if (first === undefined || !durability.sync) return;
  // Each new directory is an entry of its parent: flush the parents from `dir`'s up to the first new one's.
  for (let at = dir; ; at = dirname(at)) {
    await syncDirectory(dirname(at));
    if (at === first || dirname(at) === at) break;
  }
}

/** A change of a file made ready but not yet visible: a write of several files stages them all, then commits them. */
export interface Staged {
  /** Makes the change visible, durably. */
  commit(): Promise<void>;
  /** Drops the change, for a write given up before its commit: what staging wrote is deleted. */
  discard(): Promise<void>;
}

/** Deletes a temporary file of a failed write: a full disk must get its space back now, not at the next start. */
function dropTemp(temp: string): Promise<void> {
  return rm(temp, { force: true }).catch(() => undefined);
}

/**
 * Writes `text` to `path`'s temporary file and flushes it; committing renames it over `path` and flushes the
 * directory. Staging leaves `path` as it was, so a crash at any point before the commit keeps the old content.
 * A failed staging or commit deletes the temporary file.
 */
export async function stageFile(path: string, text: string, durability: Durability): Promise<Staged> {
  const temp = tempPathOf(path);
  try {
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(text, 'utf8');
      // The size is part of what fdatasync flushes, so the cheaper call is enough for a file read back whole.
      if (durability.sync) await handle.datasync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    await dropTemp(temp);
    throw error;
  }
  return {
    async commit() {
      try {
        await rename(temp, path);
      } catch (error) {
        await dropTemp(temp);
        throw error;
      }
      if (durability.sync) await syncDirectory(dirname(path));
    },
    discard: () => dropTemp(temp),
  };
}

/** Replaces `path` with `text`: temporary file, flush, rename, flush of the directory. */
export async function replaceFile(path: string, text: string, durability: Durability): Promise<void> {
  await (await stageFile(path, text, durability)).commit();
}

/** Deletes `path` (nothing if it is gone already), durably. */
export async function removeFile(path: string, durability: Durability): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (durability.sync) await syncDirectory(dirname(path));
}

/**
 * Deletes the temporary files that writes interrupted by a crash left in `dir` (only those `remove` accepts, when
 * given), and returns the names left there; `null` for a directory that does not exist. Only the process that
 * holds the data's lock may do this: another one's temporary files may be in the middle of a write.
 */
export async function removeTempFiles(
  dir: string,
  remove: (name: string) => boolean = () => true,
): Promise<string[] | null> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const leftovers = new Set(names.filter((name) => isTempName(name) && remove(name)));
  // `recursive`: a directory can stand where a temporary file goes (nothing of ours makes one, but it would block writes).
  await Promise.all([...leftovers].map((name) => rm(join(dir, name), { recursive: true, force: true })));
  return names.filter((name) => !leftovers.has(name));
}

/** A JSON file's text as `JSONFile` writes it: two-space indented, so that the files can be read and diffed. */
function textOf(data: unknown): string {
  return JSON.stringify(data, null, 2);
}

/**
 * lowdb's `Adapter` over one JSON file, written as `JSONFile` writes it ({@link textOf}) but durably: see
 * {@link replaceFile}. Writes to one file run one after the other, each with the data as it was when it was asked
 * for.
 */
export class DurableJSONFile<T> implements Adapter<T> {
  private readonly queue = serial();

  constructor(
    readonly path: string,
    private readonly durability: Durability,
  ) {}

  async read(): Promise<T | null> {
    let text: string;
    try {
      // Read only while the data opens, when no request can be served before every file is in: read
      // asynchronously, each file took several trips through libuv's thread pool (open, stat, read, close), and the
      // thread switches of the demo data's 80 files cost a start about 10 ms of CPU (issue 49).
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    return JSON.parse(text) as T;
  }

  write(data: T): Promise<void> {
    const text = textOf(data);
    return this.queue(() => replaceFile(this.path, text, this.durability));
  }

  /** {@link write} in two steps (see {@link stageFile}), for a write of several files; not ordered with `write`. */
  stage(data: T): Promise<Staged> {
    return stageFile(this.path, textOf(data), this.durability);
  }
}
