/**
 * React sign-in from a dev server's address (issue #38): a page on `http://localhost:PORT`, as Vite serves one,
 * signs in with the provider's defaults and the demo app, the server started without any redirect flag: the demo
 * app, a native app using PKCE, takes any port of its `localhost` redirect URI in the code flow.
 */
import { createServer, type StorefrontServer } from '@storefront-platform/server';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bundlePage } from './support/bundle.js';
import { describeInBrowser, launchChromium } from './support/chromium.js';
import { approveOnAuthorizePage } from './support/sign-in.js';
import { type StaticSite, serveSite } from './support/static-site.js';

const PASSWORD = 'dev server password';
const HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dev server</title><link rel="icon" href="data:,">
<script type="module" src="/app.js"></script></head><body><div id="app"></div></body></html>`;

describeInBrowser('React sign-in from a page served on localhost', () => {
  let server: StorefrontServer;
  let site: StaticSite;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      createServer({ port: 0, products: 3, demo: { password: PASSWORD } }),
      launchChromium(),
    ]);
    const page = { type: 'text/html; charset=utf-8', body: HTML };
    const config = { baseUrl: server.baseUrl, authUrl: server.origin, clientId: server.credentials!.clientId };
    site = await serveSite(
      {
        '/': page,
        '/callback': page,
        '/app.js': {
          type: 'text/javascript; charset=utf-8',
          body: await bundlePage(new URL('./dev-server/main.tsx', import.meta.url)),
        },
        '/config.json': { type: 'application/json', body: JSON.stringify(config) },
      },
      'localhost',
    );
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([site?.close(), server?.close()]);
  });

  it('signs in with the defaults: the code flow with PKCE, back at {origin}/callback', async () => {
    expect(site.origin).toMatch(/^http:\/\/localhost:\d+$/);
    const page = await browser.newPage();
    const authorizeUrls: URL[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/oauth/authorize?')) authorizeUrls.push(new URL(request.url()));
    });
    await page.goto(site.origin);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await approveOnAuthorizePage(page, server.credentials!.login, PASSWORD);
    await page.waitForSelector('#user:text-matches("^Signed in as ")');
    expect(await page.textContent('#user')).toMatch(/^Signed in as \S/);
    const sent = authorizeUrls[0]!.searchParams;
    expect(sent.get('response_type')).toBe('code');
    expect(sent.get('redirect_uri')).toBe(`${site.origin}/callback`);
    expect(sent.get('code_challenge_method')).toBe('S256');
    expect(page.url()).toBe(`${site.origin}/`);
  });
});
