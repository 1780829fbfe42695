/** The theme folder on disk: what it holds, and the reads and writes of its files. */
import { mkdir, readdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { UsageError } from '../errors.js';
import { md5 } from './digest.js';
import { fileAt, isSkipped, type ThemeFileId } from './layout.js';

/** A theme file in the folder, with the digest of its bytes. */
export interface LocalFile extends ThemeFileId {
  md5: string;
}

/** What a folder holds. */
export interface LocalScan {
  /** By path. */
  files: Map<string, LocalFile>;
  /** Paths that look like theme files but whose names the API would refuse; left alone. */
  invalid: string[];
}

/** Throws a usage error unless `dir` is an existing folder. */
async function assertFolder(dir: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (!info) throw new UsageError(`${dir} does not exist`);
  if (!info.isDirectory()) throw new UsageError(`${dir} is not a folder`);
}

/** The theme files below `dir` (hidden entries and `node_modules` skipped), each read once for its digest. */
export async function scanFolder(dir: string): Promise<LocalScan> {
  await assertFolder(dir);
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = new Map<string, LocalFile>();
  const invalid: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const path = relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/');
    if (path.split('/').some(isSkipped)) continue;
    const file = fileAt(path);
    if (file === 'invalid') invalid.push(path);
    else if (file) files.set(path, { ...file, md5: md5(await readFile(join(dir, path))) });
  }
  return { files, invalid: invalid.sort() };
}

/** A file's bytes, `undefined` when it is gone. */
export async function readLocal(dir: string, path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(join(dir, path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Tells apart the temporary files of concurrent writes. */
let written = 0;

/**
 * Writes a file through a temporary sibling and a rename, so that an editor or `watch` never sees it half
 * written. Paths come from the server's file names, which the API's alphabet keeps inside the folder.
 */
export async function writeLocal(dir: string, path: string, data: string | Uint8Array): Promise<void> {
  const target = join(dir, path);
  await mkdir(dirname(target), { recursive: true });
  const temporary = join(dirname(target), `.${process.pid}.${++written}.tmp`);
  await writeFile(temporary, data);
  await rename(temporary, target);
}

/** Removes a file, then its folder if that left it empty (a theme folder holds no empty folders of its own). */
export async function removeLocal(dir: string, path: string): Promise<void> {
  await rm(join(dir, path), { force: true });
  const parent = dirname(path);
  if (parent !== '.') await rmdir(join(dir, parent)).catch(() => {});
}
