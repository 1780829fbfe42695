/**
 * One process owns a data set at a time. Its lock is a file next to the data holding the owner's PID, host and
 * start time: created atomically (a complete temporary file hard-linked into place, which fails if the lock
 * exists), so that no other process ever reads half a lock, and deleted on close. A lock whose process is gone
 * (killed, crashed, the machine restarted) is stale and taken over; so is one whose PID names a zombie (killed,
 * not yet reaped by its parent) or, where Linux's `/proc` tells a process's start, another process than the one
 * that took it (the PID reused). One of a live process, or of a process on another host that cannot be checked,
 * is a {@link StoreLockedError}.
 */
import { readFileSync } from 'node:fs';
import { link, open, readFile, rename, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { StoreFileError } from '../errors.js';
import { type LockHolder, StoreLockedError } from './store-locked-error.js';

/** A lock this process holds. */
export interface DataLock {
  /** The lock file. */
  readonly path: string;
  /** Deletes the lock file, if it is still this lock's. Repeated calls release once. */
  release(): Promise<void>;
}

/**
 * Lock files this process holds. A lock with this process's PID that is not among them was left by an earlier
 * process that had the same PID, as a restarted container's server has.
 */
const held = new Set<string>();

/** Times a lock is looked at again before giving up: a stale lock taken over, a lock being written (see below). */
const ATTEMPTS = 4;
const RETRY_MS = 100;

const errno = (error: unknown) => (error as NodeJS.ErrnoException).code;

/**
 * A process's state (`Z`: a zombie) and start (clock ticks after boot) as Linux's `/proc` tells them; `undefined`
 * without `/proc` (macOS) or when it hides the process (`hidepid`).
 */
function procStat(pid: number): { state: string; start: string } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name, in parentheses, may hold spaces and parentheses: the fields follow its last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0]!, start: fields[19]! };
}

/** This process's start, as {@link procStat} tells it: in the lock, so that a PID reused later is told apart. */
const myStart = procStat(process.pid)?.start;

function isAlive(holder: LockHolder): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: it exists, under another user.
    if (errno(error) !== 'EPERM') return false;
  }
  const stat = procStat(holder.pid);
  if (!stat) return true;
  // A zombie exited: its parent has not reaped it yet. Another start: the PID is another process's now.
  return stat.state !== 'Z' && stat.state !== 'X' && (holder.started === undefined || holder.started === stat.start);
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (Number.isSafeInteger(value.pid) && value.pid! > 0 && typeof value.host === 'string') {
      const started = typeof value.started === 'string' ? { started: value.started } : {};
      return { pid: value.pid!, host: value.host, since: String(value.since), ...started };
    }
  } catch {
    // Not a lock this code wrote: judged below.
  }
  return undefined;
}

function isStale(holder: LockHolder, path: string): boolean {
  if (holder.host !== hostname()) return false;
  if (holder.pid === process.pid) return !held.has(path);
  return !isAlive(holder);
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (errno(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** Creates `path` with `text` unless it exists; false if it does. */
async function create(path: string, text: string, temp: string): Promise<boolean> {
  try {
    await link(temp, path);
    return true;
  } catch (error) {
    if (errno(error) === 'EEXIST') return false;
    // File systems without hard links: an exclusive create, whose content another process may briefly see empty.
    if (!['EPERM', 'ENOTSUP', 'ENOSYS', 'EXDEV'].includes(errno(error) ?? '')) throw error;
  }
  try {
    await writeNew(path, text);
    return true;
  } catch (error) {
    if (errno(error) === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Creates `path` with `text`, failing if it exists. A failed write deletes what it created: a full disk must not
 * keep a temporary file, nor take an empty lock for one.
 */
async function writeNew(path: string, text: string): Promise<void> {
  const handle = await open(path, 'wx');
  try {
    await handle.writeFile(text);
  } catch (error) {
    await handle.close();
    await unlink(path).catch(() => undefined);
    throw error;
  }
  await handle.close();
}

/**
 * Removes the stale lock `seen`, unless another process replaced it between our reading it and now: moving it
 * aside is atomic, so we can look at what we moved and put a fresh lock back.
 */
async function takeOver(path: string, seen: string): Promise<void> {
  const aside = join(dirname(path), `.${basename(path)}.${process.pid}.stale`);
  try {
    await rename(path, aside);
  } catch (error) {
    if (errno(error) === 'ENOENT') return;
    throw error;
  }
  if ((await readText(aside)) !== seen) {
    await link(aside, path).catch((error) => {
      if (errno(error) !== 'EEXIST') throw error;
    });
  }
  await unlink(aside);
}

/**
 * Who holds the lock `path` now, read without taking it: `undefined` when there is no lock, or a stale one (its
 * process is gone), or one unreadable (being written, or cut short: not judged here). For reading data that must
 * not be open elsewhere (`readJsonData`), which leaves the lock file as it finds it.
 */
export async function lockHolder(path: string): Promise<LockHolder | undefined> {
  const holder = parseHolder((await readText(path)) ?? '');
  return holder && !isStale(holder, path) ? holder : undefined;
}

/** Takes the lock `path` for this process. */
export async function lockData(path: string): Promise<DataLock> {
  const me: LockHolder = {
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
    ...(myStart === undefined ? {} : { started: myStart }),
  };
  const text = `${JSON.stringify(me)}\n`;
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  // A leftover of an earlier process with our PID is stale.
  await unlink(temp).catch(() => undefined);
  try {
    await writeNew(temp, text);
  } catch (error) {
    throw new StoreFileError(path, `cannot be created (${(error as Error).message})`, { cause: error });
  }
  try {
    for (let attempt = 1; !(await create(path, text, temp)); attempt++) {
      if (attempt > ATTEMPTS) {
        throw new StoreFileError(
          path,
          'is a lock file that cannot be taken over; delete it if no server uses the data',
        );
      }
      const seen = await readText(path);
      if (seen === undefined) continue;
      const holder = parseHolder(seen);
      if (holder && !isStale(holder, path)) throw new StoreLockedError(path, holder);
      // An unreadable lock may be being written (see `create`), or was cut short by a power loss: look again first.
      if (!holder && attempt < ATTEMPTS - 1) await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      else await takeOver(path, seen);
    }
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  held.add(path);
  let released: Promise<void> | undefined;
  return {
    path,
    release() {
      released ??= (async () => {
        held.delete(path);
        if ((await readText(path)) === text) await unlink(path);
      })();
      return released;
    },
  };
}
