/**
 * The SDK in a browser page served from another origin than the API: sign-in through the code flow with PKCE,
 * products across pages, a template write, and the headers the page reads through CORS (`ETag`,
 * `X-OAuth-Scopes`), all in Chromium against the reference server.
 */

import { createServer, type StorefrontServer } from '@storefront-platform/server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser, launchChromium } from './support/chromium.js';
import { eventually } from './support/eventually.js';
import { serveShopApp } from './support/shop-app-site.js';
import { approveOnAuthorizePage } from './support/sign-in.js';
import type { StaticSite } from './support/static-site.js';

const PASSWORD = 'browser test password';

describeInBrowser('the SDK in a page on another origin (CORS)', () => {
  let server: StorefrontServer;
  let site: StaticSite;
  let browser: Browser;
  let page: Page;
  const log: string[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      createServer({ port: 0, products: 60, demo: { password: PASSWORD }, log: (line) => log.push(line) }),
      launchChromium(),
    ]);
    // 127.0.0.1 on any port matches the demo app's loopback redirect URI (RFC 8252 §7.3).
    site = await serveShopApp('main.ts', {
      baseUrl: server.baseUrl,
      authUrl: server.origin,
      clientId: server.credentials!.clientId,
    });
    page = await browser.newPage();
    // Signed in once for every test (the code flow with PKCE), so that none depends on another's success.
    await page.goto(site.origin);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await approveOnAuthorizePage(page, server.credentials!.login, PASSWORD);
    await page.waitForURL(`${site.origin}/`);
    await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('Signed in as '));
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([site?.close(), server?.close()]);
  });

  it('signed in with the code flow from another origin, reads X-OAuth-Scopes of the root through CORS', async () => {
    expect(new URL(site.origin).origin).not.toBe(server.origin);
    expect(await page.textContent('#status')).toMatch(/^Signed in as Dana Demo: /);
    expect(await page.textContent('#scopes')).toBe('admin');
    // Requests with an Authorization header are not simple: Chromium asked the API first.
    expect(log.some((line) => line.startsWith('OPTIONS /v1'))).toBe(true);
  });

  it('lists every product of the shop across pages, with the ETag of each page', async () => {
    const shop = server.store.all('shops')[0]!;
    const products = server.store.where('products', 'shop_id', shop.id);
    const expected = products.length;
    const titles: string[] = [];
    const etags = new Set<string>();
    for (let page1 = 1; ; page1++) {
      await eventually(() => page.textContent('#page')).toMatch(new RegExp(`^Page ${page1} of `));
      titles.push(...(await page.locator('#products tr td:first-child').allTextContents()));
      etags.add((await page.textContent('#etag'))!);
      if (await page.locator('#next').isDisabled()) break;
      await page.click('#next');
    }
    expect(await page.textContent('#page')).toBe(
      `Page ${Math.ceil(expected / 10)} of ${Math.ceil(expected / 10)} · ${expected} products`,
    );
    // Hidden ones included: the token is the administrator's.
    expect(titles.sort()).toEqual(products.map((product) => product.title).sort());
    expect([...etags].every((etag) => /^"[^"]+"$/.test(etag))).toBe(true);
    expect(etags.size).toBe(Math.ceil(expected / 10));
  });

  it('writes a template through the API', async () => {
    await page.fill('#template-body', '<p>Written from Chromium</p>');
    await page.click('text=Save template');
    await expect
      .poll(() => page.textContent('#template-result'))
      .toMatch(/^Saved snippets\/browser-test\.html \(201\), updated_on \d{4}-/);
    const saved = server.store.all('templates').find((t) => t.file_name === 'snippets/browser-test.html');
    expect(saved?.body).toBe('<p>Written from Chromium</p>');
  });
});
