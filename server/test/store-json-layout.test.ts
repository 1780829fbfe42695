import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seed } from '../src/seed/index.js';
import { COLLECTIONS } from '../src/store/collections.js';
import { createJsonStore } from '../src/store/json/json-file.js';
import { readJsonData } from '../src/store/json/json-read.js';
import { ROWS_PER_SHARD, shardOf } from '../src/store/json/json-shards.js';
import type { Dataset, StoredData, TokenRow } from '../src/store/types.js';
import { writeVersion1 } from './helpers/data-files.js';
import { useTempDir } from './helpers/temp-dir.js';

const tempDir = useTempDir();

function token(n: number): Omit<TokenRow, 'id'> {
  return { token_hash: `hash-${n}`, app_id: '1', user_id: '1', scopes: ['admin'], issued_at: n, expires_at: n + 1 };
}

const manifestOf = async (path: string) => JSON.parse(await readFile(path, 'utf8'));

/** Every collection's rows, each row once, in id order: the data whatever the layout. */
function contents(data: Partial<StoredData> | { all(name: string): readonly { id: string }[] }) {
  const rows = (name: (typeof COLLECTIONS)[number]) =>
    'all' in data && typeof data.all === 'function' ? data.all(name) : ((data as Partial<StoredData>)[name] ?? []);
  return Object.fromEntries(
    COLLECTIONS.map((name) => [
      name,
      [...rows(name)].sort((a, b) => Number(a.id) - Number(b.id) || a.id.localeCompare(b.id)),
    ]),
  );
}

describe('JSON-file store layout', () => {
  it('doubles the shards of a collection that outgrows them, and reads the new ones after a restart', async () => {
    const dir = await tempDir();
    const path = join(dir, 'db.json');
    const store = await createJsonStore(path, { sync: false });
    expect((await manifestOf(path)).shards.tokens).toBe(1);
    for (let n = 0; n <= ROWS_PER_SHARD; n++) await store.write((tx) => tx.insert('tokens', token(n)));
    const manifest = await manifestOf(path);
    expect(manifest.shards.tokens).toBe(4);
    expect(manifest.collections.tokens).toBe('db.tokens.4');
    const names = await readdir(dir);
    expect(names).toContain('db.tokens.4');
    expect(names).not.toContain('db.tokens.1');
    await store.write((tx) => tx.delete('tokens', '1'));
    await store.close();

    const reopened = await createJsonStore(path);
    expect(reopened.all('tokens')).toHaveLength(ROWS_PER_SHARD);
    expect(reopened.all('tokens')[0]).toMatchObject({ id: '2', token_hash: 'hash-1' });
    await reopened.close();
  });

  it('opens a clone of its data in git, which keeps no empty folder, and writes into the folders git left out', async () => {
    const dir = await tempDir();
    const data = join(dir, 'shop');
    await (await createJsonStore(join(data, 'db.json'), { initial: () => seed({ products: 4 }).dataset })).close();
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir });
    git('init', '-q');
    git('add', 'shop');
    git('commit', '-qm', 'the copy');
    git('clone', '-q', '.', 'clone');
    const clone = join(dir, 'clone', 'shop');
    const left = (await readdir(data)).filter((name) => !name.endsWith('.json'));
    const kept = await readdir(clone);
    // Without folders that git dropped, the test would show nothing.
    expect(left.filter((name) => !kept.includes(name))).toContain('db.tokens.1');

    expect(contents(await readJsonData(join(clone, 'db.json')))).toEqual(
      contents(await readJsonData(join(data, 'db.json'))),
    );
    const store = await createJsonStore(join(clone, 'db.json'));
    await store.write((tx) => tx.insert('tokens', token(1)));
    await store.close();
    const reopened = await createJsonStore(join(clone, 'db.json'));
    expect(reopened.all('tokens')).toMatchObject([{ token_hash: 'hash-1' }]);
    expect(reopened.all('products')).toHaveLength(4);
    await reopened.close();
  });

  it('refuses data whose collection of several shards lost its folder: rows, not an empty folder git left out', async () => {
    const dir = await tempDir();
    const path = join(dir, 'db.json');
    const tokens = Array.from({ length: 300 }, (_, n) => ({ ...token(n), id: String(n + 1) }));
    await (await createJsonStore(path, { initial: () => ({ tokens }), sync: false })).close();
    const { collections, shards } = await manifestOf(path);
    expect(shards.tokens).toBeGreaterThan(1);
    await rm(join(dir, collections.tokens), { recursive: true });
    await expect(createJsonStore(path)).rejects.toThrow(
      /db\.tokens\.\d+: is missing, though the manifest lists its \d+ shards/,
    );
  });

  it('moves a row added by hand to the wrong shard into its own at the start', async () => {
    const dir = await tempDir();
    const path = join(dir, 'db.json');
    const tokens = Array.from({ length: 300 }, (_, n) => ({ ...token(n), id: String(n + 1) }));
    await (await createJsonStore(path, { initial: () => ({ tokens }), sync: false })).close();
    const count = (await manifestOf(path)).shards.tokens;
    const home = shardOf('by-hand', count);
    const elsewhere = (home + 1) % count;
    const file = join(dir, `db.tokens.${count}`, `${elsewhere}.json`);
    const rows = JSON.parse(await readFile(file, 'utf8'));
    await writeFile(file, JSON.stringify([...rows, { ...token(999), id: 'by-hand' }]));

    const store = await createJsonStore(path, { sync: false });
    expect(store.get('tokens', 'by-hand')?.token_hash).toBe('hash-999');
    await store.write((tx) => tx.update('tokens', 'by-hand', { revoked_at: 1 }));
    await store.close();
    const reopened = await createJsonStore(path, { sync: false });
    expect(reopened.get('tokens', 'by-hand')?.revoked_at).toBe(1);
    expect(reopened.all('tokens')).toHaveLength(301);
    await reopened.close();
  });

  it('migrates data of format version 1 to the current layout, losing nothing', async () => {
    const dir = await tempDir();
    const path = join(dir, 'db.json');
    const { dataset } = seed({ products: 40, orders: 12 });
    const data: Dataset = {
      ...dataset,
      tokens: Array.from({ length: 700 }, (_, n) => ({ ...token(n), id: String(n + 1) })),
      files: dataset.files.slice(0, 3),
    };
    await writeVersion1(path, data);

    const store = await createJsonStore(path, { initial: () => ({}) });
    expect(store.created).toBe(false);
    expect(contents(store)).toEqual(contents(data));
    // New rows continue the sequences.
    expect((await store.write((tx) => tx.insert('tokens', token(700)))).id).toBe('701');
    await store.close();

    const manifest = await manifestOf(path);
    expect(manifest).toMatchObject({
      version: 2,
      collections: { users: 'db.users.json', templates: 'db.templates', files: 'db.files', tokens: 'db.tokens.8' },
      shards: { tokens: 8 },
    });
    const names = await readdir(dir);
    for (const gone of ['db.templates.json', 'db.tokens.json', 'db.products.json', 'db.themes.json']) {
      expect(names).not.toContain(gone);
    }
    const reopened = await createJsonStore(path);
    expect(contents(reopened)).toEqual(contents({ ...data, tokens: [...data.tokens, { ...token(700), id: '701' }] }));
    await reopened.close();
  });

  it('redoes a migration that a crash interrupted before its manifest, and drops what a doubling left', async () => {
    const dir = await tempDir();
    const path = join(dir, 'db.json');
    const { dataset } = seed({ products: 10 });
    await writeVersion1(path, dataset);
    // Half of a migration: some new files, the manifest still at version 1.
    await mkdir(join(dir, 'db.templates'));
    await writeFile(join(dir, 'db.templates', '1.json'), '{"id": "1", "body": "half written"}');
    await mkdir(join(dir, 'db.products.2'));
    await writeFile(join(dir, 'db.products.2', '0.json'), '[]');

    const store = await createJsonStore(path);
    expect(contents(store)).toEqual(contents(dataset));
    await store.close();
    // A doubling cut short after its new directory was written, before the manifest named it.
    await mkdir(join(dir, 'db.tokens.64'));
    const reopened = await createJsonStore(path);
    expect(contents(reopened)).toEqual(contents(dataset));
    await reopened.close();
    const names = await readdir(dir);
    expect(names.filter((name) => /^db\.(products|tokens)\.\d+$/.test(name))).toEqual(['db.products.1', 'db.tokens.1']);
  });
});
