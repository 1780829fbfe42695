/**
 * The API explorer in Chromium, as a developer uses it: sign in through the server's authorization page (by
 * keyboard), go root → shop → theme → a template, edit and save it, search products through a templated link,
 * delete a template, see 403 and 404 rendered as errors, and reload on the same resource. Every view gets an
 * axe-core scan (no serious or critical violation) and the keyboard must reach every control. The render time
 * of a 300-template theme is measured in the page and printed; screenshots are taken along the way.
 */
import { join } from 'node:path';
import { createServer, type StorefrontServer } from '@storefront-platform/server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { axeViolations, serious } from './support/axe.js';
import { describeInBrowser, launchChromium } from './support/chromium.js';
import { eventually } from './support/eventually.js';
import { markControls, tabThrough, tabTo } from './support/keyboard.js';
import { screenshotDir } from './support/screenshots.js';
import { approveOnAuthorizePage } from './support/sign-in.js';

const PASSWORD = 'explorer test password';
const EXTRA_TEMPLATES = 300;

describeInBrowser('API explorer', () => {
  let server: StorefrontServer;
  let browser: Browser;
  let page: Page;
  let shots: string;
  let themeId: string;
  const pageErrors: string[] = [];

  const status = () => page.textContent('#answer-status');
  const heading = () => page.textContent('#resource-title');
  const shot = (name: string) => page.screenshot({ path: join(shots, `${name}.png`) });
  /** Scans the page; serious and critical violations fail the test, others are printed. */
  async function expectAccessible(view: string) {
    const violations = await axeViolations(page);
    const minor = violations.filter((v) => !serious([v]).length);
    if (minor.length) console.log(`axe, ${view}: ${minor.map((v) => `${v.id} (${v.impact})`).join(', ')}`);
    expect(serious(violations), view).toEqual([]);
  }
  /** Clicks the control whose accessible name matches, in the embedded table or the links table. */
  const click = (name: string | RegExp) =>
    page.getByRole('link', { name }).or(page.getByRole('button', { name })).first().click();

  /**
   * Signs in as the administrator (by mouse) unless the page has a session already: the tests after the one of
   * the keyboard sign-in need a session, not that test's success. What they need of the page besides, the view an
   * earlier step left, is said where they need it.
   */
  async function signedIn() {
    if (await page.getByRole('button', { name: 'Sign out' }).isVisible()) return;
    await page.goto(server.explorerUrl!);
    await page.check('input[name=scope][value=admin]');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await approveOnAuthorizePage(page, server.credentials!.login, PASSWORD);
    await page.waitForURL(server.explorerUrl!);
  }

  beforeAll(async () => {
    [server, browser, shots] = await Promise.all([
      createServer({ port: 0, products: 30, demo: { password: PASSWORD } }),
      launchChromium(),
      screenshotDir(),
    ]);
    const theme = server.store.all('themes').find((t) => t.shop_id === '1' && t.production)!;
    themeId = theme.id;
    const now = new Date().toISOString();
    await server.store.write((tx) => {
      for (let i = 1; i <= EXTRA_TEMPLATES; i++) {
        const name = `snippets/extra-${String(i).padStart(3, '0')}.html`;
        const body = `<section class="extra">\n  <h2>Snippet ${i}</h2>\n  <p>{{ shop.name }}</p>\n</section>\n`;
        tx.insert('templates', { theme_id: theme.id, file_name: name, body, created_on: now, updated_on: now });
      }
    });
    page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    console.log(`explorer screenshots: ${shots}`);
  });

  it('is linked from the root resource and offers to sign in', async () => {
    await page.goto(server.explorerUrl!);
    expect(await page.textContent('#sign-in-title')).toBe('Sign in');
    await expectAccessible('sign-in');
  });

  it('signs in with the keyboard through the authorization page, asking for the admin scope', async () => {
    // Tab to the scope choice, arrow to "admin", Tab to the button, Enter.
    expect(await tabTo(page, 'input[name=scope]')).toBe(true);
    await page.keyboard.press('ArrowDown');
    expect(await page.isChecked('input[value=admin]')).toBe(true);
    expect(await tabTo(page, 'button[type=submit]')).toBe(true);
    await page.keyboard.press('Enter');
    await approveOnAuthorizePage(page, server.credentials!.login, PASSWORD);
    await page.waitForURL(server.explorerUrl!);
    expect(await heading()).toBe('Dana Demo');
    expect(await status()).toBe('200 OK');
    expect(await page.textContent('#session-scopes')).toBe('admin');
    // The root links back to the explorer, as the page the API documents itself with.
    expect(await page.locator('tr[data-rel="service-doc"] td.href').textContent()).toBe(server.explorerUrl);
    const scopes = page.locator('.headers dt', { hasText: 'x-oauth-scopes' }).locator('xpath=following-sibling::dd[1]');
    expect(await scopes.textContent()).toBe('admin');
    await expectAccessible('root');
  });

  it('goes root → shop → theme, and shows every template of a 300-template theme, timing how soon', async () => {
    await signedIn();
    if (page.url() !== server.explorerUrl) await page.goto(server.explorerUrl!);
    await eventually(heading).toBe('Dana Demo');
    const shop = server.store.get('shops', '1')!;
    await click(shop.name);
    await page.waitForURL(`${server.origin}/explorer/v1/shops/1.json`);
    expect(await heading()).toBe(shop.name);

    await click('Follow svc:theme of ' + shop.name);
    await page.waitForURL(`${server.origin}/explorer/v1/shops/1/theme.json`);
    const templates = server.store.where('templates', 'theme_id', themeId).length;
    expect(templates).toBeGreaterThan(EXTRA_TEMPLATES);
    expect(await page.textContent('#embedded-templates')).toBe(`Embedded: templates (${templates})`);
    await eventually(() => page.getAttribute('#main', 'data-render-ms')).not.toBeNull();
    await eventually(() =>
      page.getAttribute('section[aria-labelledby="embedded-templates"]', 'data-completed-at'),
    ).not.toBeNull();
    expect(await page.locator('#embedded-templates ~ .scroll tbody tr').count()).toBe(templates);
    const times = await page.evaluate(() => {
      const main = document.getElementById('main')!.dataset;
      const section = document.getElementById('embedded-templates')!.closest('section')!.dataset;
      return {
        shown: Number(main.renderMs),
        built: Number(main.buildMs),
        all: Number(section.completedAt) - Number(main.startedAt),
      };
    });
    console.log(
      `explorer: theme with ${templates} templates shown ${times.shown.toFixed(1)} ms after its response ` +
        `(first frame drawn, its DOM built in ${times.built.toFixed(1)} ms; the goal is < 300 ms); ` +
        `all ${templates} rows in the page after ${times.all.toFixed(1)} ms`,
    );
    // Measured, not held to its goal here: a test on a loaded machine would fail for the machine's sake.
    expect(times.shown).toBeGreaterThan(0);
    // An asset shows as an image.
    expect(await page.locator('#embedded-assets ~ .scroll img').count()).toBeGreaterThan(0);
    // The links and the first templates, rather than the top of the page.
    await page.evaluate(() => document.getElementById('links-title')!.scrollIntoView());
    await shot('explorer-theme');
    await expectAccessible('theme');
  });

  it('shows a template with its source, edits it in the code editor and saves it', async () => {
    // On the theme, where the previous step left the page.
    await click('layout.html');
    await page.waitForURL(/\/explorer\/v1\/themes\/\d+\/templates\/\d+$/);
    const templateUrl = page.url();
    expect(await heading()).toBe('layout.html');
    expect(await page.textContent('pre.source')).toContain('<!doctype html>');
    const before = await page.textContent('td[data-property="updated_on"]');

    await click('PUT… svc:update_template of layout.html');
    await page.waitForSelector('dialog[open] .cm-editor');
    // The lost-update guard is filled in with what the page shows; the source is text, line by line.
    expect(await page.inputValue('#field-last_updated_on')).toBe(before);
    const source = server.store.get('templates', templateUrl.split('/').pop()!)!.body;
    expect(await page.locator('#field-body .cm-line').count()).toBe(source.split('\n').length);
    await page.locator('#field-body').fill(source.replace('</body>', '<!-- edited --></body>'));
    await expectAccessible('edit dialog');
    await page.getByRole('button', { name: 'Send PUT' }).click();
    await eventually(() => page.textContent('.answer .method')).toBe('PUT');
    expect(await status()).toBe('200 OK');
    expect(await page.isVisible('dialog[open]')).toBe(false);
    const after = await page.textContent('td[data-property="updated_on"]');
    expect(after).not.toBe(before);
    expect(await page.textContent('pre.source')).toContain('<!-- edited --></body>');
    expect(page.url()).toBe(templateUrl);

    // Reload: the same resource, read anew.
    await page.reload();
    await eventually(heading).toBe('layout.html');
    expect(await page.textContent('td[data-property="updated_on"]')).toBe(after);

    // Someone else changes it a millisecond later, within the same second: the next save from this page is refused
    // (If-Match with the ETag it shows), not written over that change.
    const id = templateUrl.split('/').pop()!;
    const theirs = new Date(Date.parse(after!) + 1).toISOString();
    await server.store.write((tx) => tx.update('templates', id, { body: '<p>theirs</p>', updated_on: theirs }));
    await click('PUT… svc:update_template of layout.html');
    await page.waitForSelector('dialog[open] .cm-editor');
    await page.getByRole('button', { name: 'Send PUT' }).click();
    await eventually(status).toBe('412 Precondition Failed');
    expect(await page.isVisible('dialog[open]')).toBe(true);
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(server.store.get('templates', id)!.body).toBe('<p>theirs</p>');
    await page.reload();
    await eventually(() => page.textContent('pre.source')).toBe('<p>theirs</p>');
  });

  it('reaches every control of a view with the keyboard, and edits with it', async () => {
    // On the template, where the previous step left the page.
    const controls = await markControls(page);
    const reached = await tabThrough(page, controls + 5);
    expect(reached.size).toBe(controls);

    expect(await tabTo(page, 'button[aria-label="PUT… svc:update_template of layout.html"]')).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForSelector('dialog[open] .cm-editor');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('field-body');
    await page.keyboard.press('Escape');
    expect(await page.isVisible('dialog[open]')).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'PUT… svc:update_template of layout.html',
    );
  });

  it('tells a 304 from the cache when coming back to a resource', async () => {
    // The reload started a new session cache: the first visit back is a 200, the next one a 304.
    await page.goBack();
    await page.waitForURL(/\/theme\.json$/);
    await eventually(() => page.textContent('.answer .url')).toMatch(/\/theme\.json$/);
    expect(await status()).toBe('200 OK');
    await page.goForward();
    await eventually(heading).toBe('layout.html');
    await page.goBack();
    await page.waitForURL(/\/theme\.json$/);
    // The template's answer may still be on the page (a 304 too, with its badge): wait for the theme's.
    await eventually(() => page.textContent('.answer .url')).toMatch(/\/theme\.json$/);
    expect(await status()).toBe('304 Not Modified');
    expect(await page.textContent('.badge')).toMatch(/304/);
  });

  it('follows a templated link through its form: a product search', async () => {
    const product = server.store.where('products', 'shop_id', '1').find((p) => p.status === 'visible')!;
    const word = product.title.split(' ')[0]!;
    await signedIn();
    await page.goto(server.explorerUrl!);
    await eventually(heading).toBe('Dana Demo');
    await click('Fill in… svc:all_products of Dana Demo');
    for (const name of ['q', 'shop_ids', 'status', 'tags', 'sort', 'page', 'per_page']) {
      expect(await page.getByLabel(name, { exact: true }).count(), name).toBe(1);
    }
    await page.getByLabel('q', { exact: true }).fill(word);
    await page.getByLabel('per_page', { exact: true }).fill('5');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.origin}/explorer/v1/products.json?q=${encodeURIComponent(word)}&per_page=5`);
    expect(await status()).toBe('200 OK');
    const items = page.locator('#embedded-items ~ .scroll tbody tr');
    expect(await items.count()).toBeGreaterThan(0);
    expect(await items.allTextContents()).toContainEqual(expect.stringContaining(word));
  });

  it('deletes a template after a confirmation, and shows the 404 that follows', async () => {
    const victim = server.store.all('templates').find((t) => t.file_name === 'snippets/extra-001.html')!;
    await signedIn();
    await page.goto(`${server.origin}/explorer/v1/themes/${themeId}/templates/${victim.id}`);
    await eventually(heading).toBe('snippets/extra-001.html');
    await click('DELETE… svc:delete_template of snippets/extra-001.html');
    await page.waitForSelector('dialog[open]');
    expect(await page.textContent('dialog .warning')).toBe('Delete snippets/extra-001.html? This cannot be undone.');
    // Enter alone never deletes: the dialog starts on Cancel.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await expectAccessible('delete dialog');
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await eventually(() => page.textContent('.answer .method')).toBe('DELETE');
    expect(await status()).toBe('204 No Content');
    expect(server.store.get('templates', victim.id)).toBeUndefined();

    await page.reload();
    await eventually(() => page.textContent('#failure-title')).toBe('404 Not Found');
    expect(await page.getAttribute('.failure', 'role')).toBe('alert');
    expect(await status()).toBe('404 Not Found');
    await expectAccessible('404');
  });

  it('renders a 403 for a token without the scope', async () => {
    await signedIn();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).click(); // "public", the default
    await approveOnAuthorizePage(page, server.credentials!.login, PASSWORD);
    await page.waitForURL(/\/explorer\/v1\/themes\//);
    await page.goto(`${server.origin}/explorer/v1/shops/1/theme.json`);
    await eventually(() => page.textContent('#failure-title')).toBe('403 Forbidden');
    expect(await page.textContent('.failure .message')).toMatch(/needs a token with the "admin" scope/);
    const accepted = page.locator('.headers dt', { hasText: 'x-accepted-oauth-scopes' });
    expect(await accepted.locator('xpath=following-sibling::dd[1]').textContent()).toBe('admin');
    await shot('explorer-403');
  });

  it('says a denied sign-in once, and offers an admin whose token the API refused the admin scope again', async () => {
    if (await page.getByRole('button', { name: 'Sign out' }).isVisible()) {
      await page.getByRole('button', { name: 'Sign out' }).click();
    }
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/oauth\/authorize\?/);
    await page.getByRole('button', { name: 'Deny' }).click();
    await eventually(() => page.getByRole('alert').textContent()).toBe('Sign-in failed: The user denied the request');

    await signedIn();
    // A token that expired: the API answers 401 to the next read.
    const theme = (url: URL) => url.pathname === '/v1/shops/1/theme.json';
    await page.route(theme, (route) =>
      route.fulfill({
        status: 401,
        headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer error="invalid_token"' },
        body: '{"message":"The access token has expired"}',
      }),
    );
    try {
      await page.goto(`${server.origin}/explorer/v1/shops/1/theme.json`);
      await eventually(() => page.locator('.sign-in-panel [role=alert]').textContent()).toMatch(
        /The API refused the token/,
      );
      expect(await page.isChecked('input[name=scope][value=admin]')).toBe(true);
    } finally {
      await page.unroute(theme);
    }
  });

  it('raised no error in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
