import { watch } from 'node:fs';
import { cp, type FileHandle, mkdir, open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StoreFileError } from '../src/store/errors.js';
import { createJsonStore } from '../src/store/json/json-file.js';
import { type JournalChanges, journalText } from '../src/store/json/json-journal.js';
import type { ThemeRow } from '../src/store/types.js';
import { journalLine } from './helpers/journal-file.js';
import { useTempDir } from './helpers/temp-dir.js';
import { template, theme as themeRow } from './store/rows.js';

const tempDir = useTempDir();

afterEach(() => {
  vi.restoreAllMocks();
});

const theme = themeRow('1', '1');

const initial = () => ({ themes: [theme], templates: [template('1'), template('2')] });

const rowFile = async (dir: string, collection: string, id: string) =>
  JSON.parse(await readFile(join(dir, `db.${collection}`, `${id}.json`), 'utf8'));

describe('JSON-file store journal', () => {
  it('empties the journal after a write that spans files, writes none for a write of one file, deletes it on close', async () => {
    const dir = await tempDir();
    const store = await createJsonStore(join(dir, 'db.json'), { initial });
    expect((await stat(join(dir, 'db.journal.json'))).size).toBe(0);
    // The journal is written in place, no temporary file: only its own name shows in the directory's events.
    const seen: string[] = [];
    const watcher = watch(dir, (_, name) => name && seen.push(name));
    // The directory's events come in order: once a marker file's shows, every event of the write before it has.
    let markers = 0;
    const settle = async () => {
      const marker = `marker-${markers++}`;
      await writeFile(join(dir, marker), '');
      await vi.waitFor(() => expect(seen).toContain(marker));
    };
    await store.write((tx) => tx.update('templates', '1', { body: 'one file' }));
    await settle();
    expect(seen.filter((name) => name.includes('journal'))).toEqual([]);
    await store.write((tx) => {
      tx.update('themes', '1', { updated_on: 'now' });
      for (let n = 3; n < 200; n++) tx.insert('templates', template(String(n), '1', 'y'.repeat(10_000)));
    });
    await settle();
    watcher.close();
    expect(new Set(seen.filter((name) => name.includes('journal')))).toEqual(new Set(['db.journal.json']));
    expect(await journalLine(dir)).toBe('');
    expect((await rowFile(dir, 'themes', '1')).updated_on).toBe('now');
    expect(await readdir(join(dir, 'db.templates'))).toHaveLength(199);
    await store.close();
    expect(await readdir(dir)).not.toContain('db.journal.json');
  });

  it('completes at the start a write whose journal a crash left, then deletes the journal', async () => {
    const dir = await tempDir();
    const path = join(dir, 'db.json');
    await (await createJsonStore(path, { initial })).close();
    // As a crash leaves it: the journal in place, one of the write's files replaced, the other not yet.
    const later: ThemeRow = { ...theme, updated_on: 'later' };
    const journal = journalText({
      themes: [['1', later]],
      templates: [
        ['1', template('1', '1', 'new')],
        ['2', null],
        ['3', template('3', '1', 'added')],
      ],
      tokens: [['t', { id: 't' }]],
    });
    await writeFile(join(dir, 'db.journal.json'), journal);
    await writeFile(join(dir, 'db.templates', '1.json'), JSON.stringify(template('1', '1', 'new')));

    const store = await createJsonStore(path);
    expect(store.all('templates').map((t) => [t.id, t.body])).toEqual([
      ['1', 'new'],
      ['3', 'added'],
    ]);
    expect(store.get('themes', '1')?.updated_on).toBe('later');
    expect(store.get('tokens', 't')).toEqual({ id: 't' });
    expect(await journalLine(dir)).toBe('');
    await store.close();
    expect((await readdir(join(dir, 'db.templates'))).sort()).toEqual(['1.json', '3.json']);
    expect((await rowFile(dir, 'themes', '1')).updated_on).toBe('later');
    expect(JSON.parse(await readFile(join(dir, 'db.tokens.1', '0.json'), 'utf8'))).toEqual([{ id: 't' }]);
  });

  it('reads a journal up to its newline, over the tail of a longer one, and completes it', async () => {
    const dir = await tempDir();
    const path = join(dir, 'db.json');
    await (await createJsonStore(path, { initial })).close();
    const longer = journalText({ templates: [['2', template('2', '1', 'older'.repeat(100))]] });
    const shorter = journalText({ templates: [['1', template('1', '1', 'new')]] });
    await writeFile(join(dir, 'db.journal.json'), `${shorter}\n${longer.slice(shorter.length + 1)}\n`);

    const store = await createJsonStore(path);
    expect(store.all('templates').map((t) => t.body)).toEqual(['new', 'x']);
    await store.close();
  });

  it.each([
    [
      'of another format',
      (text: string) => text.replace('storefront-journal', 'other-journal'),
      /is not a storefront-journal/,
    ],
    ['of another version', (text: string) => text.replace('"version":1', '"version":2'), /of version 1/],
    ['of an unknown collection', () => journalText({ nope: [] } as JournalChanges), /invalid collection "nope"/],
  ])('refuses to start over a whole journal that is %s, naming it, and changes nothing', async (_, damage, message) => {
    const dir = await tempDir();
    const path = join(dir, 'db.json');
    await (await createJsonStore(path, { initial })).close();
    const journalPath = join(dir, 'db.journal.json');
    // The checksum covers the changes only: these journals pass it, so they are whole, and not for this version.
    await writeFile(journalPath, damage(journalText({ templates: [['1', template('1', '1', 'new')]] })));
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

  it.each([
    ['cut short', (older: string, newer: string) => newer.slice(0, newer.length >> 1) + older.slice(newer.length >> 1)],
    ['cut short, nothing after', (_: string, newer: string) => newer.slice(0, -1)],
    ['zeroed', (_: string, newer: string) => '\0'.repeat(newer.length)],
    ['altered', (_: string, newer: string) => newer.replace('"new"', '"forged"')],
  ])('discards a torn journal (%s), applying nothing of it, and starts', async (_, tear) => {
    const dir = await tempDir();
    const path = join(dir, 'db.json');
    await (await createJsonStore(path, { initial })).close();
    const journalPath = join(dir, 'db.journal.json');
    // As a power loss during an overwrite in place can leave it: the new write's bytes over the older journal's.
    const older = journalText({ templates: [['2', template('2', '1', 'older'.repeat(100))]] });
    const retitled: ThemeRow = { ...theme, title: 'T' };
    const newer = journalText({ templates: [['1', template('1', '1', 'new')]], themes: [['1', retitled]] });
    await writeFile(journalPath, tear(older, newer));
    const before = await readdir(join(dir, 'db.templates'));

    const store = await createJsonStore(path);
    expect(store.all('templates').map((t) => t.body)).toEqual(['x', 'x']);
    expect(store.get('themes', '1')?.title).toBe(theme.title);
    expect((await stat(journalPath)).size).toBe(0);
    await store.close();
    expect(await readdir(join(dir, 'db.templates'))).toEqual(before);
  });

  it('flushes the emptied journal before a later write renames anything, so it never reverts that write', async () => {
    const dir = await tempDir();
    const store = await createJsonStore(join(dir, 'db.json'), { initial });
    const journalPath = join(dir, 'db.journal.json');
    const journalInode = (await stat(journalPath)).ino;
    const bodyOnDisk = async () => (await rowFile(dir, 'templates', '1')).body;
    const twoFiles = (body: string) =>
      store.write((tx) => {
        tx.update('templates', '1', { body });
        tx.update('themes', '1', { updated_on: body });
      });
    await twoFiles('first');

    // What the journal and template 1 hold each time the journal is flushed.
    const flushes: { journal: string; body: string }[] = [];
    const handle = await open(journalPath, 'r');
    const prototype = Object.getPrototypeOf(handle);
    await handle.close();
    const datasync = prototype.datasync;
    vi.spyOn(prototype, 'datasync').mockImplementation(async function (this: FileHandle) {
      if ((await this.stat()).ino === journalInode) {
        flushes.push({ journal: (await journalLine(dir))!, body: await bodyOnDisk() });
      }
      return datasync.call(this);
    });
    // A write of one file: the journal, emptied without a flush after "first", is flushed empty before its rename.
    await store.write((tx) => tx.update('templates', '1', { body: 'second' }));
    expect(flushes).toEqual([{ journal: '', body: 'first' }]);
    // A write of two: its own journal replaces the empty one before its renames.
    await twoFiles('third');
    expect(flushes).toHaveLength(2);
    expect(flushes[1]!.body).toBe('second');
    expect(flushes[1]!.journal).toContain('"third"');
    vi.restoreAllMocks();

    // What a crash now leaves (the process gone, the disk as it is): the last write, and an empty journal.
    await store.write((tx) => tx.update('templates', '1', { body: 'fourth' }));
    const copy = await tempDir();
    await cp(dir, copy, { recursive: true });
    expect(await journalLine(copy)).toBe('');
    const reopened = await createJsonStore(join(copy, 'db.json'));
    expect(reopened.get('templates', '1')?.body).toBe('fourth');
    expect(reopened.get('themes', '1')?.updated_on).toBe('third');
    await reopened.close();
    await store.close();
  });

  it('leaves nothing behind a write that fails before its renames, and keeps accepting writes', async () => {
    const dir = await tempDir();
    const path = join(dir, 'db.json');
    const store = await createJsonStore(path, { initial });
    // A directory where a temporary file should go makes that file's staging fail.
    await mkdir(join(dir, 'db.templates', '.2.json.tmp'));
    const write = store.write((tx) => {
      tx.update('templates', '1', { body: 'one' });
      tx.update('templates', '2', { body: 'two' });
    });
    await expect(write).rejects.toThrow(StoreFileError);
    expect(store.get('templates', '1')?.body).toBe('x');
    expect((await readdir(join(dir, 'db.templates'))).sort()).toEqual(['.2.json.tmp', '1.json', '2.json']);
    expect(await journalLine(dir)).toBe('');
    await store.write((tx) => tx.update('templates', '1', { body: 'later' }));
    await store.close();

    const reopened = await createJsonStore(path);
    expect(reopened.all('templates').map((t) => t.body)).toEqual(['later', 'x']);
    await reopened.close();
  });

  it('refuses writes after a journalled write failed on its renames, and completes it at the next start', async () => {
    const dir = await tempDir();
    const path = join(dir, 'db.json');
    const store = await createJsonStore(path, { initial });
    // A directory where a file should be renamed makes that rename fail.
    const obstacle = join(dir, 'db.templates', '2.json');
    await writeFile(obstacle, '');
    await rm(obstacle);
    await mkdir(join(obstacle, 'inside'), { recursive: true });
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
    expect((await readdir(join(dir, 'db.templates'))).sort()).toEqual(['1.json', '2.json']);

    // Out of the way, the start replays the journal.
    await rm(obstacle, { recursive: true });
    const reopened = await createJsonStore(path);
    expect(reopened.all('templates').map((t) => t.body)).toEqual(['one', 'two']);
    await reopened.close();
  });
});
