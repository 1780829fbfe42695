/**
 * A page in Chromium on another origin cannot steer the sandbox: the control API sends no CORS headers, so the
 * browser refuses the page its preflighted request (the token travels only in `Authorization`), and the answer
 * of a simple request (no token: a 401) is not readable either. The same page reads the API itself, open to
 * every origin, which shows that the refusal is the control API's own.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser, launchChromium } from '../../../test/browser/support/chromium.js';
import { type StaticSite, serveSite } from '../../../test/browser/support/static-site.js';
import { createServer, type StorefrontServer } from '../../src/create-server.js';

describeInBrowser('the control API from a page on another origin', () => {
  let server: StorefrontServer;
  let site: StaticSite;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [server, browser, site] = await Promise.all([
      createServer({ port: 0, products: 3, control: true, explorer: false }),
      launchChromium(),
      serveSite({ '/': { type: 'text/html', body: '<!doctype html><title>another origin</title>' } }),
    ]);
    page = await browser.newPage();
    await page.goto(site.origin);
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([site?.close(), server?.close()]);
  });

  /** What the page's `fetch` gave: the status it could read, or the error. */
  const fromPage = (url: string, init: { method: string; headers?: Record<string, string> }) =>
    page.evaluate(
      async ([target, options]) => {
        try {
          return `status ${(await fetch(target, options)).status}`;
        } catch (error) {
          return `refused: ${(error as Error).name}`;
        }
      },
      [url, init] as const,
    );

  it('is refused, with the token and without it, where the API answers', async () => {
    expect(new URL(site.origin).origin).not.toBe(server.origin);
    const { url, token } = server.control!;
    const withToken = { method: 'POST', headers: { authorization: `Bearer ${token}` } };
    expect(await fromPage(`${url}/reset`, withToken)).toBe('refused: TypeError');
    expect(await fromPage(`${url}/snapshots`, { method: 'GET' })).toBe('refused: TypeError');
    expect(await fromPage(`${server.baseUrl}/shops.json`, { method: 'GET' })).toBe('status 401');
  });
});
