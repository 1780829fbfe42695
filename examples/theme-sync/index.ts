/**
 * Keeps a folder in step with a shop's production theme through the library of `@storefront-platform/themes`, the theme
 * developer's command line (docs/themes-cli.md), whose `pull` and `push` these are:
 *
 *   npm run example -- theme-sync pull ./my-theme [--shop SUBDOMAIN]   templates as files, assets under assets/
 *   (edit, add or delete files)
 *   npm run example -- theme-sync push ./my-theme                       only what changed, one request per file
 *
 * A template changed on the server since the pull is a conflict, reported and left alone, never overwritten.
 */
import { parseArgs } from 'node:util';
import { type Client, clientCredentials, createClient } from '@storefront-platform/sdk';
import { type FileResult, type Manifest, pullTheme, pushTheme } from '@storefront-platform/themes';
import type { ExampleOptions } from '../shared/options.js';

/** Options of {@link main}. */
export interface ThemeSyncOptions extends ExampleOptions {
  command: 'pull' | 'push';
  /** The local folder. */
  dir: string;
  /** Subdomain or id of one of the user's shops, for the first pull; default: the first. */
  shop?: string;
}

export const description = 'download a theme into a folder (pull) and send local edits back (push)';

/** What the run did, file by file (`created`, `updated`, `deleted`, `conflict`, `failed`). */
export async function main(options: ThemeSyncOptions): Promise<FileResult[]> {
  const log = options.log ?? console.log;
  // Themes are read and written with an `admin` token of the shop's administrator.
  const { authUrl, clientId, clientSecret } = options;
  const auth = clientCredentials({ authUrl, clientId, clientSecret, scope: 'admin' });
  const client = createClient({ baseUrl: options.baseUrl, auth });
  const { files, manifest } =
    options.command === 'pull' ? await pull(client, options) : await pushTheme({ client, dir: options.dir });
  for (const file of files) log(`  ${file.action.padEnd(8)}  ${file.path}${file.message ? `: ${file.message}` : ''}`);
  const verb = options.command === 'pull' ? 'Pulled' : 'Pushed';
  log(`${verb} "${manifest.theme.title}" of ${manifest.shop.name}: ${files.length} files`);
  return files;
}

/** Pulls the theme of the shop named in `options` (the user's first shop by default) into the folder. */
async function pull(client: Client, options: ThemeSyncOptions): Promise<{ files: FileResult[]; manifest: Manifest }> {
  const shop = options.shop ?? (await client.root()).embedded('shops')[0]?.properties.subdomain;
  const { files, workspace } = await pullTheme({ client, dir: options.dir, shop });
  return { files, manifest: workspace.manifest };
}

/** The runner's command-line arguments, as options: `pull|push DIR [--shop SUBDOMAIN]`. */
export function fromArgs(args: string[]): Partial<ThemeSyncOptions> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { shop: { type: 'string' } } });
  const [command, dir] = positionals;
  if ((command !== 'pull' && command !== 'push') || !dir) {
    throw new Error('Usage: theme-sync pull|push DIR [--shop SUBDOMAIN]');
  }
  return { command, dir, shop: values.shop };
}
