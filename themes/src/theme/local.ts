/**
 * What the theme folder holds. Its files are read through `confined.ts`, which never follows a symbolic link: a
 * link is listed as ignored, neither read nor taken for a file deleted here.
 */
import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { UsageError } from '../errors.js';
import { FileTooLargeError, readInside, UnsafePathError } from './confined.js';
import { md5 } from './digest.js';
import { fileAt, isSkipped, type ThemeFileId } from './layout.js';
import { MAX_ASSET_BYTES, MAX_TEMPLATE_BYTES } from './limits.js';

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
  /**
   * Symbolic links (to files or folders), by path: ignored, never followed; a file behind one is neither here nor
   * deleted here.
   */
  links: string[];
  /**
   * Theme files larger than the API takes, by path: told by their size, never read. Neither sent nor, for a file
   * the last pull recorded, taken for deleted here.
   */
  oversize: OversizeFile[];
}

/** A file over the API's limit for its kind. */
export interface OversizeFile {
  path: string;
  /** Its size, in bytes. */
  size: number;
  /** The API's limit for a file of its kind, in bytes. */
  limit: number;
}

/** The API's size limit for a file of `kind`, in bytes. */
export function limitOf(kind: ThemeFileId['kind']): number {
  return kind === 'template' ? MAX_TEMPLATE_BYTES : MAX_ASSET_BYTES;
}

/**
 * Whether the folder says nothing about `path`: one of the scan's links or in a linked folder, or a file too large
 * to read.
 */
export function isUnread(scan: Pick<LocalScan, 'links' | 'oversize'>, path: string): boolean {
  return (
    scan.links.some((link) => path === link || path.startsWith(`${link}/`)) ||
    scan.oversize.some((file) => file.path === path)
  );
}

/** Throws a usage error unless `dir` is an existing folder. */
export async function assertFolder(dir: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (!info) throw new UsageError(`${dir} does not exist`);
  if (!info.isDirectory()) throw new UsageError(`${dir} is not a folder`);
}

/**
 * The theme files below `dir` (hidden entries and `node_modules` skipped), each read once for its digest unless its
 * size is over the API's limit. `read`, when given, is handed each file with its bytes (a push keeps those of the
 * files it will send, rather than reading them a second time).
 */
export async function scanFolder(dir: string, read?: (file: LocalFile, bytes: Uint8Array) => void): Promise<LocalScan> {
  await assertFolder(dir);
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = new Map<string, LocalFile>();
  const invalid: string[] = [];
  const links: string[] = [];
  const oversize: OversizeFile[] = [];
  const toRead: ThemeFileId[] = [];
  for (const entry of entries) {
    const path = relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/');
    if (path.split('/').some(isSkipped)) continue;
    // readdir does not descend into a linked folder: listing the link is enough.
    if (entry.isSymbolicLink()) links.push(path);
    if (!entry.isFile()) continue;
    const file = fileAt(path);
    if (file === 'invalid') invalid.push(path);
    else if (file) toRead.push(file);
  }
  // One after the other: each read is a few synchronous system calls (see confined.ts), nothing to overlap.
  for (const file of toRead) {
    const { path } = file;
    try {
      // Gone since the listing: gone it is.
      const bytes = await readInside(dir, path, limitOf(file.kind));
      if (!bytes) continue;
      const local = { ...file, md5: md5(bytes) };
      files.set(path, local);
      read?.(local, bytes);
    } catch (error) {
      if (error instanceof FileTooLargeError) oversize.push({ path, size: error.size, limit: error.limit });
      // Replaced by a link since the listing: a link it is.
      else if (error instanceof UnsafePathError) links.push(path);
      else throw error;
    }
  }
  oversize.sort((a, b) => (a.path < b.path ? -1 : 1));
  return { files, invalid: invalid.sort(), links: links.sort(), oversize };
}

/**
 * The files of `dir` whose paths equal `path` but for case, as the folder lists them (`path` itself among them when
 * it is there under that very name): one file on a disk that ignores case (macOS, Windows), two elsewhere.
 * `listings` keeps each folder's listing for the next call. Only names are read.
 */
export async function sameButForCase(
  dir: string,
  path: string,
  listings = new Map<string, Promise<string[]>>(),
): Promise<string[]> {
  const list = (folder: string) => {
    let names = listings.get(folder);
    if (!names) {
      names = readdir(join(dir, folder)).catch(() => []);
      listings.set(folder, names);
    }
    return names;
  };
  let found = [''];
  for (const segment of path.toLowerCase().split('/')) {
    const next: string[] = [];
    for (const folder of found) {
      for (const name of await list(folder)) {
        if (name.toLowerCase() === segment) next.push(folder ? `${folder}/${name}` : name);
      }
    }
    found = next;
  }
  return found;
}
