/** What `check` reads: a theme folder's files (as push would send them), or a theme's files on the server. */

import type { CheckedFile, CheckInput } from './check.js';
import { readInside } from './confined.js';
import type { FileFilter } from './file-filter.js';
import { fileAt, MAX_FILE_NAME_LENGTH } from './layout.js';
import { limitOf, scanFolder } from './local.js';
import type { RemoteFile } from './remote.js';

/** Why the API refuses the name of the file at `path` (a path the folder's scan found invalid). */
export function nameProblem(path: string): string {
  const name = path.startsWith('assets/') ? path.slice('assets/'.length) : path;
  if (name.length > MAX_FILE_NAME_LENGTH) return `longer than ${MAX_FILE_NAME_LENGTH} characters`;
  if (name.split('/').length > 2) return 'more than one folder level (e.g. "partials/cart.html")';
  return 'only letters, digits, ".", "_", "-" and one "/" are allowed';
}

/** The files of a theme folder that `filter` keeps, each read once. */
export async function folderCheckInput(dir: string, filter: FileFilter): Promise<CheckInput> {
  const scan = await scanFolder(dir);
  const files: CheckedFile[] = [];
  for (const file of scan.files.values()) {
    if (!filter(file.path)) continue;
    const bytes = await readInside(dir, file.path, limitOf(file.kind));
    if (!bytes) continue;
    files.push({
      kind: file.kind,
      name: file.name,
      path: file.path,
      size: bytes.byteLength,
      ...(file.kind === 'template' ? { text: bytes.toString('utf8') } : { bytes }),
    });
  }
  // Told by their size, never read: the size rule reports them.
  for (const { path, size } of scan.oversize) {
    const file = fileAt(path);
    if (file && file !== 'invalid' && filter(path)) files.push({ kind: file.kind, name: file.name, path, size });
  }
  const refusedNames = scan.invalid.filter(filter).map((path) => ({ path, reason: nameProblem(path) }));
  return { files, refusedNames };
}

const encoder = new TextEncoder();

/** The files of a theme as the server holds them (templates with their bodies, assets with their sizes). */
export function themeCheckInput(files: ReadonlyMap<string, RemoteFile>): CheckInput {
  return {
    files: [...files.values()].map((file): CheckedFile => {
      const { kind, name, path } = file;
      if (file.kind === 'template') {
        const text = file.entity.properties.body;
        return { kind, name, path, size: encoder.encode(text).byteLength, text };
      }
      return { kind, name, path, size: Number(file.entity.properties.file_size) || 0 };
    }),
  };
}
