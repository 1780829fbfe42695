/**
 * The API explorer's details, checked against what the server actually serves and sends: each relation's
 * documentation link and the `/rels/` page behind it, the resource's `_class`, the `ETag` and `Last-Modified`
 * of an answer (a 200, a write's answer, a 304), and keyboard-only use of the product search form dialog and of
 * views the main explorer test does not tab through. One server, one Chromium, one sign-in (with the mouse: the
 * main test signs in with the keyboard).
 */

import { createServer, type StorefrontServer } from '@storefront-platform/server';
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { axeViolations, serious } from './support/axe.js';
import { describeInBrowser, launchChromium } from './support/chromium.js';
import { eventually } from './support/eventually.js';
import { markControls, tabThrough, tabTo } from './support/keyboard.js';
import { approveOnAuthorizePage } from './support/sign-in.js';

const PASSWORD = 'explorer details password';
/** The template the tests read, document and edit. */
const TEMPLATE = 'product.html';

/** What a row of the links table shows: the relation, its docs link, the method. */
interface LinkRow {
  rel: string;
  docs: string | null;
  docsLabel: string | null;
  method: string;
}

describeInBrowser('API explorer: relation docs, _class, validators, keyboard in the search dialog', () => {
  let server: StorefrontServer;
  let browser: Browser;
  let page: Page;
  /** The explorer's own `Authorization` header, as it sent it: the same token for plain fetches. */
  let authorization: string;
  let shopName: string;
  let themeId: string;
  const pageErrors: string[] = [];

  const heading = () => page.textContent('#resource-title');
  const shownUrl = () => page.textContent('.answer .url');
  /** The value of a header in the answer panel; `null` when the panel does not show it. */
  const shownHeader = (name: string) =>
    page.evaluate((name) => {
      const term = [...document.querySelectorAll('.answer .headers dt')].find((dt) => dt.textContent === name);
      return term?.nextElementSibling?.textContent ?? null;
    }, name);
  const focused = () =>
    page.evaluate(() => {
      const element = document.activeElement;
      return element ? { id: element.id, label: element.getAttribute('aria-label'), tag: element.tagName } : null;
    });
  /** A GET of the API with the explorer's token, outside the page (no cache, no SDK). */
  const apiGet = (url: string) => fetch(url, { headers: { authorization } });
  /** The next answer of the API to a `method` request for `url`, as Chromium received it. */
  const answerTo = (url: string, method = 'GET') =>
    page.waitForResponse((r) => r.url() === url && r.request().method() === method);

  /** Opens the explorer on the API resource at `url` (a fresh page load: a 200, not a 304) and waits for it. */
  async function show(url: string): Promise<Response> {
    const answered = answerTo(url);
    const { pathname, search } = new URL(url);
    await page.goto(`${server.origin}/explorer${pathname}${search}`);
    const response = await answered;
    await eventually(shownUrl).toBe(url);
    await page.waitForSelector('#resource-title');
    return response;
  }

  const linkRows = () =>
    page.locator('.links tbody tr').evaluateAll((rows) =>
      rows.map((row) => {
        const docs = row.querySelector<HTMLAnchorElement>('th a.docs');
        return {
          rel: row.getAttribute('data-rel')!,
          docs: docs?.getAttribute('href') ?? null,
          docsLabel: docs?.getAttribute('aria-label') ?? null,
          method: row.querySelector('td[data-label="Method"]')!.textContent!,
        };
      }),
    );

  async function expectAccessible(view: string) {
    expect(serious(await axeViolations(page)), view).toEqual([]);
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      createServer({ port: 0, products: 30, demo: { password: PASSWORD } }),
      launchChromium(),
    ]);
    shopName = server.store.get('shops', '1')!.name;
    themeId = server.store.all('themes').find((t) => t.shop_id === '1' && t.production)!.id;
    page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(server.explorerUrl!);
    await page.check('input[name=scope][value=admin]');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const landed = answerTo(server.baseUrl);
    await approveOnAuthorizePage(page, server.credentials!.login, PASSWORD);
    const root = await landed;
    authorization = (await root.request().headerValue('authorization'))!;
    expect(authorization).toMatch(/^Bearer \S+$/);
    await page.waitForFunction(() => document.getElementById('resource-title')?.textContent === 'Dana Demo');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /**
   * Root, shop, theme, a template and a product: five resources with five classes, and links of their own with
   * every method (a template other than the layout can be deleted).
   */
  const views = () => {
    const template = server.store.where('templates', 'theme_id', themeId).find((t) => t.file_name === TEMPLATE)!;
    const product = server.store.where('products', 'shop_id', '1')[0]!;
    return [
      server.baseUrl,
      `${server.baseUrl}/shops/1.json`,
      `${server.baseUrl}/shops/1/theme.json`,
      `${server.baseUrl}/themes/${themeId}/templates/${template.id}`,
      `${server.baseUrl}/shops/1/products/${product.id}.json`,
    ];
  };

  it("links each svc: relation to its /rels/ page, whose documentation is that relation's, with the link's method", async () => {
    const documented = new Map<string, string>();
    for (const url of views()) {
      await show(url);
      const rows: LinkRow[] = await linkRows();
      const document = (await (await apiGet(url)).json()) as { _links: Record<string, unknown> };
      // Every relation of the resource has its row (the curies only say where the documentation is).
      const rels = Object.keys(document._links).filter((rel) => rel !== 'curies');
      expect(new Set(rows.map((row) => row.rel)), url).toEqual(new Set(rels));
      for (const row of rows) {
        if (!row.rel.startsWith('svc:')) {
          // `self`, `service-doc`, `file`: IANA's or plain relations, with no page of ours.
          expect(row.docs, `${url} ${row.rel}`).toBeNull();
          continue;
        }
        expect(row.docs, `${url} ${row.rel}`).toBe(`${server.origin}/rels/${row.rel.slice('svc:'.length)}`);
        expect(row.docsLabel).toBe(`docs of ${row.rel}`);
        documented.set(row.docs!, row.method);
      }
    }
    // The five views between them link to many relations, writes among them.
    expect(documented.size).toBeGreaterThan(10);
    expect(new Set(documented.values())).toEqual(new Set(['GET', 'PUT', 'POST', 'DELETE']));
    for (const [docs, method] of documented) {
      const response = await fetch(docs);
      expect(response.status, docs).toBe(200);
      expect(response.headers.get('content-type'), docs).toMatch(/^text\/html/);
      const html = await response.text();
      const rel = `svc:${docs.slice(`${server.origin}/rels/`.length)}`;
      expect(html, docs).toContain(`<h1><code>${rel}</code></h1>`);
      expect(html, docs).toContain(`<th scope="row">Method</th><td><code>${method}</code></td>`);
    }
  });

  it('follows a docs link from the keyboard to the relation page, and comes back to the resource signed in', async () => {
    const [template] = views().slice(3);
    await show(template!);
    expect(await tabTo(page, 'a.docs[aria-label="docs of svc:update_template"]')).toBe(true);
    const docs = `${server.origin}/rels/update_template`;
    const answered = page.waitForResponse((r) => r.request().isNavigationRequest());
    await page.keyboard.press('Enter');
    const response = await answered;
    expect(response.url()).toBe(docs);
    expect(response.status()).toBe(200);
    await page.waitForURL(docs);
    expect(await page.textContent('h1')).toBe('svc:update_template');
    expect(await page.title()).toBe('svc:update_template · Storefront API relations');

    await page.goBack();
    await eventually(heading).toBe(TEMPLATE);
    expect(await shownUrl()).toBe(template);
    expect(await page.textContent('#session-scopes')).toBe('admin');
  });

  it("shows each resource's _class, as the server sent it", async () => {
    const seen = new Set<string>();
    for (const url of views()) {
      await show(url);
      const { _class } = (await (await apiGet(url)).json()) as { _class: string[] };
      expect(_class.length, url).toBeGreaterThan(0);
      expect(await page.locator('.resource .classes code.class').allTextContents(), url).toEqual(_class);
      for (const name of _class) seen.add(name);
    }
    // Five different classes: a page that kept showing one view's class would fail above.
    expect(seen).toEqual(new Set(['root', 'shop', 'theme', 'themeTemplate', 'product']));
  });

  it('shows the ETag and Last-Modified the server sent, for a read, a write and a 304', async () => {
    // A read: what Chromium received, and what a plain GET with the same token gets.
    const shopUrl = `${server.baseUrl}/shops/1.json`;
    const read = await show(shopUrl);
    const etag = read.headers().etag;
    const lastModified = read.headers()['last-modified'];
    expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
    expect(lastModified).toBeTruthy();
    expect(await shownHeader('etag')).toBe(etag);
    expect(await shownHeader('last-modified')).toBe(lastModified);
    const plain = await apiGet(shopUrl);
    expect(plain.headers.get('etag')).toBe(etag);
    expect(plain.headers.get('last-modified')).toBe(lastModified);

    // Another resource has its own validators; the panel shows them, not the shop's.
    const templateUrl = views()[3]!;
    const before = await show(templateUrl);
    const etagBefore = before.headers().etag!;
    expect(etagBefore).not.toBe(etag);
    expect(await shownHeader('etag')).toBe(etagBefore);
    expect(await shownHeader('last-modified')).toBe(before.headers()['last-modified']);

    // A write: the answer to the PUT carries the new validators, which a plain GET then confirms.
    await page.getByRole('button', { name: `PUT… svc:update_template of ${TEMPLATE}` }).click();
    await page.waitForSelector('dialog[open] .cm-editor');
    const source = server.store.get('templates', templateUrl.split('/').pop()!)!.body;
    await page.locator('#field-body').fill(`${source}<!-- validators -->\n`);
    const written = answerTo(templateUrl, 'PUT');
    await page.getByRole('button', { name: 'Send PUT' }).click();
    const put = await written;
    expect(put.status()).toBe(200);
    await eventually(() => page.textContent('.answer .method')).toBe('PUT');
    const etagAfter = put.headers().etag;
    expect(etagAfter).toMatch(/^(W\/)?"[^"]+"$/);
    expect(etagAfter).not.toBe(etagBefore);
    expect(await shownHeader('etag')).toBe(etagAfter);
    expect(await shownHeader('last-modified')).toBe(put.headers()['last-modified']);
    // The write's answer, under 14 KiB, came uncompressed with the representation's tag; a GET comes gzipped with
    // the gzip coding's tag (`…-gzip"`): two codings of the same state, which preconditions take alike.
    const gzippedAfter = etagAfter!.replace(/"$/, '-gzip"');
    const fresh = await apiGet(templateUrl);
    expect(fresh.headers.get('content-encoding')).toBe('gzip');
    expect(fresh.headers.get('etag')).toBe(gzippedAfter);
    expect(fresh.headers.get('last-modified')).toBe(put.headers()['last-modified']);
    // The validator and the resource agree: Last-Modified is the template's updated_on, to the second.
    const updatedOn = await page.textContent('td[data-property="updated_on"]');
    const second = Math.floor(Date.parse(updatedOn!) / 1000) * 1000;
    expect(await shownHeader('last-modified')).toBe(new Date(second).toUTCString());

    // Away to the shop (typed into Resource URL) and back: the template as the server now sends it, with the
    // validators of the write (the page's cache held the GET from before it: a 200 here, today).
    const back = answerTo(templateUrl);
    await page.getByLabel('Resource URL').fill(shopUrl);
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    await eventually(shownUrl).toBe(shopUrl);
    expect(await shownHeader('etag')).toBe(etag);
    await page.goBack();
    const again = await back;
    await eventually(shownUrl).toBe(templateUrl);
    expect(again.headers().etag).toBe(gzippedAfter);
    expect(await shownHeader('etag')).toBe(gzippedAfter);
    expect(await page.textContent('pre.source')).toContain('<!-- validators -->');

    // A 304: forward to the shop again, which the page's cache now revalidates; the panel shows that answer's.
    const revalidated = answerTo(shopUrl);
    await page.goForward();
    const notModified = await revalidated;
    expect(notModified.status()).toBe(304);
    await eventually(shownUrl).toBe(shopUrl);
    expect(await page.textContent('#answer-status')).toBe('304 Not Modified');
    expect(await shownHeader('etag')).toBe(notModified.headers().etag);
    expect(await shownHeader('last-modified')).toBe(notModified.headers()['last-modified']);
    expect(await shownHeader('etag')).toBe(etag);
    expect(await heading()).toBe(shopName);
  });

  it('reaches every control of the root view with the keyboard, docs links included', async () => {
    await show(server.baseUrl);
    const controls = await markControls(page);
    expect(await page.locator('a.docs[data-kb]').count()).toBeGreaterThan(0);
    const reached = await tabThrough(page, controls + 5);
    expect(reached.size).toBe(controls);
  });

  it('searches products with the keyboard alone: the form dialog keeps Tab inside it, and Enter sends it', async () => {
    const product = server.store.where('products', 'shop_id', '1').find((p) => p.status === 'visible')!;
    const word = product.title.split(' ')[0]!;
    await show(server.baseUrl);
    const opener = 'Fill in… svc:all_products of Dana Demo';
    expect(await tabTo(page, `button[aria-label="${opener}"]`)).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForSelector('dialog[open]');
    // Focus starts in the first field.
    expect((await focused())?.id).toBe('var-q');
    await expectAccessible('search dialog');

    // Tab goes round the dialog's controls (7 fields, Cancel, Send GET), never to the page behind it.
    await markControls(page);
    const inDialog = await page.locator('dialog[open] [data-kb]').count();
    expect(inDialog).toBe(9);
    const reached = new Set<string>();
    const behind: string[] = [];
    for (let i = 0; i < 2 * inDialog + 4; i++) {
      await page.keyboard.press('Tab');
      const where = await page.evaluate(() => {
        const element = document.activeElement;
        if (!element || element === document.body) return { outside: null, mark: null };
        const inside = !!element.closest('dialog[open]');
        return { outside: inside ? null : element.outerHTML.slice(0, 80), mark: (element as HTMLElement).dataset.kb };
      });
      if (where.outside) behind.push(where.outside);
      if (where.mark !== undefined && where.mark !== null) reached.add(where.mark);
    }
    expect(behind).toEqual([]);
    expect(reached.size).toBe(inDialog);

    // Fill two fields and send, keys only.
    expect(await tabTo(page, '#var-q', 2 * inDialog)).toBe(true);
    await page.keyboard.type(word);
    expect(await tabTo(page, '#var-per_page', 2 * inDialog)).toBe(true);
    await page.keyboard.type('5');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.origin}/explorer/v1/products.json?q=${encodeURIComponent(word)}&per_page=5`);
    await eventually(() => page.isVisible('dialog[open]')).toBe(false);
    await eventually(shownUrl).toBe(`${server.baseUrl}/products.json?q=${encodeURIComponent(word)}&per_page=5`);
    expect(await page.textContent('#answer-status')).toBe('200 OK');
    // After the navigation, focus is on the new resource's heading.
    await eventually(async () => (await focused())?.id).toBe('resource-title');
    const items = page.locator('#embedded-items ~ .scroll tbody tr');
    expect(await items.count()).toBeGreaterThan(0);
    expect(await items.count()).toBeLessThanOrEqual(5);
    expect(await items.allTextContents()).toContainEqual(expect.stringContaining(word));

    // The search results: every control there too.
    const controls = await markControls(page);
    expect(await tabThrough(page, controls + 5)).toHaveProperty('size', controls);
  });

  it('closes the search dialog with Escape and with Cancel from the keyboard, sending nothing', async () => {
    await show(server.baseUrl);
    const opener = 'Fill in… svc:all_products of Dana Demo';
    let requests = 0;
    const count = (request: { url(): string }) => {
      if (request.url().startsWith(`${server.baseUrl}/products.json`)) requests++;
    };
    page.on('request', count);
    try {
      for (const close of ['Escape', 'Cancel'] as const) {
        expect(await tabTo(page, `button[aria-label="${opener}"]`), close).toBe(true);
        await page.keyboard.press('Enter');
        await page.waitForSelector('dialog[open]');
        await page.keyboard.type('anything');
        if (close === 'Escape') await page.keyboard.press('Escape');
        else {
          expect(await tabTo(page, 'dialog[open] button[value=cancel]', 20)).toBe(true);
          await page.keyboard.press('Space');
        }
        await eventually(() => page.isVisible('dialog[open]')).toBe(false);
        // Focus is back on the control that opened the dialog, and the page is still the root.
        expect((await focused())?.label, close).toBe(opener);
        expect(await shownUrl(), close).toBe(server.baseUrl);
      }
    } finally {
      page.off('request', count);
    }
    expect(requests).toBe(0);
    expect(page.url()).toBe(`${server.origin}/explorer/v1`);
  });

  it('raised no error in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
