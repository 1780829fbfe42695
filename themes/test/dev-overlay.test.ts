/**
 * `dev` in a real Chromium, where the theme developer looks: a push the server refused and a `check` error show
 * over the live preview (file, line, rule; the server's and the theme's texts as text, never markup) and go once
 * fixed; and the page reloads only after the server acknowledged the write, never on the save alone: over 20
 * saves, every reloaded page already shows the save that caused it.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeInBrowser, launchChromium } from '../../test/browser/support/chromium.js';
import { screenshotDir } from '../../test/browser/support/screenshots.js';
import { type CliProcess, startCli } from './helpers/cli.js';
import { useThemesServer } from './helpers/server.js';

const themes = useThemesServer();

/** The overlay's lines as the page shows them, or `null` when there is no overlay. */
function overlayLines(page: Page): Promise<string[] | null> {
  return page.evaluate(() => {
    const root = document.querySelector('storefront-dev-problems')?.shadowRoot;
    if (!root) return null;
    return [...root.querySelectorAll('li')].map((item) => item.textContent ?? '');
  });
}

describeInBrowser('dev: problems over the page, reloads after the acknowledgement', () => {
  let browser: Browser;
  let dev: CliProcess | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    dev?.child.kill('SIGINT');
    await dev?.exited;
    dev = undefined;
  });

  async function startDev(...args: string[]) {
    const t = themes();
    const { config, dir } = await t.checkedOut('dev');
    dev = startCli(['dev', dir, '--port', '0', '--interval', '0', ...args], { config });
    const [, live] = await dev.waitFor(/^Live preview: (http:\/\/127\.0\.0\.1:\d+\/) /m);
    await dev.waitFor(/^Watching /m);
    return { t, dir, live: live!, dev };
  }

  it('shows a refused push and a check error with file, line and rule, escaped, and removes them once fixed', async () => {
    const { dir, live } = await startDev();
    const page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
    await page.goto(live);
    await expect
      .poll(() => page.evaluate(() => document.querySelector('h1')?.textContent))
      .toBe('Northwind Outfitters');
    expect(await overlayLines(page)).toBeNull();

    // Not a PNG: the server refuses it (422), and the folder's check says why in the same words.
    const saved = performance.now();
    await writeFile(join(dir, 'assets/images/bad.png'), 'not a picture at all\n');
    await expect
      .poll(() => overlayLines(page), { timeout: 15_000 })
      .toEqual([
        expect.stringMatching(/^assets\/images\/bad\.png .+: no PNG signature .*\(refused\)$/),
        'assets/images/bad.png is not a .png file (image/png): no PNG signature (content)',
      ]);
    console.log(`overlay shown ${Math.round(performance.now() - saved)} ms after the refused save`);

    // Accepted by the server, but broken: an end tag that closes nothing, and a reference whose text is markup.
    const hostile = 'x<img src=y onerror=window.pwned=1>.png';
    await writeFile(join(dir, 'broken.html'), `<div>\n  <img src="${hostile}">\n</article>\n</div>\n`);
    await expect
      .poll(() => overlayLines(page), { timeout: 15_000 })
      .toEqual([
        expect.stringMatching(/^assets\/images\/bad\.png .+ \(refused\)$/),
        expect.stringMatching(/^assets\/images\/bad\.png .+ \(content\)$/),
        expect.stringMatching(/^broken\.html:2:\d+ .*x<img src=y onerror=window\.pwned=1>\.png.* \(reference\)$/),
        expect.stringMatching(/^broken\.html:3:\d+ .*<\/article>.* \(html\)$/),
      ]);
    // Shown as text: no element of the message's markup exists, and nothing of it ran. Polled: the accepted write of
    // broken.html reloads the page, and the overlay is drawn again after the load (null until then).
    await expect
      .poll(() =>
        page.evaluate(
          () => document.querySelector('storefront-dev-problems')?.shadowRoot?.querySelectorAll('img').length ?? null,
        ),
      )
      .toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned ?? null)).toBeNull();
    await page.screenshot({ path: join(await screenshotDir(), 'themes-dev-problems.png') });

    // Fixed: the picture removed (the server never had it), the template mended.
    await rm(join(dir, 'assets/images/bad.png'));
    await expect.poll(() => overlayLines(page), { timeout: 15_000 }).toHaveLength(2);
    await writeFile(join(dir, 'broken.html'), '<div>\n  <p>Mended</p>\n</div>\n');
    await expect.poll(() => overlayLines(page), { timeout: 15_000 }).toBeNull();
    await page.close();
  });

  it('reloads only once the server acknowledged the write: 20 saves, each reloaded page has its save', async () => {
    const { t, dir, live, dev: running } = await startDev();
    const page = await browser.newPage();
    // What each page load shows, reported from the page as it loads.
    const loads: (string | null)[] = [];
    await page.exposeFunction('storefrontLoaded', (marker: string | null) => loads.push(marker));
    await page.addInitScript(() => {
      addEventListener('DOMContentLoaded', () => {
        const report = (window as unknown as { storefrontLoaded(marker: string | null): void }).storefrontLoaded;
        report(document.querySelector('#save')?.textContent ?? null);
      });
    });
    const layoutPath = join(dir, 'layout.html');
    const layout = await readFile(layoutPath, 'utf8');
    expect(layout).toContain('<main id="content">');
    await page.goto(live);
    await expect.poll(() => loads.length).toBe(1);
    expect(loads).toEqual([null]);

    // A reload sent on the save rather than on the acknowledgement would come the debounce (150 ms) before the
    // write even leaves, and fail at the first save: 20 saves are plenty (100 took a minute).
    const saves = 20;
    for (let i = 1; i <= saves; i++) {
      const from = t.requests.length;
      await writeFile(layoutPath, layout.replace('<main id="content">', `<main id="content"><p id="save">${i}</p>`));
      await expect.poll(() => loads.length, { timeout: 15_000 }).toBe(i + 1);
      // The save's one write was acknowledged before its page was read.
      expect(t.writesSince(from)).toEqual([expect.stringMatching(/^PUT \/v1\/themes\/\d+\/templates\/\d+ 200 /)]);
    }
    // Each reloaded page shows the save that made it reload: none came before its write was taken.
    expect(loads).toEqual([null, ...Array.from({ length: saves }, (_, i) => String(i + 1))]);
    expect(running.stdout().match(/ pushed +layout\.html /g)).toHaveLength(saves);
    await page.close();
  }, 300_000);
});
