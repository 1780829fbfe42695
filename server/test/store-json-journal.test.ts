import { watch } from 'node:fs';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StoreFileError } from '../src/store/errors.js';
import { createJsonStore } from '../src/store/json-file.js';
import { Journal } from '../src/store/json-journal.js';
import type { TemplateRow, ThemeRow } from '../src/store/types.js';
import { useTempDir } from './helpers/temp-dir.js';

const tempDir = useTempDir();

function template(id: string, body = 'x'): TemplateRow {
  return { id, theme_id: '1', file_name: `t${id}.html`, body, created_on: '', updated_on: '' };
}

const theme: ThemeRow = {
  id: '1',
  shop_id: '1',
  title: 'Main',
  production: true,
  settings: {},
  preview_key: 'k',
  created_on: '',
  updated_on: '',
};

const initial = () => ({ themes: [theme], templates: [template('1'), template('2')] });

const rowFile = async (dir: string, collection: string, id: string) =>
  JSON.parse(await readFile(join(dir, `db.${collection}`, `${id}.json`), 'utf8'));

describe('JSON-file store journal', () => {
  it('leaves no journal behind a write that spans files, and writes none for a write of one file', async () => {
    const dir = await tempDir();
    const store = await createJsonStore(join(dir, 'db.json'), { initial });
    // A journal is renamed into place, then deleted: both show in the directory's events.
    const seen: string[] = [];
    const watcher = watch(dir, (_, name) => name && seen.push(name));
    const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
    await store.write((tx) => tx.update('templates', '1', { body: 'one file' }));
    await settle();
    expect(seen.filter((name) => name.includes('journal'))).toEqual([]);
    await store.write((tx) => {
      tx.update('themes', '1', { updated_on: 'now' });
      for (let n = 3; n < 200; n++) tx.insert('templates', template(String(n), 'y'.repeat(10_000)));
    });
    await settle();
    watcher.close();
    expect(new Set(seen.filter((name) => name.includes('journal')))).toEqual(
      new Set(['.db.journal.json.tmp', 'db.journal.json']),
    );
    expect(await readdir(dir)).not.toContain('db.journal.json');
    expect((await rowFile(dir, 'themes', '1')).updated_on).toBe('now');
    expect(await readdir(join(dir, 'db.templates'))).toHaveLength(199);
    await store.close();
  });

  it('completes at the start a write whose journal a crash left, then deletes the journal', async () => {
    const dir = await tempDir();
    const path = join(dir, 'db.json');
    await (await createJsonStore(path, { initial })).close();
    // As a crash leaves it: the journal in place, one of the write's files replaced, the other not yet.
    const journal = new Journal(join(dir, 'db.journal.json'), { sync: true });
    const later: ThemeRow = { ...theme, updated_on: 'later' };
    await journal.record({
      themes: [['1', later]],
      templates: [
        ['1', template('1', 'new')],
        ['2', null],
        ['3', template('3', 'added')],
      ],
      tokens: [['t', { id: 't' }]],
    });
    await writeFile(join(dir, 'db.templates', '1.json'), JSON.stringify(template('1', 'new')));

    const store = await createJsonStore(path);
    expect(store.all('templates').map((t) => [t.id, t.body])).toEqual([
      ['1', 'new'],
      ['3', 'added'],
    ]);
    expect(store.get('themes', '1')?.updated_on).toBe('later');
    expect(store.get('tokens', 't')).toEqual({ id: 't' });
    await store.close();
    await expect(stat(join(dir, 'db.journal.json'))).rejects.toThrow(/ENOENT/);
    expect((await readdir(join(dir, 'db.templates'))).sort()).toEqual(['1.json', '3.json']);
    expect((await rowFile(dir, 'themes', '1')).updated_on).toBe('later');
    expect(JSON.parse(await readFile(join(dir, 'db.tokens.1', '0.json'), 'utf8'))).toEqual([{ id: 't' }]);
  });

  it.each([
    ['not JSON', () => '{"format":"storefront-journal"', /not valid JSON/],
    ['of another format', () => '{"format":"x","version":1}', /is not a storefront-journal/],
    [
      'altered after it was written',
      (text: string) => text.replace('"new"', '"forged"'),
      /does not match its checksum/,
    ],
  ])('refuses to start over a journal that is %s, naming it, and changes nothing', async (_, damage, message) => {
    const dir = await tempDir();
    const path = join(dir, 'db.json');
    await (await createJsonStore(path, { initial })).close();
    const journalPath = join(dir, 'db.journal.json');
    await new Journal(journalPath, { sync: false }).record({ templates: [['1', template('1', 'new')]] });
    await writeFile(journalPath, damage(await readFile(journalPath, 'utf8')));
    const before = await readFile(join(dir, 'db.templates', '1.json'), 'utf8');

    const error = await createJsonStore(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreFileError);
    expect((error as Error).message).toContain(journalPath);
    expect((error as Error).message).toMatch(message);
    expect(await readFile(join(dir, 'db.templates', '1.json'), 'utf8')).toBe(before);
    // The lock was released: a reset may take over.
    const reset = await createJsonStore(path, { initial, reset: true });
    await reset.close();
    await expect(stat(journalPath)).rejects.toThrow(/ENOENT/);
  });

  it('refuses writes after a journalled write failed on its files, and completes it at the next start', async () => {
    const dir = await tempDir();
    const path = join(dir, 'db.json');
    const store = await createJsonStore(path, { initial });
    // A directory where the temporary file should go makes that file's write fail.
    await mkdir(join(dir, 'db.templates', '.2.json.tmp'));
    const write = store.write((tx) => {
      tx.update('templates', '1', { body: 'one' });
      tx.update('templates', '2', { body: 'two' });
    });
    await expect(write).rejects.toThrow(/restart the server/);
    expect(store.get('templates', '1')?.body).toBe('x');
    await expect(store.write((tx) => tx.update('templates', '1', { body: 'later' }))).rejects.toThrow(
      /restart the server/,
    );
    await store.close();

    // The start deletes the leftover in the way, then replays the journal.
    const reopened = await createJsonStore(path);
    expect(reopened.all('templates').map((t) => t.body)).toEqual(['one', 'two']);
    await reopened.close();
  });
});
