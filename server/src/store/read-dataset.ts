/**
 * `readDataset(dir)`: the data of a JSON data directory as a plain {@link Dataset}, for `createHandlers({ data })`
 * in Node, or to write as one JSON file for a browser test's bundle.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DATA_FILE_NAME } from '../data-path.js';
import { datasetOf } from './collections.js';
import { StoreFileError } from './errors.js';
import { readJsonData } from './json/json-read.js';
import type { Dataset } from './types.js';

async function kindOf(path: string): Promise<'directory' | 'file' | undefined> {
  try {
    return (await stat(path)).isDirectory() ? 'directory' : 'file';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StoreFileError(path, `cannot be read (${(error as Error).message})`, { cause: error });
  }
}

/**
 * The data of the JSON data directory `dir` (the folder `storefront-server --data DIR` uses, or its manifest
 * `DIR/db.json`; any data format version the server reads), as a plain data set: every collection of data, the
 * sandbox's fault rules and clock aside. A write that a crash interrupted is completed in the copy returned, as a
 * server's start would complete it.
 *
 * The directory is only read: no lock is taken and no file changes, so it may be a data set kept in git. It must
 * not be open in a running server meanwhile: that rejects with a `StoreLockedError` (stop the server, or read a
 * copy). A missing directory, one without data, or a file that is not the store's, rejects with a
 * `StoreFileError` naming it.
 *
 * The data set holds what the mock needs to act as the shop, secrets of the sandbox included: the demo app's
 * client secret and the users' password hashes.
 *
 * @example
 * const mock = createHandlers({ data: await readDataset('test/shop-data') });
 */
export async function readDataset(dir: string): Promise<Dataset> {
  const kind = await kindOf(dir);
  if (kind === undefined) throw new StoreFileError(dir, 'does not exist: give the folder of a data set');
  const path = kind === 'directory' ? join(dir, DATA_FILE_NAME) : dir;
  if (kind === 'directory' && (await kindOf(path)) !== 'file') {
    throw new StoreFileError(dir, `holds no data set: ${DATA_FILE_NAME}, the manifest of the data, is not in it`);
  }
  return datasetOf(await readJsonData(path));
}
