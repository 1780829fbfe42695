/**
 * `storefront-server migrate`: a JSON data directory into a PostgreSQL schema and back into another directory,
 * every row kept (ids, order, fields); a destination holding data is refused unless --replace; bad flags are 2.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type FreshSchema, freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { seed } from '../../src/seed/index.js';
import { COLLECTIONS } from '../../src/store/collections.js';
import { createJsonStore } from '../../src/store/json/json-file.js';
import type { Store } from '../../src/store/types.js';
import { startCli } from '../helpers/cli-process.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const schemas: FreshSchema[] = [];
afterAll(async () => {
  await Promise.all(schemas.map((schema) => schema.drop()));
});

const contents = (store: Store) => Object.fromEntries(COLLECTIONS.map((name) => [name, store.all(name)]));

async function migrate(...args: string[]) {
  const cli = startCli(['migrate', ...args]);
  const code = await cli.exited;
  return { code, out: cli.stdout(), err: cli.stderr() };
}

describe.skipIf(skipWithout(POSTGRES, 'The migrate command tests'))('storefront-server migrate', () => {
  it('copies a data directory into PostgreSQL and back, every row as it was', async () => {
    const from = await tempDir();
    const original = await createJsonStore(join(from, 'db.json'), { initial: () => seed({ products: 8 }).dataset });
    // A deleted row and a write after the seed, so that ids and order are not the seed's alone.
    await original.write((tx) => {
      tx.delete('products', '3');
      tx.update('shops', '1', { name: 'Renamed' });
    });
    const expected = contents(original);
    await original.close();
    const schema = await freshSchema();
    schemas.push(schema);

    const there = await migrate('--from', from, '--to', schema.url);
    expect(there, there.err).toMatchObject({ code: 0, out: expect.stringMatching(/^Copied .*7 products/m) });
    const again = await migrate('--from', from, '--to', schema.url);
    expect(again).toMatchObject({ code: 1, err: expect.stringContaining('already holds data') });

    const back = join(await tempDir(), 'copy');
    // A directory that does not exist yet, written without a trailing slash: made, the data inside (--to DIR).
    const home = await migrate('--from', schema.url, '--to', back);
    expect(home.code, home.err).toBe(0);
    const copy = await createJsonStore(join(back, 'db.json'));
    try {
      expect(contents(copy)).toEqual(expected);
    } finally {
      await copy.close();
    }
    expect((await migrate('--from', from, '--to', schema.url, '--replace')).code).toBe(0);
  });

  it('refuses a missing source and bad flags', async () => {
    const missing = await migrate('--from', join(await tempDir(), 'nothing'), '--to', join(await tempDir(), 'x'));
    expect(missing).toMatchObject({ code: 1, err: expect.stringContaining('does not exist') });
    expect((await migrate('--from', 'a')).code).toBe(2);
    expect((await migrate('--nope')).code).toBe(2);
  });
});
