/**
 * `readDataset(dir)`: a JSON data directory read as the store would load it, without opening it (no lock, no file
 * changed), and handed to `createHandlers({ data })`.
 */
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readDataset, StoreFileError, StoreLockedError } from '@storefront-platform/server';
import { createHandlers } from '@storefront-platform/server/msw';
import { describe, expect, test } from 'vitest';
import { seed } from '../../src/seed/index.js';
import { createJsonStore } from '../../src/store/json/json-file.js';
import { journalText } from '../../src/store/json/json-journal.js';
import { shardOf } from '../../src/store/json/json-shards.js';
import type { Dataset } from '../../src/store/types.js';
import { writeVersion1 } from '../helpers/data-files.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { fileHashes as hashes } from './file-hashes.js';

const tempDir = useTempDir();

/** A data directory holding `dataset`, written by the store and closed. */
async function dataDir(dataset: Dataset): Promise<string> {
  const dir = await tempDir();
  const store = await createJsonStore(join(dir, 'db.json'), { sync: false, initial: () => dataset });
  await store.close();
  return dir;
}

const demo = () => seed({ seed: 3, products: 200, orders: 20, clientSecret: 'read-test-secret', password: 'pw' });

describe('readDataset', () => {
  test('reads every collection of a data directory as the store wrote it, the directory given or its manifest', async () => {
    const { dataset } = demo();
    const dir = await dataDir(dataset);
    const read = await readDataset(dir);
    expect(read).toEqual(dataset);
    expect(await readDataset(join(dir, 'db.json'))).toEqual(read);
  });

  test('changes no file and takes no lock, even where a start would tidy or complete something', async () => {
    const { dataset } = demo();
    const dir = await dataDir(dataset);
    // What a crash leaves, which the store's next start would tidy: a temporary file, a row in another shard
    // than its own (as added by hand), and a journal holding a write whose files were not all replaced.
    const shards = (await readdir(dir)).find((name) => name.startsWith('db.products.'))!;
    const count = Number(shards.split('.').at(-1));
    expect(count).toBeGreaterThan(1);
    await writeFile(join(dir, shards, '.0.json.123.tmp'), 'half a write');
    const moved = dataset.products.find((product) => shardOf(product.id, count) === 0)!;
    const home = JSON.parse(await readFile(join(dir, shards, '0.json'), 'utf8')) as { id: string }[];
    const other = JSON.parse(await readFile(join(dir, shards, '1.json'), 'utf8')) as { id: string }[];
    await writeFile(join(dir, shards, '0.json'), JSON.stringify(home.filter((row) => row.id !== moved.id)));
    await writeFile(join(dir, shards, '1.json'), JSON.stringify([...other, moved]));
    const renamed = { ...dataset.templates[0]!, body: '<p>from the journal</p>' };
    await writeFile(join(dir, 'db.journal.json'), `${journalText({ templates: [[renamed.id, renamed]] })}\n`);
    const before = await hashes(dir);

    const read = await readDataset(dir);
    expect(await hashes(dir)).toEqual(before);
    expect(Object.keys(before).some((path) => path.endsWith('.lock'))).toBe(false);
    // The journal's write is completed in the copy, as a start would complete it on disk.
    expect(read.templates.find((row) => row.id === renamed.id)?.body).toBe('<p>from the journal</p>');
    expect(read.products.find((row) => row.id === moved.id)).toEqual(moved);
    expect(read.products).toHaveLength(dataset.products.length);
  });

  test('reads data of format version 1', async () => {
    const { dataset } = seed({ seed: 4, products: 20, orders: 3 });
    const dir = await tempDir();
    await writeVersion1(join(dir, 'db.json'), dataset);
    const before = await hashes(dir);
    expect(await readDataset(dir)).toEqual(dataset);
    expect(await hashes(dir)).toEqual(before);
  });

  test('a missing directory, one without data, or a file that is not a manifest is a StoreFileError naming it', async () => {
    const dir = await tempDir();
    const missing = join(dir, 'no-such-dir');
    await expect(readDataset(missing)).rejects.toThrow(StoreFileError);
    await expect(readDataset(missing)).rejects.toThrow(`${missing}: does not exist: give the folder of a data set`);
    await mkdir(join(dir, 'empty'));
    await expect(readDataset(join(dir, 'empty'))).rejects.toThrow(
      `${join(dir, 'empty')}: holds no data set: db.json, the manifest of the data, is not in it`,
    );
    await writeFile(join(dir, 'db.json'), JSON.stringify({ name: 'an app', version: '1.0.0' }));
    await expect(readDataset(dir)).rejects.toThrow(
      `${join(dir, 'db.json')}: not a storefront-data manifest: not data of storefront-server`,
    );
    await writeFile(join(dir, 'db.json'), '{ "format": "storefront-data",');
    await expect(readDataset(dir)).rejects.toThrow(/db\.json: not valid JSON \(.+\)$/);
    expect(await readdir(dir)).toEqual(['db.json', 'empty']);
  });

  test('a collection file the manifest lists but that is gone is a StoreFileError naming it', async () => {
    const dir = await dataDir(seed({ products: 3, orders: 0 }).dataset);
    await rename(join(dir, 'db.users.json'), join(dir, 'users.bak'));
    await expect(readDataset(dir)).rejects.toThrow(
      `${join(dir, 'db.users.json')}: is missing, though the manifest lists it`,
    );
  });

  test('refuses data a server has open, whose writes could land between two reads', async () => {
    const dir = await dataDir(seed({ products: 3, orders: 0 }).dataset);
    const store = await createJsonStore(join(dir, 'db.json'), { sync: false });
    try {
      await expect(readDataset(dir)).rejects.toThrow(StoreLockedError);
    } finally {
      await store.close();
    }
    expect((await readDataset(dir)).products).toHaveLength(3);
  });

  test('feeds createHandlers({ data }), whose reset() returns to the data read', async () => {
    const { dataset } = demo();
    const mock = createHandlers({ data: await readDataset(await dataDir(dataset)) });
    expect(mock.credentials).toMatchObject({ clientSecret: 'read-test-secret', password: undefined });
    const product = dataset.products[0]!;
    await mock.store.write((tx) => tx.update('products', product.id, { title: 'Changed by a test' }));
    await mock.store.write((tx) => tx.delete('orders', dataset.orders[0]!.id));
    mock.reset();
    expect(mock.store.get('products', product.id)).toEqual(product);
    expect(mock.store.all('orders')).toEqual(dataset.orders);
  });
});
