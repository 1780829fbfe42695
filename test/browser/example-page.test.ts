/**
 * The browser example (`examples/browser/`) in Chromium against the reference server, as its README tells a
 * developer to run it: sign in through the code flow with PKCE, then every visible product of the first shop, page
 * by page.
 */

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer, type StorefrontServer } from '@storefront-platform/server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serveBrowserExample } from '../../examples/browser/serve.js';
import { describeInBrowser, launchChromium } from './support/chromium.js';
import { eventually } from './support/eventually.js';
import { approveOnAuthorizePage } from './support/sign-in.js';

const PASSWORD = 'example page password';

describeInBrowser('the browser example', () => {
  let server: StorefrontServer;
  let site: Server;
  let origin: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([createServer({ port: 0, demo: { password: PASSWORD } }), launchChromium()]);
    const { clientId } = server.credentials!;
    site = await serveBrowserExample({ baseUrl: server.baseUrl, authUrl: server.origin, clientId }, 0);
    origin = `http://localhost:${(site.address() as AddressInfo).port}`;
    // The demo app knows port 8080; this run's page is on a free port.
    const app = server.store.where('apps', 'client_id', clientId)[0]!;
    await server.store.write((tx) =>
      tx.update('apps', app.id, { redirect_uris: [...app.redirect_uris, `${origin}/callback`] }),
    );
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((closed) => site?.close(closed));
    await server?.close();
  });

  it('signs in and lists every visible product of the first shop across its pages', async () => {
    await page.goto(`${origin}/`);
    await page.getByRole('button', { name: 'Sign in with the Storefront platform' }).click();
    await approveOnAuthorizePage(page, server.credentials!.login, PASSWORD);
    await eventually(() => page.textContent('#status')).toBe('Signed in as Dana Demo.');

    const visible = server.store.where('products', 'shop_id', '1').filter((p) => p.status === 'visible');
    const pages = Math.ceil(visible.length / 10);
    const titles: string[] = [];
    for (let n = 1; n <= pages; n++) {
      await eventually(() => page.textContent('#page')).toBe(`Page ${n} of ${pages} · ${visible.length} products`);
      titles.push(...(await page.locator('#products tr td:first-child').allTextContents()));
      if (n < pages) await page.click('#next');
    }
    expect(await page.isDisabled('#next')).toBe(true);
    expect(titles.sort()).toEqual(visible.map((p) => p.title).sort());
  });
});
