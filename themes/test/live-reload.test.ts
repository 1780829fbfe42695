/**
 * `dev`'s live preview through the real bin and a real Chromium: the page served on 127.0.0.1 is the development
 * theme's preview; a saved stylesheet is pushed, announced on the event stream and swapped in the open page
 * without reloading it; a saved template reloads the page with the new version; `--open` opens the live address.
 * The page is photographed for docs/themes-cli.md (STOREFRONT_SCREENSHOTS=docs writes it to docs/images/).
 */
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser, launchChromium } from '../../test/browser/support/chromium.js';
import { screenshotDir } from '../../test/browser/support/screenshots.js';
import { fakeBrowser } from './helpers/browser.js';
import { type CliProcess, startCli } from './helpers/cli.js';
import { useThemesServer } from './helpers/server.js';

const themes = useThemesServer();

/** The events of a live preview's stream, as an SSE client reads them. */
function listen(url: string) {
  const events: { name: string; data: { path: string; css: boolean } }[] = [];
  const waiters = new Set<() => void>();
  const stop = new AbortController();
  const done = (async () => {
    const response = await fetch(url, { signal: stop.signal });
    let buffer = '';
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      buffer += read.value;
      for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const name = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (name && data) events.push({ name, data: JSON.parse(data) });
        for (const waiter of waiters) waiter();
      }
    }
  })().catch(() => {});
  return {
    events,
    next(path: string) {
      return new Promise<(typeof events)[number]>((resolve) => {
        const check = () => {
          const event = events.find((e) => e.data.path === path);
          if (event) {
            waiters.delete(check);
            resolve(event);
          }
        };
        waiters.add(check);
        check();
      });
    },
    async close() {
      stop.abort();
      await done;
    },
  };
}

describeInBrowser('dev: live preview', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  let dev: CliProcess | undefined;
  afterAll(async () => {
    dev?.child.kill('SIGINT');
    await dev?.exited;
  });

  it('serves the preview, swaps a saved stylesheet in place and reloads the page for a saved template', async () => {
    const t = themes();
    const { config, dir } = await t.checkedOut('dev');
    const opener = await fakeBrowser(await t.tempDir());
    dev = startCli(['dev', dir, '--port', '0', '--interval', '0', '--open'], { config, env: opener.env });
    const [, live] = await dev.waitFor(/^Live preview: (http:\/\/127\.0\.0\.1:\d+\/) /m);
    expect(await opener.waitForOpened(1)).toEqual([live]);
    const stream = listen(`${live}__storefront/events`);

    const page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
    await page.goto(live!);
    await expect
      .poll(() => page.evaluate(() => document.querySelector('h1')?.textContent))
      .toBe('Northwind Outfitters');
    const logo = await page.evaluate(() => (document.querySelector('.brand img') as HTMLImageElement).naturalWidth);
    expect(logo).toBeGreaterThan(0);
    // A mark on the page that a reload would wipe.
    await page.evaluate(() => Object.assign(window, { kept: 'no reload' }));

    const from = t.requests.length;
    await appendFile(join(dir, 'styles/theme.css'), '.site-header { outline: 7px solid rgb(1, 2, 3); }\n');
    const css = await stream.next('styles/theme.css');
    expect(css).toEqual({ name: 'change', data: { path: 'styles/theme.css', css: true } });
    // Announced once the server holds it: after its one write.
    expect(t.writesSince(from)).toEqual([expect.stringMatching(/^PUT \/v1\/themes\/\d+\/templates\/\d+ 200 /)]);
    const outline = () => page.evaluate(() => getComputedStyle(document.querySelector('.site-header')!).outlineColor);
    await expect.poll(outline).toBe('rgb(1, 2, 3)');
    expect(await page.evaluate(() => (window as unknown as { kept?: string }).kept)).toBe('no reload');

    const layout = await readFile(join(dir, 'layout.html'), 'utf8');
    await writeFile(
      join(dir, 'layout.html'),
      layout.replace('<main id="content">', '<main id="content"><p id="fresh">Saved just now</p>'),
    );
    await stream.next('layout.html');
    await expect
      .poll(() => page.evaluate(() => document.querySelector('#fresh')?.textContent ?? null))
      .toBe('Saved just now');
    expect(await page.evaluate(() => (window as unknown as { kept?: string }).kept ?? null)).toBeNull();
    // The stylesheet saved before is the one the reloaded page has.
    await expect.poll(outline).toBe('rgb(1, 2, 3)');

    await page.screenshot({ path: join(await screenshotDir(), 'themes-live-preview.png') });
    await stream.close();
    dev.child.kill('SIGINT');
    expect(await dev.exited).toBe(0);
    expect(dev.stdout()).toMatch(/^Stopped watching$/m);
    // The preview's address once, from the watch: the pull before it does not say it too.
    expect(dev.stdout().match(/^Preview: /gm)).toHaveLength(1);
    dev = undefined;
  });
});
