/**
 * The API explorer at a phone's, a tablet's and a laptop's width (390 × 844, 768 × 1024, 1280 × 800), on the root,
 * a shop, its theme and a product: the page never scrolls sideways, every control is the element hit at its centre
 * (nothing covers it), the name of the resource a row's controls act on is in view beside them, and after each
 * navigation the answer panel (with "Copy as curl") is in the viewport. Screenshots of every view are kept.
 */
import { join } from 'node:path';
import { createServer, type StorefrontServer } from '@storefront-platform/server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser, launchChromium } from './support/chromium.js';
import { eventually } from './support/eventually.js';
import { screenshotDir } from './support/screenshots.js';
import { approveOnAuthorizePage } from './support/sign-in.js';

const PASSWORD = 'explorer widths password';
const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'tablet', width: 768, height: 1024 },
  { name: 'laptop', width: 1280, height: 800 },
] as const;

/** What is wrong with the view on the page, as sentences; none when the layout holds. */
function layoutProblems(): string[] {
  const problems: string[] = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth)
    problems.push(`the page is ${root.scrollWidth} px wide in ${root.clientWidth}`);
  const name = (element: Element) => element.getAttribute('aria-label') ?? element.textContent?.trim() ?? '?';
  /** Whether `element` is what the page shows at its centre, once scrolled into view. */
  const hit = (element: Element) => {
    const box = element.getBoundingClientRect();
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
    const top = document.elementFromPoint(x, y);
    return !!top && (top === element || element.contains(top));
  };
  const controls = document.querySelectorAll('main button, main a[data-link], main a[target=_blank]');
  for (const control of controls) {
    control.scrollIntoView({ block: 'center', inline: 'nearest' });
    if (!hit(control)) {
      const top = document.elementFromPoint(0, 0);
      problems.push(`"${name(control)}" is covered (${top?.tagName ?? 'nothing'} at its centre)`);
      continue;
    }
    // A row's controls act on the resource named in its header cell: that name is in view with them.
    const subject = control.closest('tr')?.querySelector('th[scope=row]');
    if (subject && !subject.contains(control) && !hit(subject)) {
      problems.push(`"${name(control)}" is not beside the name of what it acts on ("${name(subject)}")`);
    }
  }
  return problems;
}

/** Whether the answer panel's status line and its "Copy as curl" button are inside the viewport. */
function answerInView(): boolean {
  const inView = (selector: string) => {
    const element = document.querySelector(selector);
    if (!element) return false;
    const box = element.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= innerHeight && box.left >= 0 && box.right <= innerWidth;
  };
  return inView('#answer-status') && inView('.answer .copy-controls button');
}

/**
 * What of the open dialog is cut at the page's width, as sentences: its target URL shown whole (wrapped, or
 * scrolled inside its own box), and nothing wider than the dialog.
 */
function dialogProblems(): string[] {
  const dialog = document.querySelector('dialog[open]');
  if (!dialog) return ['no dialog is open'];
  const problems: string[] = [];
  const box = dialog.getBoundingClientRect();
  if (box.left < 0 || box.right > innerWidth) problems.push(`the dialog spans ${box.left}–${box.right} px`);
  if (dialog.scrollWidth > dialog.clientWidth) {
    problems.push(`the dialog's content is ${dialog.scrollWidth} px wide in ${dialog.clientWidth}`);
  }
  const target = dialog.querySelector('.action-form .target code');
  if (!target) return [...problems, 'no target URL shown'];
  const shown = target.getBoundingClientRect();
  const scrolls = target.scrollWidth > target.clientWidth && getComputedStyle(target).overflowX === 'auto';
  if (!scrolls && (shown.right > box.right || shown.left < box.left)) {
    problems.push(`the target URL spans ${shown.left}–${shown.right} px in a dialog of ${box.left}–${box.right}`);
  }
  return problems;
}

describeInBrowser('API explorer at three widths', () => {
  let server: StorefrontServer;
  let browser: Browser;
  let page: Page;
  let shots: string;
  const pageErrors: string[] = [];
  const heading = () => page.textContent('#resource-title');

  beforeAll(async () => {
    [server, browser, shots] = await Promise.all([
      createServer({ port: 0, products: 12, demo: { password: PASSWORD } }),
      launchChromium(),
      screenshotDir(),
    ]);
    page = await browser.newPage({ viewport: WIDTHS[0] });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(server.explorerUrl!);
    await page.check('input[name=scope][value=admin]');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await approveOnAuthorizePage(page, server.credentials!.login, PASSWORD);
    await page.waitForURL(server.explorerUrl!);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    console.log(`explorer screenshots at three widths: ${shots}`);
  });

  it('shows an edit dialog whole on a phone: the target URL wraps inside it', async () => {
    const { width, height } = WIDTHS[0];
    await page.setViewportSize({ width, height });
    const theme = server.store.all('themes').find((t) => t.shop_id === '1' && t.production)!;
    const template = server.store.where('templates', 'theme_id', theme.id).find((t) => t.file_name === 'page.html')!;
    // A write's dialog, and a templated link's form (whose target is longer still).
    const dialogs = [
      {
        shot: 'edit',
        url: `${server.origin}/explorer/v1/themes/${theme.id}/templates/${template.id}`,
        title: 'page.html',
        opener: 'PUT… svc:update_template of page.html',
        ready: 'dialog[open] .cm-editor',
      },
      {
        shot: 'list',
        url: server.explorerUrl!,
        title: 'Dana Demo',
        opener: 'Fill in… svc:all_products of Dana Demo',
        ready: 'dialog[open] #var-per_page',
      },
    ];
    for (const { shot, url, title, opener, ready } of dialogs) {
      await page.goto(url);
      await eventually(heading).toBe(title);
      await page.getByRole('button', { name: opener }).click();
      await page.waitForSelector(ready);
      await page.screenshot({ path: join(shots, `phone-${shot}-dialog.png`) });
      expect(await page.evaluate(dialogProblems), opener).toEqual([]);
      await page.getByRole('button', { name: 'Cancel' }).click();
    }
    expect(pageErrors).toEqual([]);
  });

  for (const { name, width, height } of WIDTHS) {
    it(`holds at ${width} × ${height} (${name}) on the root, a shop, its theme and a product`, async () => {
      await page.setViewportSize({ width, height });
      const shop = server.store.get('shops', '1')!;
      const product = server.store.where('products', 'shop_id', '1')[0]!;
      const theme = server.store.all('themes').find((t) => t.shop_id === '1' && t.production)!;
      /** Checks the view, takes its screenshot, and scrolls to the bottom, far from the answer panel. */
      const check = async (view: string) => {
        await eventually(() => page.locator('main[aria-busy]').count()).toBe(0);
        await eventually(() => page.locator('section[aria-busy]').count()).toBe(0);
        await page.screenshot({ path: join(shots, `${name}-${view}.png`), fullPage: true });
        expect.soft(await page.evaluate(layoutProblems), `${view} at ${width} px`).toEqual([]);
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      };
      /** Follows a link or a resource's name, wherever it is on the page, and checks the answer is in view. */
      const navigate = async (control: string, url: string, title: string) => {
        await page.getByRole('link', { name: control, exact: true }).first().click();
        await page.waitForURL(url);
        await eventually(heading).toBe(title);
        expect.soft(await page.evaluate(answerInView), `the answer to ${control} at ${width} px`).toBe(true);
      };

      await page.goto(server.explorerUrl!);
      await eventually(heading).toBe('Dana Demo');
      await check('root');
      await navigate(shop.name, `${server.origin}/explorer/v1/shops/1.json`, shop.name);
      await check('shop');
      await navigate(
        `Follow svc:theme of ${shop.name}`,
        `${server.origin}/explorer/v1/shops/1/theme.json`,
        theme.title,
      );
      await check('theme');
      // A product by its address, through the bar's form: another way to navigate.
      const productUrl = `${server.baseUrl}/shops/1/products/${product.id}.json`;
      await page.fill('#go-url', productUrl);
      await page.getByRole('button', { name: 'Go', exact: true }).click();
      await page.waitForURL(`${server.origin}/explorer/v1/shops/1/products/${product.id}.json`);
      await eventually(heading).toBe(product.title);
      expect.soft(await page.evaluate(answerInView), `the answer to Go at ${width} px`).toBe(true);
      await check('product');
      expect(pageErrors).toEqual([]);
    });
  }
});
