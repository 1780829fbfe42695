/**
 * Tries a change safely: creates the shop's development theme (a copy of the production theme) unless it
 * exists, changes a template there, and prints the preview address, where the change shows while the live
 * shop stays as it was.
 *
 *   npm run example -- dev-theme [--shop SUBDOMAIN] [--message TEXT] [--open]
 */
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { clientCredentials, createClient } from '@storefront-platform/sdk';
import { findShop } from '../shared/find-shop.js';
import type { ExampleOptions } from '../shared/options.js';

/** Options of {@link main}. */
export interface DevThemeOptions extends ExampleOptions {
  /** Subdomain or id of one of the user's shops; default: the first. */
  shop?: string;
  /** Text of the banner added to the development theme's layout. */
  message?: string;
  /** Open the preview in the default browser. */
  open?: boolean;
}

/** What was done. */
export interface DevThemeResult {
  /** Whether this run created the development theme (false: it existed). */
  created: boolean;
  /** The preview page of the development theme (`text/html`, no token needed). */
  previewUrl: string;
}

export const description = 'create a development theme, change a template there and open its preview';

/** The banner this example adds; its marker lets a second run replace it rather than add another. */
const banner = (message: string) => `<p class="dev-banner" data-dev-banner>${escapeHtml(message)}</p>`;
const BANNER = /<p class="dev-banner" data-dev-banner>.*?<\/p>\n?/s;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export async function main(options: DevThemeOptions): Promise<DevThemeResult> {
  const log = options.log ?? console.log;
  const client = createClient({
    baseUrl: options.baseUrl,
    auth: clientCredentials({
      authUrl: options.authUrl,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      scope: 'admin',
    }),
  });
  const shop = await findShop(await client.root({ signal: options.signal }), options.shop);
  const production = await shop.follow('svc:theme');

  // The theme links `svc:dev_theme` when the shop has a development theme, `svc:create_dev_theme` when not.
  const created = production.can('svc:create_dev_theme');
  const dev = created ? await production.follow('svc:create_dev_theme') : await production.follow('svc:dev_theme');
  log(`${created ? 'Created' : 'Using'} the development theme "${dev.properties.title}" of ${shop.properties.name}`);

  const layout = dev.embedded('templates').find((t) => t.properties.file_name === 'layout.html');
  if (!layout) throw new Error('The development theme has no layout.html');
  const message = options.message ?? `Development preview, changed ${new Date().toISOString()}`;
  const { body, updated_on } = layout.properties;
  const withoutBanner = body.replace(BANNER, '');
  const bodyTag = /<body[^>]*>\n?/.exec(withoutBanner);
  if (!bodyTag) throw new Error('layout.html has no <body> tag to put the banner after');
  const at = bodyTag.index + bodyTag[0].length;
  const changed = `${withoutBanner.slice(0, at)}${banner(message)}\n${withoutBanner.slice(at)}`;
  // `last_updated_on` guards against overwriting a change made since this copy was read (422 on `updated_on`).
  await layout.follow('svc:update_template', { body: changed, last_updated_on: updated_on });
  log('Changed layout.html: added a banner at the top of every page');

  const previewUrl = dev.link('svc:theme_preview').expand();
  const page = await dev.follow('svc:theme_preview');
  const shows = (await page.text()).includes(escapeHtml(message));
  log(`Preview (${shows ? 'shows the change' : 'does not show the change yet'}): ${previewUrl}`);
  if (options.open) openInBrowser(previewUrl);
  return { created, previewUrl };
}

/** Opens `url` with the platform's opener; errors are reported, not thrown (the URL was printed anyway). */
function openInBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]];
  spawn(command, args, { stdio: 'ignore', detached: true })
    .on('error', (error) => console.error(`Could not open a browser (${error.message}); open the URL above.`))
    .unref();
}

/** The runner's command-line arguments, as options. */
export function fromArgs(args: string[]): Partial<DevThemeOptions> {
  const { values } = parseArgs({
    args,
    options: { shop: { type: 'string' }, message: { type: 'string' }, open: { type: 'boolean' } },
  });
  return { shop: values.shop, message: values.message, open: values.open };
}
