/** The shop app test page (`../shop-app/`) on its own origin: the page (also at the redirect URI), its bundle, its config. */
import { readFile } from 'node:fs/promises';
import type { AppConfig } from '../shop-app/app.js';
import { bundlePage } from './bundle.js';
import { type SiteFile, type StaticSite, serveSite } from './static-site.js';

/** `entry`: `main.ts` against a real server, `mocked.ts` with MSW in the page; `extra`: more files to serve. */
export async function serveShopApp(
  entry: 'main.ts' | 'mocked.ts',
  config: AppConfig,
  extra: Record<string, SiteFile> = {},
): Promise<StaticSite> {
  const html = await readFile(new URL('../shop-app/index.html', import.meta.url), 'utf8');
  const page: SiteFile = { type: 'text/html; charset=utf-8', body: html };
  return serveSite({
    '/': page,
    '/callback': page,
    '/app.js': {
      type: 'text/javascript; charset=utf-8',
      body: await bundlePage(new URL(`../shop-app/${entry}`, import.meta.url)),
    },
    '/config.json': { type: 'application/json', body: JSON.stringify(config) },
    ...extra,
  });
}
