/**
 * The explorer runs its own scripts only: a theme's `.js` template, created through the API and served by the same
 * origin at the theme's login-free preview address, is refused when added to the explorer page as `<script src>`
 * (a `securitypolicyviolation`, and the script's side effect never happens). That the page's own script and the
 * code editor's chunk it imports later still run under the same policy, explorer-daily's editing tests show.
 */
import { clientCredentials, createClient } from '@storefront-platform/sdk';
import { createServer, type StorefrontServer } from '@storefront-platform/server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser, launchChromium } from './support/chromium.js';
import { eventually } from './support/eventually.js';

describeInBrowser('API explorer CSP', () => {
  let server: StorefrontServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([createServer({ port: 0, products: 3 }), launchChromium()]);
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("refuses a theme's .js file served by the same origin, added as <script src>", async () => {
    const client = createClient({
      baseUrl: server.baseUrl,
      auth: clientCredentials({ ...server.credentials!, authUrl: server.origin, scope: 'admin' }),
    });
    const shop = await (await client.root()).follow('svc:shop', { id: '1' });
    const theme = await shop.follow('svc:theme');
    const fileName = 'scripts/csp-probe.js';
    await theme.follow('svc:create_template', { file_name: fileName, body: 'window.themeScriptRan = true;\n' });
    const script = new URL(fileName, theme.link('svc:theme_preview')!.resolve().url).href;
    // The file is there, as JavaScript, for anyone: only the page's policy stands between it and the explorer.
    const served = await fetch(script);
    expect([served.status, served.headers.get('content-type')]).toEqual([200, expect.stringMatching(/javascript/)]);
    expect(await served.text()).toBe('window.themeScriptRan = true;\n');

    await page.goto(server.explorerUrl!);
    await eventually(() => page.textContent('#sign-in-title')).toBe('Sign in');
    const outcome = await page.evaluate(
      (src) =>
        new Promise<{ violated: string | undefined; ran: boolean; loaded: boolean }>((resolve) => {
          let violated: string | undefined;
          document.addEventListener('securitypolicyviolation', (event) => {
            violated = event.effectiveDirective;
          });
          const element = document.createElement('script');
          element.src = src;
          const done = (loaded: boolean) => () =>
            resolve({ violated, ran: (window as { themeScriptRan?: boolean }).themeScriptRan === true, loaded });
          element.onload = done(true);
          element.onerror = done(false);
          document.head.append(element);
        }),
      script,
    );
    expect(outcome).toEqual({ violated: 'script-src-elem', ran: false, loaded: false });
  });
});
