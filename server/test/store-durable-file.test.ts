import { open, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DurableJSONFile, replaceFile } from '../src/store/json/durable-file.js';
import { createJsonStore } from '../src/store/json/json-file.js';
import { useTempDir } from './helpers/temp-dir.js';

const tempDir = useTempDir();

/** Records the flushes of every file handle: `datasync` (files) and `sync` (directories), in order. */
async function spyOnFlushes(dir: string): Promise<string[]> {
  const handle = await open(dir, 'r');
  const prototype = Object.getPrototypeOf(handle);
  await handle.close();
  const flushes: string[] = [];
  for (const kind of ['datasync', 'sync'] as const) {
    const original = prototype[kind];
    vi.spyOn(prototype, kind).mockImplementation(function (this: unknown) {
      flushes.push(kind);
      return original.call(this);
    });
  }
  return flushes;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('durable JSON file', () => {
  it('flushes the file before its rename and the directory after, unless told not to', async () => {
    const dir = await tempDir();
    const flushes = await spyOnFlushes(dir);
    const path = join(dir, 'rows.json');
    await replaceFile(path, '[1]', { sync: true });
    expect(flushes).toEqual(['datasync', 'sync']);
    expect(await readFile(path, 'utf8')).toBe('[1]');

    flushes.length = 0;
    await replaceFile(path, '[2]', { sync: false });
    expect(flushes).toEqual([]);
    expect(await readFile(path, 'utf8')).toBe('[2]');
    expect(await readdir(dir)).toEqual(['rows.json']);
  });

  it("is a JSON store's default: a write is flushed, file then directory, before it is acknowledged", async () => {
    const token = {
      token_hash: 'h',
      app_id: '1',
      user_id: '1',
      scopes: ['admin' as const],
      issued_at: 1,
      expires_at: 2,
    };
    for (const sync of [undefined, false]) {
      const dir = await tempDir();
      const store = await createJsonStore(join(dir, 'db.json'), sync === undefined ? {} : { sync });
      const flushes = await spyOnFlushes(dir);
      await store.write((tx) => tx.insert('tokens', token));
      if (sync === undefined) expect(flushes.slice(0, 2)).toEqual(['datasync', 'sync']);
      else expect(flushes).toEqual([]);
      vi.restoreAllMocks();
      await store.close();
    }
  });

  it('shares one flush of the directory between the files renamed while one runs', async () => {
    const dir = await tempDir();
    const flushes = await spyOnFlushes(dir);
    await Promise.all(Array.from({ length: 20 }, (_, n) => replaceFile(join(dir, `${n}.json`), '[]', { sync: true })));
    const directoryFlushes = flushes.filter((flush) => flush === 'sync').length;
    expect(flushes.filter((flush) => flush === 'datasync')).toHaveLength(20);
    expect(directoryFlushes).toBeGreaterThanOrEqual(1);
    expect(directoryFlushes).toBeLessThan(20);
  });

  it("is lowdb's adapter: reads null for a missing file, writes indented JSON, in the order asked", async () => {
    const path = join(await tempDir(), 'data.json');
    const file = new DurableJSONFile<{ n: number }>(path, { sync: false });
    expect(await file.read()).toBeNull();
    await Promise.all([file.write({ n: 1 }), file.write({ n: 2 }), file.write({ n: 3 })]);
    expect(await readFile(path, 'utf8')).toBe('{\n  "n": 3\n}');
    expect(await file.read()).toEqual({ n: 3 });
  });
});
