/**
 * JSON files that hold secrets (the app's client secret, the user's token): created with mode 0600 in a folder
 * of mode 0700, written through a temporary file and a rename so that a reader never sees half a token.
 */

import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** The parsed file, `undefined` when it does not exist. */
export async function readPrivate<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export async function writePrivate(path: string, value: unknown): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // `mode` of mkdir does not apply to a folder that existed, nor past the umask.
  await chmod(dir, 0o700);
  // Unique per write: two writes of one file at once (a token renewed while a login saves it) each rename
  // their own complete file, the later one winning, instead of one renaming the other's half-written file.
  const temporary = `${path}.${process.pid}.${randomUUID()}.tmp`;
  await writeFile(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, path);
}

/** Deletes the file; whether it existed. */
export async function removePrivate(path: string): Promise<boolean> {
  try {
    await unlink(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
