import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreFileError } from '../src/store/errors.js';
import { createJsonStore, type JsonStore } from '../src/store/json/json-file.js';
import { journalLine } from './helpers/journal-file.js';
import { fillDisk, useSmallDisk } from './helpers/small-disk.js';
import { template, theme as themeRow } from './store/rows.js';

const smallDisk = useSmallDisk();
/** Closed whatever happens, before the disk is unmounted (after hooks run last first): an open journal keeps it busy. */
const opened: JsonStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

const theme = themeRow('1', '1');

const initial = () => ({ themes: [theme], templates: [template('1'), template('2')] });

/** The temporary files under `dir`, however deep. */
async function tempFilesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return entries.filter((entry) => entry.split('/').at(-1)!.endsWith('.tmp'));
}

async function expectFullDisk(write: Promise<unknown>): Promise<void> {
  const error = await write.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(StoreFileError);
  expect((error as StoreFileError).code).toBe('ENOSPC');
}

describe('JSON-file store on a full disk (a 1 MiB tmpfs)', () => {
  it('fails a write that does not fit with ENOSPC, leaving no temporary file and the data as it was', async (context) => {
    const disk = await smallDisk(context);
    const path = join(disk, 'db.json');
    const store = await createJsonStore(path, { initial });
    opened.push(store);
    await fillDisk(disk, 100_000);
    const big = 'b'.repeat(300_000);

    // A write of one file, then of two (through the journal), then of two whose journal alone would fit.
    await expectFullDisk(store.write((tx) => tx.update('templates', '1', { body: big })));
    await expectFullDisk(
      store.write((tx) => {
        tx.update('templates', '1', { body: big });
        tx.update('themes', '1', { updated_on: 'now' });
      }),
    );
    await expectFullDisk(
      store.write((tx) => {
        tx.update('templates', '1', { body: big.slice(0, 40_000) });
        tx.update('templates', '2', { body: big.slice(0, 40_000) });
      }),
    );
    expect(await tempFilesUnder(disk)).toEqual([]);
    expect(await journalLine(disk)).toBe('');
    expect(store.all('templates').map((t) => t.body)).toEqual(['x', 'x']);

    // The store goes on: what fits is written, and space freed makes room again.
    await store.write((tx) => {
      tx.update('templates', '1', { body: 'small' });
      tx.update('themes', '1', { updated_on: 'small' });
    });
    await rm(join(disk, 'filler'));
    await store.write((tx) => tx.update('templates', '2', { body: big }));
    await store.close();

    const reopened = await createJsonStore(path);
    expect(reopened.all('templates').map((t) => t.body)).toEqual(['small', big]);
    expect(reopened.get('themes', '1')?.updated_on).toBe('small');
    await reopened.close();
  });

  it('fails a start on a full disk naming the lock, with ENOSPC, and leaves no temporary file', async (context) => {
    const disk = await smallDisk(context);
    const path = join(disk, 'db.json');
    await (await createJsonStore(path, { initial })).close();
    await fillDisk(disk);

    const error = await createJsonStore(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreFileError);
    expect((error as StoreFileError).code).toBe('ENOSPC');
    expect((error as Error).message).toContain(join(disk, 'db.lock'));
    expect(await tempFilesUnder(disk)).toEqual([]);
    expect(await readdir(disk)).not.toContain('db.lock');

    await rm(join(disk, 'filler'));
    const store = await createJsonStore(path);
    expect(JSON.parse(await readFile(join(disk, 'db.templates', '1.json'), 'utf8')).body).toBe('x');
    await store.close();
  });
});
