/**
 * `storefront-server --data DIR`: a directory is the data directory, its manifest `db.json` inside, created and
 * seeded the first time and read again the next (before, the store tried to read the directory: EISDIR).
 */
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { dataFilePath } from '../src/data-path.js';
import { type CliProcess, useCli } from './helpers/cli-process.js';
import { storedRows } from './helpers/data-files.js';
import { useTempDir } from './helpers/temp-dir.js';

const tempDir = useTempDir();
const startTracked = useCli();

async function startedOn(data: string, products: string): Promise<CliProcess> {
  const cli = startTracked(['--port', '0', '--data', data, '--products', products, '--quiet']);
  await cli.waitFor(/curl -s -H .*\n/);
  return cli;
}

it('takes an existing directory as the data directory, seeding db.json in it, and reads it again', async () => {
  const dir = join(await tempDir(), 'my-data');
  await mkdir(dir);
  const first = await startedOn(dir, '3');
  expect(first.stdout()).toContain(`Data:          ${join(dir, 'db.json')} (seeded, 3 products)`);
  first.child.kill('SIGINT');
  expect(await first.exited).toBe(0);
  expect(await storedRows(join(dir, 'db.json'), 'products')).toHaveLength(3);

  const again = await startedOn(dir, '7');
  expect(again.stdout()).toContain(`${join(dir, 'db.json')} (existing data)`);
  again.child.kill('SIGINT');
  expect(await again.exited).toBe(0);
  expect(await storedRows(join(dir, 'db.json'), 'products')).toHaveLength(3);
});

it('reads a path with a trailing slash as a directory, and a file path as the file', async () => {
  const dir = await tempDir();
  expect(dataFilePath(`${dir}/new-folder/`)).toBe(join(dir, 'new-folder', 'db.json'));
  expect(dataFilePath(dir)).toBe(join(dir, 'db.json'));
  expect(dataFilePath(join(dir, 'shop.json'))).toBe(join(dir, 'shop.json'));
  const created = await startedOn(`${dir}/new-folder/`, '2');
  created.child.kill('SIGINT');
  expect(await created.exited).toBe(0);
  expect((await stat(join(dir, 'new-folder', 'db.json'))).isFile()).toBe(true);
});
