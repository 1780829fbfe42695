import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type StorefrontServer } from '../../src/create-server.js';
import { importShop } from '../../src/import/import-shop.js';
import { ImportError } from '../../src/import/walk.js';
import { type DemoCredentials, seed } from '../../src/seed/index.js';
import { StoreError } from '../../src/store/errors.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { credentialRecorder } from './credential-recorder.js';
import { adminToken, servedResources } from './served-resources.js';
import { treeHashes } from './tree-hashes.js';

const tempDir = useTempDir();
const SECRET = 'source-client-secret-7f3a9c';
const PASSWORD = 'source-password-51be0d';

let source: StorefrontServer;
let credentials: DemoCredentials;
/** Every credential the imports sent or received: token responses' tokens, `Authorization` values. */
const used = new Set<string>([SECRET, PASSWORD]);

const recording = credentialRecorder(used);

beforeAll(async () => {
  const seeded = seed({ seed: 2, products: 300, clientSecret: SECRET, password: PASSWORD });
  credentials = seeded.credentials;
  source = await createServer({ port: 0, data: seeded.dataset });
  // Addresses of the source in stored text, which the copy must hold as the sandbox's.
  const asset = source.store.where('assets', 'theme_id', '1')[0]!;
  const file = `${source.origin}/static/themes/1/assets/${asset.digest}/${encodeURIComponent(asset.file_name)}`;
  await source.store.write((tx) => {
    const layout = tx.where('templates', 'theme_id', '1').find((t) => t.file_name === 'layout.html')!;
    tx.update('templates', layout.id, { body: `${layout.body}\n<img src="${file}"><a href="${source.origin}/v1">` });
    tx.update('products', '1', { description: `See ${source.baseUrl}/shops/1/products/1.json` });
  });
}, 60_000);

afterAll(async () => {
  await source?.close();
});

const remote = (extra: object = {}) => ({
  url: source.baseUrl,
  clientId: credentials.clientId,
  clientSecret: SECRET,
  login: credentials.login,
  password: PASSWORD,
  fetch: recording,
  ...extra,
});

async function servedBy(server: StorefrontServer, clientId: string, clientSecret: string) {
  const token = await adminToken(server.origin, clientId, clientSecret);
  const served = await servedResources(server.origin, token);
  // The copy holds the sandbox's default origin where the source held its own.
  return new Map(
    [...served].map(([path, body]) => [
      path,
      JSON.parse(JSON.stringify(body).replaceAll('http://localhost:4000', 'ORIGIN')),
    ]),
  );
}

describe('importShop into a JSON data directory', () => {
  it('makes a copy that a server serves as the source does, with no credential in it', async () => {
    const dir = join(await tempDir(), 'copy');
    const report = await importShop({ from: remote(), to: dir });
    expect(report.rows).toMatchObject({ users: 1, apps: 1, shops: 2, tokens: 0, events: 0, webhook_endpoints: 0 });
    expect(report.rows.products).toBe(
      source.store.all('products').filter((p) => p.shop_id === '1' || p.shop_id === '2').length,
    );
    expect(existsSync(`${dir}.partial`)).toBe(false);

    const text = (
      await Promise.all(Object.keys(await treeHashes(dir)).map((path) => readFile(join(dir, path), 'utf8')))
    ).join('\n');
    expect(used.size).toBeGreaterThan(4);
    for (const secret of used) expect(text.includes(secret), `${secret.slice(0, 6)}… written`).toBe(false);
    expect(text).not.toContain(source.origin);
    expect(text).toContain('http://localhost:4000/static/themes/1/assets/');

    const copy = await createServer({ port: 0, data: join(dir, 'db.json') });
    try {
      const [expected, actual] = await Promise.all([
        servedBy(source, credentials.clientId, SECRET),
        servedBy(copy, report.credentials.clientId, report.credentials.clientSecret),
      ]);
      expect(actual.size, [...actual.keys()].join(' ')).toBeGreaterThan(250);
      expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [path, body] of expected) expect(actual.get(path), path).toEqual(body);
      // The demo user signs in with the printed password.
      const login = await fetch(`${copy.origin}/oauth/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'password',
          username: report.credentials.login,
          password: report.credentials.password,
          client_id: report.credentials.clientId,
          client_secret: report.credentials.clientSecret,
        }),
      });
      expect(login.status).toBe(200);
    } finally {
      await copy.close();
    }
  }, 120_000);

  it('gives byte-identical directories on three imports, and refuses one that holds data', async () => {
    const dirs = [join(await tempDir(), 'a'), join(await tempDir(), 'b'), join(await tempDir(), 'c')];
    for (const dir of dirs) await importShop({ from: remote({ login: undefined, password: undefined }), to: dir });
    const [first, ...others] = await Promise.all(dirs.map(treeHashes));
    expect(Object.keys(first!).length).toBeGreaterThan(20);
    for (const other of others) expect(other).toEqual(first);
    await expect(importShop({ from: remote(), to: dirs[0]! })).rejects.toThrow(StoreError);
    await expect(importShop({ from: remote(), to: dirs[0]! })).rejects.toThrow(/already holds data.*--replace/);
    expect(await treeHashes(dirs[0]!)).toEqual(first);
    // Replaced whole at the end: a directory holding other files than the data is not.
    await writeFile(join(dirs[0]!, 'notes.txt'), 'mine');
    await expect(importShop({ from: remote(), to: dirs[0]!, replace: true })).rejects.toThrow(
      /other files.*notes\.txt/,
    );
    expect(await readFile(join(dirs[0]!, 'notes.txt'), 'utf8')).toBe('mine');
  }, 180_000);

  it('takes only the shops asked for and the same sample of products each time', async () => {
    const one = join(await tempDir(), 'one');
    const two = join(await tempDir(), 'two');
    const a = await importShop({ from: remote(), to: one, shops: ['2'], products: 7 });
    const b = await importShop({ from: remote(), to: two, shops: ['2'], products: 7 });
    expect(b.rows).toEqual(a.rows);
    expect(a.rows).toMatchObject({ shops: 1, products: 7, themes: 1 });
    expect(await treeHashes(one)).toEqual(await treeHashes(two));
    await expect(importShop({ from: remote(), to: join(await tempDir(), 'x'), shops: ['3'] })).rejects.toThrow(
      ImportError,
    );
  }, 120_000);

  it('with since, fetches again only what changed and ends as a full import would', async () => {
    const dir = join(await tempDir(), 'since');
    await importShop({ from: remote(), to: dir, shops: ['1'] });
    const later = new Date(Date.parse('2027-01-01T00:00:00.000Z'));
    await source.store.write((tx) => {
      tx.update('products', '4', { title: 'Changed at the source', updated_on: '2027-02-01T00:00:00.000Z' });
    });
    const update = await importShop({ from: remote(), to: dir, shops: ['1'], since: later });
    const products = source.store.where('products', 'shop_id', '1').length;
    // The shop, its theme, the changed product; every other product and every asset kept.
    expect(update.fetched).toBeLessThan(10);
    expect(update.reused).toBeGreaterThanOrEqual(products - 1);
    const full = join(await tempDir(), 'full');
    await importShop({ from: remote(), to: full, shops: ['1'] });
    expect(await treeHashes(dir)).toEqual(await treeHashes(full));
  }, 120_000);
});
