import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { COLLECTIONS } from '../../src/store/collections.js';
import { createJsonStore } from '../../src/store/json/json-file.js';
import type { CollectionName, Collections, StoredData } from '../../src/store/types.js';

/** The rows of `collection` in the data at `path`, read by opening it (so only while no server has it open). */
export async function storedRows<C extends CollectionName>(path: string, collection: C): Promise<Collections[C][]> {
  const store = await createJsonStore(path, { sync: false });
  try {
    return [...store.all(collection)];
  } finally {
    await store.close();
  }
}

/**
 * Writes `data` at `path` as the version 1 format laid it out, the way its code wrote it: the manifest naming one
 * JSON array file per collection, asset bytes as one file per row in `db.files/`.
 */
export async function writeVersion1(path: string, data: Partial<StoredData>): Promise<void> {
  const dir = dirname(path);
  const stem = path.slice(dir.length + 1).replace(/\.json$/, '');
  await mkdir(join(dir, `${stem}.files`), { recursive: true });
  const collections = Object.fromEntries(
    COLLECTIONS.map((name) => [name, name === 'files' ? `${stem}.files` : `${stem}.${name}.json`]),
  );
  for (const name of COLLECTIONS) {
    const rows = data[name] ?? [];
    if (name !== 'files') await writeFile(join(dir, collections[name]!), JSON.stringify(rows, null, 2));
  }
  for (const row of data.files ?? []) {
    await writeFile(join(dir, `${stem}.files`, `${row.id}.json`), JSON.stringify(row, null, 2));
  }
  await writeFile(path, JSON.stringify({ format: 'storefront-data', version: 1, collections }, null, 2));
}
