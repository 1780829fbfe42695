/**
 * The React shop (`examples/react-shop/`), built by Vite as `npm run example:react` builds it, in Chromium: against
 * the reference server (sign in through the code flow with PKCE, scroll the products two pages further, open a product,
 * edit a template and see the change, then a conflicting edit shown as one), and in its offline mode, the API
 * answered in the page by the MSW handlers through a service worker.
 *
 * `STOREFRONT_SCREENSHOTS=1` saves screenshots of the pages into docs/images (those of docs/react.md).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, type StorefrontServer } from '@storefront-platform/server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildReactShop, OFFLINE, serveReactShop, shopConfig } from '../../examples/react-shop/serve.js';
import { describeInBrowser, launchChromium } from './support/chromium.js';
import { eventually } from './support/eventually.js';
import { approveOnAuthorizePage } from './support/sign-in.js';

const PASSWORD = 'react shop password';
/** The list's page size (`ProductList.tsx`): a page is taller than the window, so scrolling loads the next. */
const PER_PAGE = 20;
const screenshots = process.env.STOREFRONT_SCREENSHOTS
  ? fileURLToPath(new URL('../../docs/images/', import.meta.url))
  : undefined;

async function snap(page: Page, name: string, fullPage = false): Promise<void> {
  if (screenshots) await page.screenshot({ path: join(screenshots, `react-shop-${name}.png`), fullPage });
}

const closeSite = (site: Server | undefined) => new Promise((closed) => (site ? site.close(closed) : closed(null)));

describeInBrowser('the React shop example', () => {
  let server: StorefrontServer;
  let browser: Browser;
  let outDir: string;
  let site: Server;
  let origin: string;
  let page: Page;

  beforeAll(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'react-shop-'));
    [server, browser] = await Promise.all([
      createServer({ port: 0, demo: { password: PASSWORD } }),
      launchChromium(),
      buildReactShop(outDir),
    ]);
    const { clientId } = server.credentials!;
    site = await serveReactShop(outDir, shopConfig({ baseUrl: server.baseUrl, authUrl: server.origin, clientId }), 0);
    origin = `http://localhost:${(site.address() as AddressInfo).port}`;
    // The demo app knows port 8080; this run's page is on a free port.
    const app = server.store.where('apps', 'client_id', server.credentials!.clientId)[0]!;
    await server.store.write((tx) =>
      tx.update('apps', app.id, { redirect_uris: [...app.redirect_uris, `${origin}/callback`] }),
    );
    page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
  });
  afterAll(async () => {
    await browser?.close();
    await closeSite(site);
    await server?.close();
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  it('signs in, then loads the next pages of products as the list is scrolled to its end', async () => {
    await page.goto(`${origin}/`);
    await snap(page, 'sign-in');
    await page.getByRole('button', { name: 'Sign in with the Storefront platform' }).click();
    await approveOnAuthorizePage(page, server.credentials!.login, PASSWORD);
    await eventually(() => page.textContent('#user')).toBe('Dana Demo');

    // The shop's products, newest first, as the list asks for them (an admin sees hidden ones too).
    const products = [...server.store.where('products', 'shop_id', '1')].sort(
      (a, b) => b.created_on.localeCompare(a.created_on) || Number(b.id) - Number(a.id),
    );
    expect(products.length).toBeGreaterThan(3 * PER_PAGE);
    const count = (pages: number) => `${pages * PER_PAGE} of ${products.length} products · ${pages} pages`;
    await eventually(() => page.textContent('#count')).toBe(count(1));
    await snap(page, 'products');
    for (const pages of [2, 3]) {
      await page.locator('#list-end').scrollIntoViewIfNeeded();
      await eventually(() => page.textContent('#count')).toBe(count(pages));
    }
    const titles = await page.locator('.products .title').allTextContents();
    expect(titles).toEqual(products.slice(0, 3 * PER_PAGE).map((p) => p.title));
  });

  it('searches, and opens a product’s page', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    const wanted = server.store.where('products', 'shop_id', '1')[0]!;
    await page.getByRole('searchbox', { name: 'Search products' }).fill(wanted.title);
    await page.getByRole('button', { name: 'Search' }).click();
    await eventually(() => page.locator('.products .title').allTextContents()).toContain(wanted.title);
    await page.locator('.products a', { hasText: wanted.title }).first().click();
    await eventually(() => page.locator('article.product h1').textContent()).toBe(wanted.title);
    expect(await page.locator('article.product tbody tr').count()).toBe(wanted.variants.length);
    await snap(page, 'product');
  });

  it('edits a template and shows the change; a change made elsewhere meanwhile is a conflict, not overwritten', async () => {
    await page.getByRole('link', { name: 'Templates' }).click();
    const editor = page.locator('#template-body');
    await eventually(() => editor.isVisible()).toBe(true);
    const name = await page.locator('.editor label').textContent();
    const theme = server.store.where('themes', 'shop_id', '1').find((t) => t.production)!;
    const row = () => server.store.where('templates', 'theme_id', theme.id).find((t) => t.file_name === name)!;
    const before = await page.textContent('#updated-on');

    await editor.fill('<h1>Edited in the React shop</h1>');
    await page.getByRole('button', { name: 'Save template' }).click();
    await eventually(() => page.textContent('#save-status')).toBe('Saved.');
    await eventually(() => page.textContent('#updated-on')).not.toBe(before);
    expect(await editor.inputValue()).toBe('<h1>Edited in the React shop</h1>');
    expect(row().body).toBe('<h1>Edited in the React shop</h1>');
    await snap(page, 'template-saved', true);

    // Someone else saves the template (another tab, the theme CLI) while this editor still shows the old one.
    await server.store.write((tx) =>
      tx.update('templates', row().id, { body: '<h1>Theirs</h1>', updated_on: new Date().toISOString() }),
    );
    await editor.fill('<h1>Mine, on the old copy</h1>');
    await page.getByRole('button', { name: 'Save template' }).click();
    await eventually(() => page.getByRole('alert').textContent()).toMatch(/^Someone changed this template/);
    expect(row().body).toBe('<h1>Theirs</h1>');
    await snap(page, 'template-conflict', true);
    await page.getByRole('button', { name: 'Load their version' }).click();
    await eventually(() => editor.inputValue()).toBe('<h1>Theirs</h1>');
  });

  it('runs offline, its API answered in the page by the MSW handlers', async () => {
    const offline = await serveReactShop(outDir, OFFLINE, 0);
    const mocked = await browser.newPage();
    try {
      await mocked.goto(`http://localhost:${(offline.address() as AddressInfo).port}/`);
      await eventually(() => mocked.textContent('#user')).toBe('Dana Demo');
      await eventually(() => mocked.textContent('#count')).toMatch(/^\d+ of \d+ products · \d+ pages$/);
      expect(await mocked.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(
        /\/mockServiceWorker\.js$/,
      );
    } finally {
      await mocked.close();
      await closeSite(offline);
    }
  });
});
