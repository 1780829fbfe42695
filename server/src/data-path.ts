/**
 * Where `--data` points the JSON store. The store keeps a manifest file (`db.json`) and its collections' files
 * beside it, so people often name the folder rather than the file: a directory (an existing one, or a path
 * written with a trailing slash) is taken as the data directory, with its manifest `db.json` inside.
 */
import { statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';

/** The manifest's name inside a data directory given as `--data DIR`. */
export const DATA_FILE_NAME = 'db.json';

/** The data file for `--data given`: `given` itself, or `given/db.json` when it names a directory. */
export function dataFilePath(given: string): string {
  const path = resolve(given);
  if (given.endsWith('/') || given.endsWith(sep)) return join(path, DATA_FILE_NAME);
  try {
    return statSync(path).isDirectory() ? join(path, DATA_FILE_NAME) : path;
  } catch {
    // Missing (created at start) or unreadable (the store says why): the path as given.
    return path;
  }
}
