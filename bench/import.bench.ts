/**
 * `importShop` (issue 51): a copy of a second reference server (seed 2, 10 000 products over three shops the
 * demo user administers, three production themes of 300 files each: templates and assets with their bytes)
 * into a JSON data directory and into a PostgreSQL schema (the machine's server, else a private one), then the
 * JSON import again into a fresh directory (same bytes expected). Prints the wall time, the rows written and
 * rows per second, and the requests the source answered.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createServer } from '../server/src/create-server.js';
import { importShop } from '../server/src/import/import-shop.js';
import { png } from '../server/src/seed/images.js';
import { seed } from '../server/src/seed/index.js';
import { md5Hex } from '../server/src/shared/md5.js';
import { readDataset } from '../server/src/store/read-dataset.js';
import type { Dataset } from '../server/src/store/types.js';
import { freshSchema } from '../test/support/postgres-server.js';

const PRODUCTS = 10_000;
const FILES_PER_THEME = 300;
const SECRET = 'bench-source-secret';

const seeded = seed({ seed: 2, products: PRODUCTS, clientSecret: SECRET });
const { dataset, credentials } = seeded;
// Every shop the demo user's: three themes to copy.
for (const shop of dataset.shops) shop.owner_id = dataset.users[0]!.id;
let nextId = 100_000;
const stamp = '2025-09-01T00:00:00.000Z';
for (const theme of dataset.themes) {
  const have = dataset.templates.filter((t) => t.theme_id === theme.id).length;
  const haveAssets = dataset.assets.filter((a) => a.theme_id === theme.id).length;
  const templates = Math.floor(FILES_PER_THEME / 2) - have;
  for (let i = 0; i < templates; i++) {
    const body = `<section class="block-${i}">{{ product.title }} ${'lorem ipsum '.repeat(40 + (i % 50))}</section>\n`;
    dataset.templates.push({
      id: String(nextId++),
      theme_id: theme.id,
      file_name: `sections/block-${i}.html`,
      body,
      created_on: stamp,
      updated_on: stamp,
    });
  }
  for (let i = 0; i < FILES_PER_THEME - Math.floor(FILES_PER_THEME / 2) - haveAssets; i++) {
    const size = 16 + (i % 48);
    const bytes = new Uint8Array(png(size, size, (x, y) => [(x * i) & 255, (y * 7) & 255, Number(theme.id) * 60]));
    const id = String(nextId++);
    const digest = md5Hex(bytes);
    dataset.assets.push({
      id,
      theme_id: theme.id,
      file_name: `images/tile-${i}.png`,
      content_type: 'image/png',
      digest,
      file_size: bytes.length,
      created_on: stamp,
      updated_on: stamp,
    });
    dataset.files.push({ id, data: Buffer.from(bytes).toString('base64') });
  }
}

let requests = 0;
const counting: typeof fetch = (input, init) => {
  requests++;
  return fetch(input, init);
};

const source = await createServer({ port: 0, data: dataset, explorer: false });
const from = { url: source.baseUrl, clientId: credentials.clientId, clientSecret: SECRET, fetch: counting };

async function hashes(dir: string): Promise<string> {
  const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
  const hash = createHash('sha256');
  const paths = files.map((entry) => join(entry.parentPath, entry.name)).sort();
  for (const path of paths) hash.update(relative(dir, path)).update(await readFile(path));
  return hash.digest('hex');
}

/**
 * Rows of the copy unlike the source's, per collection, beside what the API does not show or the copy makes its own:
 * a shop's owner (the demo user) and a theme's preview key (derived); when shops, themes, templates and assets were
 * created (the API shows `updated_on` only).
 */
function unlike(copy: Dataset): string {
  const shown = (name: string, key: string) =>
    key !== 'owner_id' && key !== 'preview_key' && (key !== 'created_on' || name === 'products' || name === 'orders');
  const comparable = (name: string, row: object) =>
    JSON.stringify(
      Object.entries(row)
        .filter(([key]) => shown(name, key))
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    );
  const names = ['shops', 'products', 'orders', 'themes', 'templates', 'assets', 'files'] as const;
  return names
    .map((name) => {
      const copied = new Map(copy[name].map((row) => [row.id, comparable(name, row)]));
      const rows = dataset[name] as { id: string }[];
      const differing = rows.filter((row) => copied.get(row.id) !== comparable(name, row)).length;
      return `${name} ${differing}/${rows.length}${copied.size === rows.length ? '' : ` (the copy has ${copied.size})`}`;
    })
    .join(', ');
}

async function measure(label: string, to: string, staging?: string) {
  requests = 0;
  const started = performance.now();
  const report = await importShop({ from, to, staging, concurrency: 8 });
  const seconds = (performance.now() - started) / 1000;
  const rows = Object.values(report.rows).reduce((sum, n) => sum + n, 0);
  console.log(
    `${label.padEnd(12)} ${seconds.toFixed(1).padStart(6)} s wall, ${rows} rows (${report.rows.products} products, ` +
      `${report.rows.orders} orders, ${report.rows.themes} themes, ${report.rows.templates} templates, ` +
      `${report.rows.assets} assets), ${Math.round(rows / seconds)} rows/s, ${requests} requests ` +
      `(${Math.round(requests / seconds)}/s)`,
  );
}

const dir = await mkdtemp(join(tmpdir(), 'storefront-bench-import-'));
try {
  console.log(`source: ${PRODUCTS} products, 3 themes of ${FILES_PER_THEME} files; concurrency 8`);
  await measure('JSON', join(dir, 'a'));
  await measure('JSON again', join(dir, 'b'));
  const [a, b] = await Promise.all([hashes(join(dir, 'a')), hashes(join(dir, 'b'))]);
  console.log(`JSON directories byte-identical: ${a === b ? 'yes' : 'NO'}`);
  console.log(`rows unlike the source's: ${unlike(await readDataset(join(dir, 'a')))}`);
  const schema = await freshSchema();
  try {
    await measure('PostgreSQL', schema.url, join(dir, 'pg.partial'));
  } finally {
    await schema.drop();
  }
} finally {
  await source.close();
  await rm(dir, { recursive: true, force: true });
}
