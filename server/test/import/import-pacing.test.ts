/**
 * The import against a source that limits its rate: the SDK paces the requests by the source's `RateLimit` fields
 * (and would wait out a 429's `Retry-After`), and the copy is whole, with no request refused in the end. The progress shown: a bar redrawn on a terminal, a line per
 * shop elsewhere.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type StorefrontServer } from '../../src/create-server.js';
import { importShop } from '../../src/import/import-shop.js';
import { type ImportProgress, progressReporter } from '../../src/import/progress.js';
import { type DemoCredentials, seed } from '../../src/seed/index.js';
import { useTempDir } from '../helpers/temp-dir.js';

const SECRET = 'paced-source-secret';
const tempDir = useTempDir();
let source: StorefrontServer;
let credentials: DemoCredentials;

beforeAll(async () => {
  const seeded = seed({ seed: 3, products: 60, orders: 10, clientSecret: SECRET });
  credentials = seeded.credentials;
  source = await createServer({ port: 0, data: seeded.dataset, rateLimit: { quota: 30, windowSeconds: 1 } });
});

afterAll(async () => {
  await source?.close();
});

describe('importShop against a rate limit', () => {
  it('keeps to the limit over several windows and copies everything', async () => {
    const statuses: number[] = [];
    const counting: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      statuses.push(response.status);
      return response;
    };
    const report = await importShop({
      from: { url: source.baseUrl, clientId: credentials.clientId, clientSecret: SECRET, fetch: counting },
      to: join(await tempDir(), 'copy'),
      concurrency: 4,
    });
    // Several windows' quota: the limit was met, and no answer but a 429 (retried) was an error.
    expect(statuses.length).toBeGreaterThan(2 * 30);
    expect(statuses.filter((status) => status >= 400 && status !== 429)).toEqual([]);
    expect(report.rows.products).toBe(source.store.all('products').filter((p) => p.shop_id !== '3').length);
  }, 60_000);
});

describe('progressReporter', () => {
  const events: ImportProgress[] = [
    { shop: { id: '1', name: 'North' }, phase: 'products', done: 50, total: 100 },
    {
      shop: { id: '1', name: 'North' },
      phase: 'done',
      done: 1,
      total: 1,
      counts: { products: 100, orders: 2, themes: 1, templates: 3, assets: 4 },
    },
  ];
  const shown = (isTTY: boolean) => {
    let text = '';
    const reporter = progressReporter({ isTTY, columns: 80, write: (chunk: string) => (text += chunk) });
    for (const event of events) reporter.onProgress(event);
    reporter.end();
    return text;
  };

  it('draws a bar on a terminal and writes a line per shop elsewhere', () => {
    expect(shown(true)).toContain('[############------------] shop 1 products 50/100');
    expect(shown(false)).toBe('shop 1 North: 100 products, 2 orders, 1 theme, 3 templates, 4 assets\n');
  });
});
