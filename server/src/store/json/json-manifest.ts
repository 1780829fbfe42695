/**
 * The manifest, `<dir>/<stem>.json`: what the data is, in which format version, and where each collection's
 * files are. It is the commit point of every change of layout (creation, migration, shards doubling): written
 * last, once the files it names are on disk, so that a crash before it leaves the previous layout in use.
 */
import { readFile } from 'node:fs/promises';
import { Low } from 'lowdb';
import { StoreFileError } from '../errors.js';
import type { CollectionName } from '../types.js';
import { type Durability, DurableJSONFile } from './durable-file.js';
import { layoutOf, VERSION } from './json-layout.js';

export const FORMAT = 'storefront-data';
/** Far more than 256 million rows need. */
const MAX_SHARDS = 2 ** 20;

export interface Manifest {
  format: typeof FORMAT;
  version: number;
  /** Collection → its file or directory next to the manifest. */
  collections: Partial<Record<CollectionName, string>>;
  /** Since version 2: collection in shards → how many. */
  shards?: Partial<Record<CollectionName, number>>;
}

/**
 * The manifest at `path`, checked; `null` when there is none. `readOnly`: for data read without opening it, whose
 * errors suggest no fix that writes.
 */
export async function readManifest(path: string, readOnly = false): Promise<Manifest | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new StoreFileError(path, `cannot read the data file (${(error as Error).message})`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const fix = readOnly ? '' : '; fix or remove it, or start with reset';
    throw new StoreFileError(path, `not valid JSON (${(error as Error).message})${fix}`, { cause: error });
  }
  const manifest = value as Partial<Manifest> | null;
  if (manifest?.format !== FORMAT || typeof manifest.collections !== 'object' || manifest.collections === null) {
    const fix = readOnly
      ? ': not data of storefront-server'
      : '; refusing to overwrite it (use another path, or reset)';
    throw new StoreFileError(path, `not a ${FORMAT} manifest${fix}`);
  }
  const { version } = manifest;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1 || version > VERSION) {
    throw new StoreFileError(
      path,
      `data format version ${version} is not supported (this server reads 1 to ${VERSION}; a newer one wrote it?)`,
    );
  }
  for (const [name, file] of Object.entries(manifest.collections)) {
    // The manifest names files next to it only: no path separators, so it cannot point elsewhere.
    if (typeof file !== 'string' || !/^[\w.-]+$/.test(file) || /^\.+$/.test(file)) {
      throw new StoreFileError(path, `collection "${name}" has an invalid file name`);
    }
    const count = manifest.shards?.[name as CollectionName];
    const sharded = Object.hasOwn(manifest.collections, name) && layoutOf(version, name as CollectionName) === 'shards';
    if (
      sharded &&
      !(Number.isSafeInteger(count) && count! > 0 && count! <= MAX_SHARDS && (count! & (count! - 1)) === 0)
    ) {
      throw new StoreFileError(
        path,
        `collection "${name}" needs its number of shards, a power of two up to ${MAX_SHARDS}`,
      );
    }
  }
  return manifest as Manifest;
}

/** Writes of the manifest at `path`, one after the other. */
export class ManifestFile {
  private readonly file: Low<Manifest | null>;

  constructor(
    private readonly path: string,
    durability: Durability,
  ) {
    this.file = new Low<Manifest | null>(new DurableJSONFile(path, durability), null);
  }

  async save(manifest: Manifest): Promise<void> {
    this.file.data = manifest;
    try {
      await this.file.write();
    } catch (error) {
      throw new StoreFileError(this.path, `cannot write (${(error as Error).message})`, { cause: error });
    }
  }
}
