/**
 * The API explorer as a tool kept open all day (issue #26), in Chromium at 1280 × 800: the sign-in page says what
 * each scope shows; a public token's views say which links the scope hides; a 403 signs in again with the scope the
 * server names and lands on the page asked for; the templates table fits (every action button in view without
 * scrolling the page sideways); a template's source is edited in the code editor (loaded only then) and saved as
 * text; a refused write says why once; "Copy as curl" run in a shell gets the status the page showed, with the
 * token or with it masked; "Copy as SDK code" gives the follow chain; the session's history shows an earlier answer
 * again without a request. axe finds no serious violation on any view. One server, one Chromium.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createServer, type StorefrontServer } from '@storefront-platform/server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { axeViolations, serious } from './support/axe.js';
import { describeInBrowser, launchChromium } from './support/chromium.js';
import { eventually } from './support/eventually.js';
import { screenshotDir } from './support/screenshots.js';
import { approveOnAuthorizePage } from './support/sign-in.js';

const PASSWORD = 'explorer daily password';
const TEMPLATE = 'product.html';

/** Runs a copied command in a shell; its HTTP status from curl's `-i` output. */
async function statusOfCurl(command: string, env: Record<string, string> = {}): Promise<number> {
  const { stdout } = await promisify(execFile)('sh', ['-c', command], { env: { ...process.env, ...env } });
  const status = /^HTTP\/[\d.]+ (\d{3})/.exec(stdout);
  if (!status) throw new Error(`no HTTP status in the output of ${command}:\n${stdout.slice(0, 300)}`);
  return Number(status[1]);
}

describeInBrowser('API explorer for daily use: editor, tables, scopes, copy, history', () => {
  let server: StorefrontServer;
  let browser: Browser;
  let page: Page;
  let themeId: string;
  let shots: string;
  const pageErrors: string[] = [];
  /** Requests of the page for the code editor's chunk. */
  const editorChunks: string[] = [];

  const heading = () => page.textContent('#resource-title');
  const status = () => page.textContent('#answer-status');
  async function expectAccessible(view: string) {
    const found = serious(await axeViolations(page));
    expect(
      found.map((v) => `${v.id}: ${v.help} (${v.targets.join(', ')})`),
      view,
    ).toEqual([]);
  }
  const shot = (name: string) => page.screenshot({ path: join(shots, `${name}.png`) });
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
  const templateRow = (name: string) =>
    server.store.where('templates', 'theme_id', themeId).find((t) => t.file_name === name)!;

  beforeAll(async () => {
    [server, browser, shots] = await Promise.all([
      createServer({ port: 0, products: 12, demo: { password: PASSWORD } }),
      launchChromium(),
      screenshotDir(),
    ]);
    themeId = server.store.all('themes').find((t) => t.shop_id === '1' && t.production)!.id;
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // A style or script the Content-Security-Policy refused is reported on the console.
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) pageErrors.push(message.text());
    });
    page.on('request', (request) => {
      if (/\/explorer\/code-editor-[\w-]+\.js$/.test(request.url())) editorChunks.push(request.url());
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('says on the sign-in page what each scope shows and leaves out, and on a public view which links it hides', async () => {
    await page.goto(server.explorerUrl!);
    expect(await page.textContent('#scope-public')).toMatch(/Leaves out themes, templates, assets and orders/);
    expect(await page.textContent('#scope-admin')).toMatch(/theme, templates, assets and orders/);
    expect(await page.getAttribute('input[value=public]', 'aria-describedby')).toBe('scope-public');
    await expectAccessible('sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click(); // "public", the default
    await approveOnAuthorizePage(page, server.credentials!.login, PASSWORD);
    await page.waitForURL(server.explorerUrl!);
    await eventually(heading).toBe('Dana Demo');
    expect(await page.textContent('#session-scopes')).toBe('public');
    expect(await page.textContent('.scope-note')).toMatch(/scope public: this view lacks svc:all_orders, svc:order/);
    await expectAccessible('root, public');

    await page.goto(`${server.origin}/explorer/v1/shops/1.json`);
    await eventually(heading).toBe(server.store.get('shops', '1')!.name);
    expect(await page.textContent('.scope-note')).toMatch(/lacks svc:theme, svc:orders, which need the admin scope/);
    expect(await page.locator('tr[data-rel="svc:theme"]').count()).toBe(0);
    await shot('explorer-scopes');
  });

  it('offers a sign-in with the scope a 403 names, and shows the page asked for after it', async () => {
    await page.goto(`${server.origin}/explorer/v1/shops/1/theme.json`);
    await eventually(() => page.textContent('#failure-title')).toBe('403 Forbidden');
    expect(await page.textContent('.failure .message')).toMatch(/needs a token with the "admin" scope/);
    await expectAccessible('403');
    await page.getByRole('button', { name: 'Sign in again with admin' }).click();
    await approveOnAuthorizePage(page, server.credentials!.login, PASSWORD);
    await page.waitForURL(`${server.origin}/explorer/v1/shops/1/theme.json`);
    await eventually(status).toBe('200 OK');
    expect(await heading()).toBe(server.store.get('themes', themeId)!.title);
    expect(await page.textContent('#session-scopes')).toBe('admin');
    expect(await page.locator('.scope-note').count()).toBe(0);
  });

  it('fits the templates table at 1280 × 800: every action button in view without scrolling the page sideways', async () => {
    // On the theme, where the sign-in landed.
    await eventually(() =>
      page.getAttribute('section[aria-labelledby="embedded-templates"]', 'data-completed-at'),
    ).not.toBeNull();
    const templates = server.store.where('templates', 'theme_id', themeId).length;
    const layout = await page.evaluate(() => {
      const box = document
        .getElementById('embedded-templates')!
        .closest('section')!
        .querySelector<HTMLElement>('.scroll')!;
      box.scrollIntoView({ block: 'start' });
      const misplaced: string[] = [];
      let buttons = 0;
      for (const row of box.querySelectorAll('tbody tr')) {
        // Scrolled to vertically, as a user scrolls down the list; never sideways.
        box.scrollTop = (row as HTMLElement).offsetTop - box.clientHeight / 2;
        const frame = box.getBoundingClientRect();
        for (const button of row.querySelectorAll<HTMLElement>('td.controls button, td.controls a')) {
          buttons++;
          const r = button.getBoundingClientRect();
          const inView = r.left >= frame.left && r.right <= frame.right && r.right <= window.innerWidth;
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          if (!inView || !button.contains(hit))
            misplaced.push(button.getAttribute('aria-label') ?? button.textContent!);
        }
      }
      return {
        rows: box.querySelectorAll('tbody tr').length,
        buttons,
        misplaced,
        scrollLeft: box.scrollLeft,
        pageScrolls: document.documentElement.scrollWidth > document.documentElement.clientWidth,
      };
    });
    expect(layout.rows).toBe(templates);
    // PUT per template, DELETE for all but the layout.
    expect(layout.buttons).toBe(2 * templates - 1);
    expect(layout.misplaced).toEqual([]);
    expect(layout.scrollLeft).toBe(0);
    expect(layout.pageScrolls).toBe(false);
    await page.evaluate(() => document.getElementById('embedded-templates')!.scrollIntoView());
    await shot('explorer-templates');
    await expectAccessible('theme, admin');
  });

  it("edits a theme's settings as JSON, refusing text that is not JSON before sending", async () => {
    // On the theme, where the previous test left the page.
    const title = server.store.get('themes', themeId)!.title;
    // Three views so far, none with the code editor: its chunk comes with the first edit dialog.
    expect(editorChunks).toEqual([]);
    await page.getByRole('button', { name: `PUT… svc:update_theme of ${title}` }).click();
    await page.waitForSelector('dialog[open] .cm-editor #field-settings');
    expect(editorChunks).toHaveLength(1);
    expect(await page.inputValue('#field-title')).toBe(title);
    await expectAccessible('theme dialog, settings as JSON');
    const settings = JSON.parse((await page.locator('#field-settings .cm-line').allTextContents()).join('\n'));
    expect(settings).toEqual(server.store.get('themes', themeId)!.settings);
    let puts = 0;
    const count = (request: { method(): string }) => {
      if (request.method() === 'PUT') puts++;
    };
    page.on('request', count);
    await page.locator('#field-settings').fill('{ "accent": ');
    await page.getByRole('button', { name: 'Send PUT' }).click();
    expect(await page.textContent('#action-error')).toMatch(/^settings is not JSON: /);
    expect(await page.getAttribute('#field-settings', 'aria-invalid')).toBe('true');
    expect(puts).toBe(0);
    page.off('request', count);
    await page.locator('#field-settings').fill(JSON.stringify({ ...settings, accent: '#123456' }, null, 2));
    await page.fill('#field-title', `${title} (daily)`);
    await page.getByRole('button', { name: 'Send PUT' }).click();
    await eventually(() => page.textContent('.answer .method')).toBe('PUT');
    expect(await status()).toBe('200 OK');
    const theme = server.store.get('themes', themeId)!;
    expect(theme.settings).toEqual({ ...settings, accent: '#123456' });
    expect(theme.title).toBe(`${title} (daily)`);
  });

  it('edits a template body in the code editor, and the server has the new text', async () => {
    const row = templateRow(TEMPLATE);
    await page.goto(`${server.origin}/explorer/v1/themes/${themeId}/templates/${row.id}`);
    await eventually(heading).toBe(TEMPLATE);
    const shownUpdatedOn = await page.textContent('td[data-property="updated_on"]');
    await page.getByRole('button', { name: `PUT… svc:update_template of ${TEMPLATE}` }).click();
    await page.waitForSelector('dialog[open] .cm-editor');
    // The source as text, a line each, with line numbers and highlighting; the guard filled in.
    const lines = row.body.split('\n').length;
    expect(await page.locator('dialog .cm-lineNumbers .cm-gutterElement').count()).toBeGreaterThan(lines / 2);
    expect(await page.locator('dialog #field-body .cm-line').first().textContent()).toBe(row.body.split('\n')[0]);
    expect(await page.locator('dialog #field-body').textContent()).not.toContain('\\n');
    expect(await page.locator('dialog #field-body .cm-line span[class]').count()).toBeGreaterThan(5);
    // CodeMirror's styles applied under the page's CSP (their <style> carries the nonce): numbers beside the text,
    // tags and attribute values in colours of their own.
    const drawn = await page.evaluate(() => {
      const editor = document.querySelector('dialog .cm-editor')!;
      const colour = (selector: string) => getComputedStyle(editor.querySelector(selector)!).color;
      const gutter = editor.querySelector('.cm-gutters')!.getBoundingClientRect();
      const content = editor.querySelector('.cm-content')!.getBoundingClientRect();
      const spans = [...editor.querySelectorAll('.cm-line span[class]')].map((span) => getComputedStyle(span).color);
      return { beside: gutter.right <= content.left + 1, text: colour('.cm-line'), colours: new Set(spans).size };
    });
    expect(drawn.beside).toBe(true);
    expect(drawn.colours).toBeGreaterThanOrEqual(3);
    expect(await page.inputValue('#field-last_updated_on')).toBe(shownUpdatedOn);
    expect(await page.inputValue('#field-file_name')).toBe(TEMPLATE);
    // Focus starts in the source; type at its end.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('field-body');
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    // Inserted as typed text is, without the keys CodeMirror completes (it closes tags and quotes as one types).
    await page.keyboard.insertText('<p class="edited">Edited in "the editor", it\'s text</p>');
    await shot('explorer-edit');
    // Tab leaves the editor for the next field (no tab trap in a modal dialog); the text stays as typed.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('field-file_name');
    await expectAccessible('edit dialog with the code editor');
    await page.getByRole('button', { name: 'Send PUT' }).click();
    await eventually(() => page.textContent('.answer .method')).toBe('PUT');
    expect(await status()).toBe('200 OK');
    const saved = server.store.get('templates', row.id)!.body;
    expect(saved.startsWith(row.body.trimEnd())).toBe(true);
    expect(saved).toContain('\n<p class="edited">Edited in "the editor", it\'s text</p>');
    expect(saved).not.toContain('\\n');
    expect(saved).not.toContain('\\"');
    // A page loaded anew fetched the chunk again (from the browser's cache, revalidated); another dialog on the
    // same page fetches nothing more.
    const fetched = editorChunks.length;
    await page.getByRole('button', { name: `PUT… svc:update_template of ${TEMPLATE}` }).click();
    await page.waitForSelector('dialog[open] .cm-editor');
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(editorChunks).toHaveLength(fetched);
  });

  it('types a close tag over the one the code editor inserted, so that it is not doubled', async () => {
    const row = templateRow(TEMPLATE);
    await page.goto(`${server.origin}/explorer/v1/themes/${themeId}/templates/${row.id}`);
    await eventually(heading).toBe(TEMPLATE);
    await page.getByRole('button', { name: `PUT… svc:update_template of ${TEMPLATE}` }).click();
    await page.waitForSelector('dialog[open] .cm-editor');
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    const lastLine = () => page.locator('dialog #field-body .cm-line').last().textContent();
    // Key by key, as a person types: `>` of an open tag makes the editor insert its close tag.
    await page.keyboard.type('<div><p>');
    expect(await lastLine()).toBe('<div><p></p></div>');
    await page.keyboard.type('x</p> y</div>');
    expect(await lastLine()).toBe('<div><p>x</p> y</div>');
    // A close tag typed where the editor inserted none is left as typed.
    await page.keyboard.type('</p>');
    expect(await lastLine()).toBe('<div><p>x</p> y</div></p>');
    await page.getByRole('button', { name: 'Cancel' }).click();
  });

  it('says why a write was refused once, and its copied curl gets the same status in a shell', async () => {
    // From the theme's table: an embedded template comes without an ETag, so the guard is last_updated_on alone.
    // Someone else changes the template after the page showed it: the server refuses with a 422 on updated_on.
    await page.goto(`${server.origin}/explorer/v1/shops/1/theme.json`);
    await eventually(status).toBe('200 OK');
    const row = templateRow(TEMPLATE);
    const theirs = new Date(Date.parse(row.updated_on) + 5000).toISOString();
    await server.store.write((tx) => tx.update('templates', row.id, { updated_on: theirs }));
    await page.getByRole('button', { name: `PUT svc:update_template of ${TEMPLATE}`, exact: true }).click();
    await page.waitForSelector('dialog[open] .cm-editor');
    expect(await page.inputValue('#field-last_updated_on')).toBe(row.updated_on);
    await page.getByRole('button', { name: 'Send PUT' }).click();
    await eventually(status).toBe('422 Unprocessable Content');
    const problem = (await page.textContent('#action-error'))!;
    const fieldErrors = await page.locator('#action-error .field-errors li').allTextContents();
    expect(fieldErrors).toHaveLength(1);
    expect(fieldErrors[0]).toMatch(/^updated_on: \S/);
    // The field's reason once in the dialog, and once on the page behind it: not repeated in parentheses.
    const reason = fieldErrors[0]!.slice('updated_on: '.length);
    expect(problem.split(reason).length - 1, problem).toBe(1);
    expect(problem).not.toMatch(/\(updated_on: /);
    // Behind the dialog, the failure as shown (the raw body, folded away in its <details>, aside).
    const behind = (await page.locator('.failure > .message, .failure > .field-errors').allTextContents()).join(' ');
    expect(behind.split(reason).length - 1, behind).toBe(1);
    expect(await page.getAttribute('#field-last_updated_on', 'aria-invalid')).toBe('true');
    await expectAccessible('refused write');
    await page.getByRole('button', { name: 'Cancel' }).click();

    await page.check('#copy-token');
    await page.getByRole('button', { name: 'Copy as curl' }).click();
    await eventually(() => page.textContent('#copy-status')).toMatch(/^Copied curl, with the token/);
    const withToken = await clipboard();
    expect(withToken).toMatch(/^curl -i -X PUT '/);
    // The body carries the edit of the previous test, quotes and an apostrophe, through the shell's quoting.
    expect(withToken).toContain('--data-raw');
    expect(withToken).toContain(`it'\\''s`);
    expect(await statusOfCurl(withToken)).toBe(422);
    expect(server.store.get('templates', row.id)!.updated_on).toBe(theirs);
  });

  it('copies a GET as curl with the token masked, which runs with $STOREFRONT_TOKEN', async () => {
    const row = templateRow('layout.html');
    const url = `${server.baseUrl}/themes/${themeId}/templates/${row.id}`;
    const authorization = page.waitForRequest((r) => r.url() === url).then((r) => r.headerValue('authorization'));
    await page.goto(`${server.origin}/explorer/v1/themes/${themeId}/templates/${row.id}`);
    await eventually(heading).toBe('layout.html');
    const token = (await authorization)!.replace(/^Bearer /, '');
    await page.getByRole('button', { name: 'Copy as curl' }).click();
    await eventually(() => page.textContent('#copy-status')).toMatch(/^Copied curl \(the token read from/);
    const masked = await clipboard();
    expect(masked).not.toContain(token);
    expect(masked).toContain('"Authorization: Bearer $' + '{STOREFRONT_TOKEN}"');
    expect(await page.textContent('#copy-text')).toBe(masked);
    await shot('explorer-copy');
    expect(await statusOfCurl(masked, { STOREFRONT_TOKEN: token })).toBe(200);
    expect(await status()).toBe('200 OK');
    // Without the token, the server says 401: the command really carries no credential.
    expect(await statusOfCurl(masked, { STOREFRONT_TOKEN: '' })).toBe(401);
  });

  it('copies the follow chain root → shop → theme → template as SDK code', async () => {
    await page.goto(server.explorerUrl!);
    await eventually(heading).toBe('Dana Demo');
    const shop = server.store.get('shops', '1')!;
    await page.getByRole('link', { name: shop.name, exact: true }).click();
    await eventually(heading).toBe(shop.name);
    await page.getByRole('link', { name: `Follow svc:theme of ${shop.name}` }).click();
    await eventually(heading).toBe(server.store.get('themes', themeId)!.title);
    await page.getByRole('link', { name: 'layout.html', exact: true }).click();
    await eventually(heading).toBe('layout.html');
    await page.getByRole('button', { name: 'Copy as SDK code' }).click();
    await eventually(() => page.textContent('#copy-status')).toBe('Copied SDK code.');
    const code = await clipboard();
    const template = server.store.where('templates', 'theme_id', themeId).find((t) => t.file_name === 'layout.html')!;
    const bySelf = (href: string) => `.find((item) => item.links.get('self')?.[0]?.href === ${JSON.stringify(href)});`;
    expect(code).toContain(`createClient({ baseUrl: ${JSON.stringify(server.baseUrl)}`);
    expect(code).toContain('const root = await client.root();');
    // Embedded resources are found by their `self`, not by their place in the list.
    expect(code).toContain(`const shop = root.embedded("shops")${bySelf(`${server.baseUrl}/shops/1.json`)}`);
    expect(code).toContain('const shop2 = await shop.follow("self");');
    expect(code).toContain('const theme = await shop2.follow("svc:theme");');
    expect(code).toMatch(
      new RegExp(
        `const template = theme\\.embedded\\("templates"\\)\\.find\\(.*/templates/${template.id}(\\.json)?"\\);`,
      ),
    );
    expect(code).toContain('const template2 = await template.follow("self");');
    await expectAccessible('template, copied');
  });

  it('goes back to an earlier answer of the session through the history, without a request, after a reload too', async () => {
    // The list is drawn when the history opens. It holds the whole tab's session: the answers before each page
    // load of the tests above, and before each sign-in, are kept for the tab.
    expect(await page.locator('#history .history-item').count()).toBe(0);
    const before = Number(/^History \((\d+)\)$/.exec((await page.textContent('#history summary'))!)![1]);
    expect(before).toBeGreaterThan(10);
    await page.click('#history summary');
    await eventually(() => page.locator('#history .history-item').count()).toBe(before);
    // Newest first: the template, the theme, the shop, the root, then the answers of earlier page loads.
    const newest = await page.locator('#history .history-item').allTextContents();
    expect(newest.slice(0, 4).map((text) => text.replace(/ 200 OK · .*/, ''))).toEqual([
      expect.stringMatching(/^GET \/v1\/themes\/\d+\/templates\/\d+$/),
      'GET /v1/shops/1/theme.json',
      'GET /v1/shops/1.json',
      'GET /v1',
    ]);
    // The 403 of the public token is there, from before signing in again with admin.
    expect(newest).toContainEqual(expect.stringMatching(/^GET \/v1\/shops\/1\/theme\.json 403 Forbidden/));
    await expectAccessible('history open');
    await shot('explorer-history');
    let requests = 0;
    const count = (request: { url(): string }) => {
      if (request.url().startsWith(server.baseUrl)) requests++;
    };
    page.on('request', count);
    try {
      await page.locator('#history .history-item').nth(2).click();
      await eventually(heading).toBe(server.store.get('shops', '1')!.name);
      expect(await page.textContent('.answer .earlier')).toMatch(/An earlier answer from this session/);
      expect(page.url()).toBe(`${server.origin}/explorer/v1/shops/1.json`);
    } finally {
      page.off('request', count);
    }
    expect(requests).toBe(0);
    // Showing an answer again adds none to the history; it closes, the shop marked current when it opens again.
    expect(await page.textContent('#history summary')).toBe(`History (${before})`);
    await page.click('#history summary');
    await eventually(() => page.locator('#history .history-item[aria-current="true"]').textContent()).toMatch(
      /^GET \/v1\/shops\/1\.json 200 OK/,
    );

    // A reload keeps the history (the page's own GET added); the 403 shown again is the error it was, with its
    // sign-in again offered.
    await page.reload();
    await eventually(() => page.textContent('#history summary')).toBe(`History (${before + 1})`);
    await page.click('#history summary');
    await page.locator('#history .history-item', { hasText: /^GET \/v1\/shops\/1\/theme\.json 403/ }).click();
    await eventually(() => page.textContent('#failure-title')).toBe('403 Forbidden');
    expect(await page.textContent('.failure .message')).toMatch(/needs a token with the "admin" scope/);
    expect(await page.getByRole('button', { name: 'Sign in again with admin' }).count()).toBe(1);
    // A resource shown again after the reload still knows the way that reached it.
    await page.click('#history summary');
    await page
      .locator('#history .history-item', { hasText: /^GET \/v1\/shops\/1\/theme\.json 200/ })
      .first()
      .click();
    await eventually(heading).toBe(server.store.get('themes', themeId)!.title);
    await page.getByRole('button', { name: 'Copy as SDK code' }).click();
    await eventually(() => page.textContent('#copy-status')).toBe('Copied SDK code.');
    expect(await clipboard()).toMatch(
      /const theme = await shop2\.follow\("svc:theme"\);\nconsole\.log\(JSON\.stringify\(theme, null, 2\)\);\n$/,
    );
  });

  it('shows "rendered in … ms" on the line of the status, not under the headers', async () => {
    await page.goto(`${server.origin}/explorer/v1/shops/1.json`);
    await eventually(() => page.textContent('#render-time')).toMatch(/^rendered in [\d.]+ ms$/);
    const boxes = await page.evaluate(() => {
      const top = (id: string) => document.getElementById(id)!.getBoundingClientRect();
      const headers = document.querySelector('.answer .headers')!.getBoundingClientRect();
      return { status: top('answer-status'), rendered: top('render-time'), headersTop: headers.top };
    });
    expect(boxes.rendered.bottom).toBeLessThanOrEqual(boxes.headersTop);
    expect(
      Math.abs(boxes.rendered.top + boxes.rendered.height / 2 - (boxes.status.top + boxes.status.height / 2)),
    ).toBeLessThan(boxes.status.height);
  });

  it('raised no error in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
