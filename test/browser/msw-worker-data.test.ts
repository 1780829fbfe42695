/**
 * An imported shop in the browser's mock: `storefront-server import`'s data set, written as one JSON file as
 * docs/msw.md shows, fetched by the page and passed to `createHandlers({ data })` under MSW's service worker. The
 * page lists the copy's products, not the demo data's.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createServer, importShop, readDataset } from '@storefront-platform/server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seed } from '../../server/src/seed/index.js';
import { useTempDir } from '../../server/test/helpers/temp-dir.js';
import { describeInBrowser, launchChromium } from './support/chromium.js';
import { eventually } from './support/eventually.js';
import { serveShopApp } from './support/shop-app-site.js';
import type { StaticSite } from './support/static-site.js';

const API_ORIGIN = 'http://storefront.invalid';
const tempDir = useTempDir();

describeInBrowser('an imported shop in the browser mock', () => {
  let site: StaticSite;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const { dataset, credentials } = seed({ seed: 3, products: 23 });
    for (const shop of dataset.shops) shop.owner_id = dataset.users[0]!.id;
    const first = dataset.products.find((product) => product.shop_id === dataset.shops[0]!.id)!;
    first.title = 'Only in the imported shop';
    const source = await createServer({ port: 0, data: dataset, explorer: false });
    const dir = join(await tempDir(), 'shop-data');
    try {
      await importShop({
        from: { url: source.baseUrl, ...credentials },
        to: dir,
        publicUrl: API_ORIGIN,
      });
    } finally {
      await source.close();
    }
    const workerScript = await readFile(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'), 'utf8');
    [site, browser] = await Promise.all([
      serveShopApp(
        'mocked.ts',
        { baseUrl: `${API_ORIGIN}/v1`, authUrl: API_ORIGIN, clientId: 'unused' },
        {
          '/mockServiceWorker.js': { type: 'text/javascript; charset=utf-8', body: workerScript },
          '/shop.dataset.json': { type: 'application/json', body: JSON.stringify(await readDataset(dir)) },
        },
      ),
      launchChromium(),
    ]);
    page = await browser.newPage();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  it("lists the copy's products through the service worker", async () => {
    await page.goto(site.origin);
    await eventually(() => page.textContent('#status')).toMatch(/^Signed in as Dana Demo: /);
    const titles = await page.locator('#products tr td:first-child').allTextContents();
    expect(titles).toContain('Only in the imported shop');
  });
});
