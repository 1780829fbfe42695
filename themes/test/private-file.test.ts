import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readPrivate, writePrivate } from '../src/config/private-file.js';

describe('private files', () => {
  let dir: string;
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('are written whole, mode 0600 in a 0700 folder, even when one file is written several times at once', async () => {
    dir = await mkdtemp(join(tmpdir(), 'storefront-private-'));
    const path = join(dir, 'config', 'session.json');
    const values = Array.from({ length: 20 }, (_, i) => ({ token: `token-${i}`.repeat(500) }));
    await Promise.all(values.map((value) => writePrivate(path, value)));
    const written = await readPrivate<{ token: string }>(path);
    expect(values).toContainEqual(written);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'config'))).mode & 0o777).toBe(0o700);
    expect(await readdir(join(dir, 'config'))).toEqual(['session.json']);
  });
});
