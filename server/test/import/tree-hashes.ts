import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

/** Every file under `dir`, its path relative to `dir` → the SHA-256 of its bytes, in path order. */
export async function treeHashes(dir: string): Promise<Record<string, string>> {
  const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
  const pairs = await Promise.all(
    files.map(async (entry) => {
      const path = join(entry.parentPath, entry.name);
      return [
        relative(dir, path),
        createHash('sha256')
          .update(await readFile(path))
          .digest('hex'),
      ] as const;
    }),
  );
  return Object.fromEntries(pairs.sort(([a], [b]) => (a < b ? -1 : 1)));
}
