/**
 * MSW in the browser: the shop app page with its SDK calls answered by `setupWorker(...createHandlers().handlers)`
 * through MSW's service worker (served at the page's root, as msw documents), with no server running: the API's
 * origin does not even resolve. Failures the tests put in with `worker.use(...)` show as the app shows them.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { StorefrontMock } from '@storefront-platform/server/msw';
import type { SetupWorker } from 'msw/browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser, launchChromium } from './support/chromium.js';
import { eventually } from './support/eventually.js';
import { serveShopApp } from './support/shop-app-site.js';
import type { StaticSite } from './support/static-site.js';

/** `.invalid` never resolves (RFC 2606): every answer the page gets comes from the service worker. */
const API_ORIGIN = 'http://storefront.invalid';

declare global {
  interface Window {
    storefrontMock: { mock: StorefrontMock; worker: SetupWorker };
  }
}

describeInBrowser('MSW in the browser (service worker)', () => {
  let site: StaticSite;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const workerScript = await readFile(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'), 'utf8');
    [site, browser] = await Promise.all([
      serveShopApp(
        'mocked.ts',
        { baseUrl: `${API_ORIGIN}/v1`, authUrl: API_ORIGIN, clientId: 'storefront-msw-demo' },
        { '/mockServiceWorker.js': { type: 'text/javascript; charset=utf-8', body: workerScript } },
      ),
      launchChromium(),
    ]);
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  it('lists the mock’s products through the service worker, page by page', async () => {
    await page.goto(site.origin);
    await eventually(() => page.textContent('#status')).toMatch(/^Signed in as Dana Demo: /);
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(
      `${site.origin}/mockServiceWorker.js`,
    );
    expect(await page.textContent('#scopes')).toBe('admin');
    expect(await page.locator('#products tr').count()).toBe(10);
    const first = await page.textContent('#page');
    expect(first).toMatch(/^Page 1 of \d+ · \d+ products$/);
    await page.click('#next');
    await eventually(() => page.textContent('#page')).toMatch(/^Page 2 of /);
    expect(await page.textContent('#etag')).toMatch(/^"[^"]+"$/);
  });

  it('writes a template into the mock', async () => {
    await page.fill('#template-body', '<p>Written to the mock</p>');
    await page.click('text=Save template');
    await expect
      .poll(() => page.textContent('#template-result'))
      .toMatch(/^Saved snippets\/browser-test\.html \(201\)/);
    const body = await page.evaluate(
      () =>
        window.storefrontMock.mock.store.all('templates').find((t) => t.file_name === 'snippets/browser-test.html')
          ?.body,
    );
    expect(body).toBe('<p>Written to the mock</p>');
  });

  it('asks to sign in again when the token expires (a browser cannot renew an implicit-grant token)', async () => {
    await page.evaluate(() => {
      const { mock, worker } = window.storefrontMock;
      worker.use(mock.expiredToken());
    });
    await page.click('#reload');
    await eventually(() => page.isVisible('#sign-in')).toBe(true);
    expect(await page.textContent('#sign-in-message')).toBe('Your session has expired: sign in again.');
    expect(await page.isVisible('#catalog')).toBe(false);
  });

  it('shows an error banner for a 5xx', async () => {
    // A new page load is a new mock with a fresh token, as after signing in again.
    await page.reload();
    await eventually(() => page.textContent('#status')).toMatch(/^Signed in as /);
    await page.evaluate(() => {
      const { mock, worker } = window.storefrontMock;
      worker.use(mock.serverError({ status: 503, retryAfter: 0 }));
    });
    await page.click('#reload');
    await eventually(() => page.isVisible('#error')).toBe(true);
    expect(await page.textContent('#error')).toMatch(
      /^Something went wrong: GET .* failed with 503: Service unavailable/,
    );
    expect(await page.isVisible('#sign-in')).toBe(false);

    await page.evaluate(() => window.storefrontMock.worker.resetHandlers());
    await page.click('#reload');
    await eventually(() => page.isVisible('#error')).toBe(false);
  });
});
