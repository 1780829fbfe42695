import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StoreFileError } from '../src/store/errors.js';
import { createJsonStore } from '../src/store/json/json-file.js';
import { shardOf } from '../src/store/json/json-shards.js';
import type { TemplateRow, TokenRow } from '../src/store/types.js';
import { useTempDir } from './helpers/temp-dir.js';

const tempDir = useTempDir();

function template(id: string, body = 'x'): TemplateRow {
  return { id, theme_id: '1', file_name: `t${id}.html`, body, created_on: '', updated_on: '' };
}

function token(n: number): Omit<TokenRow, 'id'> {
  return { token_hash: `hash-${n}`, app_id: '1', user_id: '1', scopes: ['admin'], issued_at: n, expires_at: n + 1 };
}

const initial = () => ({ templates: [template('1'), template('2')] });

/** Every file under `dir` (relative path → inode): an atomic write renames a new file into place, a new inode. */
async function inodes(dir: string): Promise<Map<string, number>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  return new Map(await Promise.all(files.map(async (path) => [relative(dir, path), (await stat(path)).ino] as const)));
}

async function changedFiles(dir: string, write: () => Promise<unknown>): Promise<string[]> {
  const before = await inodes(dir);
  await write();
  const after = await inodes(dir);
  return [...after].filter(([name, ino]) => before.get(name) !== ino && name !== 'db.lock').map(([name]) => name);
}

const manifestOf = async (path: string) => JSON.parse(await readFile(path, 'utf8'));

describe('JSON-file store', () => {
  // What a reopening keeps (rows, the id sequence) is the store contract's (`store/contract.ts`).
  it('creates the files from the initial data, then loads them on the next start instead', async () => {
    const path = join(await tempDir(), 'nested', 'db.json');
    const first = await createJsonStore(path, { initial });
    expect(first.created).toBe(true);
    await first.close();

    let called = false;
    const second = await createJsonStore(path, {
      initial: () => {
        called = true;
        return {};
      },
    });
    expect(second.created).toBe(false);
    expect(called).toBe(false);
    expect(second.all('templates')).toEqual(initial().templates);
    await second.close();
    expect(await manifestOf(path)).toMatchObject({ format: 'storefront-data', version: 2 });
  });

  it('acknowledges a write once it is in its file', async () => {
    const dir = await tempDir();
    const store = await createJsonStore(join(dir, 'db.json'), { initial });
    await store.write((tx) => tx.insert('tokens', { ...token(1), id: 'abc' }));
    const onDisk = JSON.parse(await readFile(join(dir, 'db.tokens.1', '0.json'), 'utf8'));
    expect(onDisk).toEqual([{ id: 'abc', ...token(1) }]);
    await store.write((tx) => tx.update('templates', '2', { body: 'new' }));
    expect(JSON.parse(await readFile(join(dir, 'db.templates', '2.json'), 'utf8')).body).toBe('new');
    await store.close();
  });

  it('rewrites only the file of what a write changed: a row, or the shard that holds it', async () => {
    const dir = await tempDir();
    const tokens = Array.from({ length: 1000 }, (_, n) => ({ ...token(n), id: String(n + 1) }));
    const store = await createJsonStore(join(dir, 'db.json'), {
      initial: () => ({ ...initial(), tokens }),
      sync: false,
    });
    const shards = (await manifestOf(join(dir, 'db.json'))).shards.tokens;
    expect(shards).toBeGreaterThan(1);
    expect(await changedFiles(dir, () => store.write((tx) => tx.update('templates', '2', { body: 'y' })))).toEqual([
      join('db.templates', '2.json'),
    ]);
    expect(await changedFiles(dir, () => store.write((tx) => tx.insert('tokens', { ...token(0), id: 'new' })))).toEqual(
      [join(`db.tokens.${shards}`, `${shardOf('new', shards)}.json`)],
    );
    await store.close();
  });

  it('writes nothing when the write function throws', async () => {
    const dir = await tempDir();
    const store = await createJsonStore(join(dir, 'db.json'), { initial });
    await expect(
      store.write((tx) => {
        tx.insert('tokens', token(1));
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    await store.close();
    expect(await readdir(join(dir, 'db.tokens.1'))).toEqual([]);
  });

  it('refuses a corrupt manifest and leaves it as it was, unless asked to reset', async () => {
    const path = join(await tempDir(), 'db.json');
    await writeFile(path, '{"format": "storefront-data", ');
    await expect(createJsonStore(path, { initial })).rejects.toThrow(StoreFileError);
    await expect(createJsonStore(path, { initial })).rejects.toThrow(/not valid JSON/);
    expect(await readFile(path, 'utf8')).toBe('{"format": "storefront-data", ');
    const reset = await createJsonStore(path, { initial, reset: true });
    expect(reset.created).toBe(true);
    expect(reset.all('templates')).toHaveLength(2);
    await reset.close();
  });

  it('refuses to take over a JSON file that is not its own, or data of a newer format', async () => {
    const path = join(await tempDir(), 'db.json');
    await writeFile(path, '{"posts": []}');
    await expect(createJsonStore(path, { initial })).rejects.toThrow(/not a storefront-data manifest/);
    expect(await readFile(path, 'utf8')).toBe('{"posts": []}');
    await writeFile(path, '{"format": "storefront-data", "version": 3, "collections": {}}');
    await expect(createJsonStore(path, { initial })).rejects.toThrow(/version 3 is not supported/);
  });

  it('refuses a corrupt, malformed or missing collection file', async () => {
    const dir = await tempDir();
    const path = join(dir, 'db.json');
    await (await createJsonStore(path, { initial, sync: false })).close();
    const row = join(dir, 'db.templates', '1.json');
    await writeFile(row, '{"id": "1"');
    await expect(createJsonStore(path)).rejects.toThrow(/1\.json: not valid JSON/);
    await writeFile(row, '{"id": 1}');
    await expect(createJsonStore(path)).rejects.toThrow(/string "id"/);
    await writeFile(row, JSON.stringify(template('2')));
    await expect(createJsonStore(path)).rejects.toThrow(/Duplicate id/);
    await writeFile(row, JSON.stringify(template('1')));
    const shard = join(dir, 'db.tokens.1', '0.json');
    await writeFile(shard, '{"id": "1"}');
    await expect(createJsonStore(path)).rejects.toThrow(/0\.json: expected a JSON array/);
    await writeFile(shard, '[{"id": "1"}, {"id": "1"}]');
    await expect(createJsonStore(path)).rejects.toThrow(/Duplicate id/);
    await rm(shard);
    await writeFile(join(dir, 'db.tokens.1', '1.json'), '[]');
    await expect(createJsonStore(path)).rejects.toThrow(/1\.json: is not one of the 1 shards of tokens/);
    // A collection's folder gone (as git drops an empty one) holds no rows; the folder is made again.
    await rm(join(dir, 'db.tokens.1'), { recursive: true });
    const opened = await createJsonStore(path);
    expect(opened.all('tokens')).toEqual([]);
    await opened.close();
    expect(await readdir(join(dir, 'db.tokens.1'))).toEqual([]);
  });

  it('reports a failed disk write to the writer and keeps memory as it was', async () => {
    const dir = await tempDir();
    const store = await createJsonStore(join(dir, 'db.json'), { initial });
    // A directory where the temporary file should go makes the atomic write fail.
    await mkdir(join(dir, 'db.templates', '.1.json.tmp'));
    await expect(store.write((tx) => tx.update('templates', '1', { body: 'lost' }))).rejects.toThrow(StoreFileError);
    expect(store.get('templates', '1')?.body).toBe('x');
    await store.close();
  });

  it('deletes the temporary files of interrupted writes at the start, and only those of its own data', async () => {
    const dir = await tempDir();
    const path = join(dir, 'db.json');
    await (await createJsonStore(path, { initial, sync: false })).close();
    const leftovers = [
      '.db.json.tmp',
      '.db.users.json.tmp',
      join('db.templates', '.1.json.tmp'),
      join('db.tokens.1', '.0.json.tmp'),
    ];
    for (const name of leftovers) await writeFile(join(dir, name), '[{"id": "half');
    await writeFile(join(dir, '.other.users.json.tmp'), 'another data set, in the middle of a write');
    const store = await createJsonStore(path);
    for (const name of leftovers) await expect(stat(join(dir, name))).rejects.toThrow(/ENOENT/);
    expect(await readFile(join(dir, '.other.users.json.tmp'), 'utf8')).toContain('another data set');
    expect(store.all('templates')).toHaveLength(2);
    await store.close();
  });

  it('keeps asset bytes one file per row, so that a write touches only the rows it changed', async () => {
    const dir = await tempDir();
    const path = join(dir, 'db.json');
    const store = await createJsonStore(path, {
      initial: () => ({
        files: [
          { id: '1', data: 'AAAA' },
          { id: '2', data: 'BBBB' },
        ],
      }),
    });
    const rows = join(dir, 'db.files');
    expect((await readdir(rows)).sort()).toEqual(['1.json', '2.json']);
    const before = (await stat(join(rows, '2.json'))).ino;
    await store.write((tx) => {
      tx.update('files', '1', { data: 'CCCC' });
      tx.insert('files', { id: '../evil', data: 'DDDD' });
    });
    expect((await stat(join(rows, '2.json'))).ino).toBe(before);
    expect((await readdir(rows)).sort()).toEqual(['%2E%2E%2Fevil.json', '1.json', '2.json']);
    await store.write((tx) => tx.delete('files', '2'));
    await store.close();

    const reopened = await createJsonStore(path);
    // Ids the store allocates (whole numbers) first, in their order, then the others.
    expect(reopened.all('files')).toEqual([
      { id: '1', data: 'CCCC' },
      { id: '../evil', data: 'DDDD' },
    ]);
    await reopened.close();
  });
});
