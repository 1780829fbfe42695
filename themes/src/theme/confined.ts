/**
 * Reads and writes confined to the theme folder. A path is `/`-separated, relative to the folder, and every level
 * of it below the folder is looked at with `lstat`: a symbolic link anywhere on the way (the file itself, or a
 * folder of it) is refused, never followed, so that neither a hostile server's names nor a link someone left in
 * the folder (`partials/leak.html → /etc/passwd`) makes the tool read or write outside it. The folder itself may
 * be a link: the user chose it.
 *
 * The checks and the open are separate calls, so a process that swaps a folder for a link in between could still
 * win; the file itself is opened with O_NOFOLLOW (and read only if it is still the file checked), and written
 * through a new temporary file renamed over it (a rename replaces a link, it does not write through it).
 *
 * The checks and reads are synchronous system calls: on a theme's small files each takes microseconds, where the
 * same call through the thread pool costs a round trip and a promise several times that (a full push of 400 files
 * made some 2 400 of them). A read waits on nothing but the disk: a FIFO is opened without waiting, then refused.
 */
import type { Stats } from 'node:fs';
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import { type FileHandle, mkdir, open, rename, rm, rmdir } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { CliError } from '../errors.js';
import { printable } from '../printable.js';

/** A path the tool will not read or write through: a symbolic link on the way, or not inside the folder. */
export class UnsafePathError extends CliError {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`${printable(path)}: ${reason}`);
    this.name = 'UnsafePathError';
  }
}

/** A file larger than the API takes: left unread, so that no size makes the tool run out of memory. */
export class FileTooLargeError extends CliError {
  constructor(
    readonly path: string,
    readonly size: number,
    readonly limit: number,
  ) {
    super(`${printable(path)}: ${size} bytes, over the API's limit of ${limit} bytes for this file: not read`);
    this.name = 'FileTooLargeError';
  }
}

/**
 * The open flag that refuses a symbolic link as the file itself (ELOOP). Not defined on Windows, which has no such
 * flag (nor symbolic links a user makes without privileges).
 */
export const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * Opens without waiting: a FIFO put in a file's place since it was checked would otherwise hold the read until
 * someone writes to it. No effect on a regular file.
 */
const NONBLOCK = constants.O_NONBLOCK ?? 0;

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** `lstat`, `undefined` when nothing is there. */
function lstatOrNothing(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** `path` inside `dir` on disk, refused unless it is a plain relative path that stays below `dir`. */
function placed(dir: string, path: string): string {
  const segments = path.split('/');
  const plain = segments.every((s) => s !== '' && s !== '.' && s !== '..' && !/[\\\0]/.test(s));
  const target = resolve(dir, ...segments);
  if (!plain || !target.startsWith(resolve(dir) + sep)) throw new UnsafePathError(path, 'not a path inside the folder');
  return target;
}

/**
 * What lies at `path` in `dir` (`undefined`: nothing, or a folder on the way missing), after checking that no
 * level of it is a symbolic link (an {@link UnsafePathError}) and that each folder on the way is one.
 */
export async function lstatInside(dir: string, path: string): Promise<Stats | undefined> {
  placed(dir, path);
  const segments = path.split('/');
  for (let level = 1; level <= segments.length; level++) {
    const at = segments.slice(0, level).join('/');
    const info = lstatOrNothing(join(dir, at));
    if (!info) return undefined;
    if (info.isSymbolicLink()) throw new UnsafePathError(path, `${at} is a symbolic link: ignored, not followed`);
    if (level < segments.length && !info.isDirectory()) throw new UnsafePathError(path, `${at} is not a folder`);
    if (level === segments.length) return info;
  }
  return undefined;
}

/**
 * The bytes of `path` in `dir`, `undefined` when it is gone; never through a symbolic link. A file of more than
 * `maxBytes` is a {@link FileTooLargeError}, told by its size before a byte is read.
 */
export async function readInside(dir: string, path: string, maxBytes = Infinity): Promise<Buffer | undefined> {
  const info = await lstatInside(dir, path);
  if (!info) return undefined;
  if (!info.isFile()) throw new UnsafePathError(path, 'not a file');
  if (info.size > maxBytes) throw new FileTooLargeError(path, info.size, maxBytes);
  let fd: number;
  try {
    fd = openSync(placed(dir, path), constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  try {
    // What was opened must be the file checked, not one swapped in since (through a folder made a link meanwhile).
    const opened = fstatSync(fd);
    if (opened.dev !== info.dev || opened.ino !== info.ino) {
      throw new UnsafePathError(path, 'replaced while it was opened: not read');
    }
    return readAtMost(fd, path, opened.size, maxBytes);
  } finally {
    closeSync(fd);
  }
}

/**
 * The whole of an open file of `size` bytes when checked, unless it has grown past `maxBytes` since: the buffer
 * grows with the file, never past one byte more than allowed (which tells a file over the limit).
 */
function readAtMost(fd: number, path: string, size: number, maxBytes: number): Buffer {
  let buffer = Buffer.alloc(Math.min(size, maxBytes) + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.byteLength) {
      if (length > maxBytes) throw new FileTooLargeError(path, fstatSync(fd).size, maxBytes);
      const grown = Buffer.alloc(Math.min(2 * length, maxBytes + 1));
      buffer.copy(grown);
      buffer = grown;
    }
    const asked = buffer.byteLength - length;
    const bytesRead = readSync(fd, buffer, length, asked, null);
    length += bytesRead;
    // A regular file reads short only at its end: no read more to learn it.
    if (bytesRead < asked) return buffer.subarray(0, length);
  }
}

/** Options of {@link writeInside}. */
export interface WriteInsideOptions {
  /**
   * Whether a file already there may be replaced: the manifest tracks it, or `--force`. Otherwise a file there is
   * someone's own, never overwritten.
   */
  replace: boolean;
  /**
   * Flush the file to the disk before it is renamed into place, so that a crash cannot leave it empty under its
   * name (the manifest: an empty one reads as damaged). Not needed for a theme file, which the next pull restores.
   */
  sync?: boolean;
}

/** Tells apart the temporary files of concurrent writes. */
let written = 0;

/**
 * Writes `path` in `dir` through a new temporary sibling and a rename, so that an editor or `watch` never sees it
 * half written, creating its folder when missing; never through a symbolic link, never over a file unless
 * `replace`.
 */
export async function writeInside(
  dir: string,
  path: string,
  data: string | Uint8Array,
  options: WriteInsideOptions,
): Promise<void> {
  const target = placed(dir, path);
  const there = await lstatInside(dir, path);
  if (there && !there.isFile()) throw new UnsafePathError(path, 'not a file');
  if (there && !options.replace) {
    throw new UnsafePathError(path, 'a file the manifest does not track is there: left alone (--force replaces it)');
  }
  const temporary = join(dirname(target), `.${process.pid}.${++written}.tmp`);
  const handle = await openTemporary(dir, path, temporary);
  try {
    try {
      await handle.writeFile(data);
      if (options.sync) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * Makes the folder of `path` and creates `temporary` in it. Once more when the folder is gone in between: a
 * removal of its last file (a rename on the server, pulled in parallel) removes the folder it has just found.
 */
async function openTemporary(dir: string, path: string, temporary: string): Promise<FileHandle> {
  for (let attempt = 1; ; attempt++) {
    try {
      await mkdir(dirname(temporary), { recursive: true });
      // The folder just made (or found) must still be no link before a byte goes into it.
      await lstatInside(dir, path);
      return await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o644);
    } catch (error) {
      if (attempt > 1 || !isMissing(error)) throw error;
    }
  }
}

/**
 * Removes the file `path` in `dir`, then its folder if that left it empty (a theme folder holds no empty folders
 * of its own); a symbolic link there is refused, not removed.
 */
export async function removeInside(dir: string, path: string): Promise<void> {
  const info = await lstatInside(dir, path);
  if (!info) return;
  if (!info.isFile()) throw new UnsafePathError(path, 'not a file');
  await rm(placed(dir, path), { force: true });
  const parent = dirname(path);
  if (parent !== '.') await rmdir(join(dir, parent)).catch(() => {});
}
