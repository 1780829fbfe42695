import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StoreFileError } from '../src/store/errors.js';
import { createJsonStore } from '../src/store/json-file.js';
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

describe('JSON-file store', () => {
  it('creates the files from the initial data, then loads them on the next start instead', async () => {
    const path = join(await tempDir(), 'nested', 'db.json');
    const first = await createJsonStore(path, { initial });
    expect(first.created).toBe(true);
    await first.write((tx) => tx.update('templates', '1', { body: 'changed' }));
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
    expect(second.all('templates').map((t) => t.body)).toEqual(['changed', 'x']);
    // The id sequence continues after the loaded rows.
    const inserted = await second.write((tx) => tx.insert('templates', { ...template('', 'y'), id: undefined }));
    expect(inserted.id).toBe('3');
    await second.close();
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ format: 'storefront-data', version: 1 });
  });

  it('acknowledges a write once it is on disk', async () => {
    const path = join(await tempDir(), 'db.json');
    const store = await createJsonStore(path, { initial });
    await store.write((tx) => tx.insert('tokens', { ...token(1), id: 'abc' }));
    const onDisk = JSON.parse(await readFile(join(path, '..', 'db.tokens.json'), 'utf8'));
    expect(onDisk).toEqual([{ id: 'abc', ...token(1) }]);
    await store.close();
  });

  it('keeps every one of 200 concurrent writes across a restart', async () => {
    const path = join(await tempDir(), 'db.json');
    const store = await createJsonStore(path, { initial });
    const ids = await Promise.all(
      Array.from({ length: 200 }, (_, n) => store.write((tx) => tx.insert('tokens', token(n)).id)),
    );
    expect(new Set(ids).size).toBe(200);
    await store.close();
    const reopened = await createJsonStore(path);
    expect(reopened.all('tokens').map((t) => t.token_hash)).toEqual(Array.from({ length: 200 }, (_, n) => `hash-${n}`));
    expect(reopened.where('tokens', 'token_hash', 'hash-150')).toHaveLength(1);
    await reopened.close();
  });

  it('rewrites only the files of the collections a write changed', async () => {
    const dir = await tempDir();
    const path = join(dir, 'db.json');
    const store = await createJsonStore(path, { initial });
    const before = new Map(
      await Promise.all((await readdir(dir)).map(async (name) => [name, (await stat(join(dir, name))).ino] as const)),
    );
    await store.write((tx) => tx.insert('tokens', token(1)));
    await store.close();
    // An atomic write renames a new file into place, so a rewritten file has a new inode.
    const changed = [];
    for (const [name, ino] of before) if ((await stat(join(dir, name))).ino !== ino) changed.push(name);
    expect(changed).toEqual(['db.tokens.json']);
  });

  it('writes nothing when the write function throws', async () => {
    const path = join(await tempDir(), 'db.json');
    const store = await createJsonStore(path, { initial });
    await expect(
      store.write((tx) => {
        tx.insert('tokens', token(1));
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    await store.close();
    expect(JSON.parse(await readFile(join(path, '..', 'db.tokens.json'), 'utf8'))).toEqual([]);
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

  it('refuses to take over a JSON file that is not its own', async () => {
    const path = join(await tempDir(), 'db.json');
    await writeFile(path, '{"posts": []}');
    await expect(createJsonStore(path, { initial })).rejects.toThrow(/not a storefront-data manifest/);
    expect(await readFile(path, 'utf8')).toBe('{"posts": []}');
  });

  it('refuses a corrupt, malformed or missing collection file', async () => {
    const path = join(await tempDir(), 'db.json');
    await (await createJsonStore(path, { initial })).close();
    const templates = join(path, '..', 'db.templates.json');
    await writeFile(templates, '[{"id": "1"');
    await expect(createJsonStore(path)).rejects.toThrow(/db\.templates\.json: not valid JSON/);
    await writeFile(templates, '{"id": "1"}');
    await expect(createJsonStore(path)).rejects.toThrow(/expected a JSON array/);
    await writeFile(templates, '[{"id": 1}]');
    await expect(createJsonStore(path)).rejects.toThrow(/string "id"/);
    await writeFile(templates, '[{"id": "1"}, {"id": "1"}]');
    await expect(createJsonStore(path)).rejects.toThrow(/Duplicate id/);
    await rm(templates);
    await expect(createJsonStore(path)).rejects.toThrow(/missing/);
  });

  it('reports a failed disk write to the writer and keeps memory as it was', async () => {
    const dir = await tempDir();
    const path = join(dir, 'db.json');
    const store = await createJsonStore(path, { initial });
    // A directory where the temp file should go makes the atomic write fail.
    await mkdir(join(dir, '.db.tokens.json.tmp'));
    await expect(store.write((tx) => tx.insert('tokens', token(1)))).rejects.toThrow(StoreFileError);
    expect(store.all('tokens')).toEqual([]);
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
    expect(reopened.all('files')).toEqual([
      { id: '../evil', data: 'DDDD' },
      { id: '1', data: 'CCCC' },
    ]);
    await reopened.close();
  });
});
