/**
 * Keeps a folder in step with a shop's production theme, the way a theme developer works:
 *
 *   npm run example -- theme-sync pull ./my-theme [--shop SUBDOMAIN]   download templates and assets
 *   (edit, add or delete files under ./my-theme/templates and ./my-theme/assets)
 *   npm run example -- theme-sync push ./my-theme                       send the local changes back
 *
 * `pull` replaces the folder's `templates/` and `assets/` with the theme's, and records in `.storefront-theme.json`
 * what it downloaded. `push` sends only what changed locally since,
 * each template update carrying `last_updated_on` (the `updated_on` seen at pull time, in epoch seconds): when
 * someone changed that template on the server in between, the server refuses with a 422 on `updated_on`, and
 * the push reports a conflict instead of overwriting their work.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { clientCredentials, createClient, type Theme, ValidationError } from 'storefront-sdk';
import { findShop } from '../shared/find-shop.js';
import { plural } from '../shared/format.js';
import type { ExampleOptions } from '../shared/options.js';

/** Options of {@link main}. */
export interface ThemeSyncOptions extends ExampleOptions {
  command: 'pull' | 'push';
  /** The local folder. */
  dir: string;
  /** Subdomain or id of one of the user's shops; default: the first. Recorded by `pull`, reused by `push`. */
  shop?: string;
}

/** What a run did, by file name (`templates/…`, `assets/…`). */
export interface ThemeSyncResult {
  downloaded: string[];
  created: string[];
  updated: string[];
  deleted: string[];
  uploaded: string[];
  /** Local changes not sent because the server's copy changed since the pull (or cannot be deleted). */
  conflicts: string[];
}

/** What `pull` saw, so that `push` knows what changed locally and which version each edit is based on. */
interface Manifest {
  shop: string;
  /** Per template file name: the `updated_on` pulled and the MD5 of the body pulled. */
  templates: Record<string, { updated_on: string; md5: string }>;
  /** Per asset file name: the digest (MD5) pulled. */
  assets: Record<string, string>;
}

const MANIFEST = '.storefront-theme.json';

export const description = 'download a theme into a folder (pull) and send local edits back (push)';

const md5 = (data: string | Uint8Array) => createHash('md5').update(data).digest('hex');
const epochSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** `dir/name`, refusing names that would land outside `dir` (names come from the server). */
function inside(dir: string, name: string): string {
  const path = resolve(dir, name);
  if (!path.startsWith(resolve(dir) + sep)) throw new Error(`Refusing the file name "${name}": outside ${dir}`);
  return path;
}

/** Every file below `dir`, as `/`-separated names relative to it; none when `dir` does not exist. */
async function filesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

async function write(path: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, data);
}

export async function main(options: ThemeSyncOptions): Promise<ThemeSyncResult> {
  const log = options.log ?? console.log;
  const client = createClient({
    baseUrl: options.baseUrl,
    // Themes are read and written with an `admin` token of the shop's administrator.
    auth: clientCredentials({
      authUrl: options.authUrl,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      scope: 'admin',
    }),
  });
  const result: ThemeSyncResult = {
    downloaded: [],
    created: [],
    updated: [],
    deleted: [],
    uploaded: [],
    conflicts: [],
  };
  const dir = resolve(options.dir);
  const manifestPath = join(dir, MANIFEST);
  const manifest: Manifest | undefined =
    options.command === 'push' ? JSON.parse(await readFile(manifestPath, 'utf8')) : undefined;
  const shop = await findShop(await client.root({ signal: options.signal }), options.shop ?? manifest?.shop);
  let theme = await shop.follow('svc:theme');

  if (options.command === 'pull') {
    await rm(join(dir, 'templates'), { recursive: true, force: true });
    await rm(join(dir, 'assets'), { recursive: true, force: true });
    for (const template of theme.embedded('templates')) {
      const { file_name, body } = template.properties;
      await write(inside(join(dir, 'templates'), file_name), body);
      result.downloaded.push(`templates/${file_name}`);
    }
    for (const asset of theme.embedded('assets')) {
      // An asset's `file` link leads to its bytes on the static host; the SDK hands back the `Response`.
      const file = await asset.follow('file');
      await write(inside(join(dir, 'assets'), asset.properties.file_name), new Uint8Array(await file.arrayBuffer()));
      result.downloaded.push(`assets/${asset.properties.file_name}`);
    }
    await writeManifest(manifestPath, shop.properties.subdomain, theme, {});
    log(
      `Pulled "${theme.properties.title}" of ${shop.properties.name} into ${dir}: ${plural(result.downloaded.length, 'file')}`,
    );
    return result;
  }

  const pulled = manifest!;
  const remoteTemplates = new Map(theme.embedded('templates').map((t) => [t.properties.file_name, t]));
  const remoteAssets = new Map(theme.embedded('assets').map((a) => [a.properties.file_name, a]));
  const keep: Manifest['templates'] = {};
  const conflict = (name: string, why: string) => {
    result.conflicts.push(name);
    log(`  conflict  ${name}: ${why}`);
  };

  const localTemplates = await filesBelow(join(dir, 'templates'));
  for (const name of localTemplates) {
    const body = await readFile(join(dir, 'templates', name), 'utf8');
    const seen = pulled.templates[name];
    const remote = remoteTemplates.get(name);
    if (seen && md5(body) === seen.md5) continue;
    if (!seen && remote) {
      conflict(`templates/${name}`, 'created on the server too since the pull; pull first');
      continue;
    }
    if (seen && !remote) {
      conflict(`templates/${name}`, 'deleted on the server since the pull; pull first');
      keep[name] = seen;
      continue;
    }
    try {
      if (remote && seen) {
        await remote.follow('svc:update_template', { body, last_updated_on: epochSeconds(seen.updated_on) });
        result.updated.push(`templates/${name}`);
        log(`  updated   templates/${name}`);
      } else {
        await theme.follow('svc:create_template', { file_name: name, body });
        result.created.push(`templates/${name}`);
        log(`  created   templates/${name}`);
      }
    } catch (error) {
      // The lost-update guard: the template changed on the server after the pull.
      if (!(error instanceof ValidationError && error.errors.some((e) => e.field === 'updated_on'))) throw error;
      conflict(`templates/${name}`, 'changed on the server since the pull; pull first, then redo the edit');
      keep[name] = seen!;
    }
  }
  for (const [name, seen] of Object.entries(pulled.templates)) {
    if (localTemplates.includes(name)) continue;
    const remote = remoteTemplates.get(name);
    if (!remote) continue;
    // A link is offered only when the action is allowed: `layout.html` has no delete link.
    if (!remote.can('svc:delete_template')) {
      conflict(`templates/${name}`, 'this template cannot be deleted');
      keep[name] = seen;
    } else if (remote.properties.updated_on !== seen.updated_on) {
      conflict(`templates/${name}`, 'changed on the server since the pull; not deleted');
      keep[name] = seen;
    } else {
      await remote.follow('svc:delete_template');
      result.deleted.push(`templates/${name}`);
      log(`  deleted   templates/${name}`);
    }
  }

  const localAssets = await filesBelow(join(dir, 'assets'));
  for (const name of localAssets) {
    const bytes = await readFile(join(dir, 'assets', name));
    const remote = remoteAssets.get(name);
    if (remote?.properties.digest === md5(bytes)) continue;
    // Uploading under an existing file name replaces that asset.
    await theme.follow('svc:create_theme_asset', { file_name: name, data: bytes.toString('base64') });
    result.uploaded.push(`assets/${name}`);
    log(`  ${remote ? 'replaced' : 'uploaded'}  assets/${name}`);
  }
  for (const name of Object.keys(pulled.assets)) {
    const remote = remoteAssets.get(name);
    if (localAssets.includes(name) || !remote) continue;
    await remote.follow('svc:delete_theme_asset');
    result.deleted.push(`assets/${name}`);
    log(`  deleted   assets/${name}`);
  }

  // The manifest now describes the server's state, except where a conflict keeps the version the edit is based on.
  theme = await theme.follow('self');
  await writeManifest(manifestPath, pulled.shop, theme, keep);
  const sent = result.created.length + result.updated.length + result.deleted.length + result.uploaded.length;
  log(
    `Pushed ${plural(sent, 'change')} to "${theme.properties.title}"` +
      (result.conflicts.length ? `; ${plural(result.conflicts.length, 'conflict')} left as is` : ''),
  );
  return result;
}

async function writeManifest(path: string, shop: string, theme: Theme, keep: Manifest['templates']): Promise<void> {
  const manifest: Manifest = { shop, templates: {}, assets: {} };
  for (const template of theme.embedded('templates')) {
    const { file_name, updated_on, body } = template.properties;
    manifest.templates[file_name] = keep[file_name] ?? { updated_on, md5: md5(body) };
  }
  for (const [name, seen] of Object.entries(keep)) manifest.templates[name] ??= seen;
  for (const asset of theme.embedded('assets')) manifest.assets[asset.properties.file_name] = asset.properties.digest;
  await write(path, `${JSON.stringify(manifest, null, 2)}\n`);
}

/** The runner's command-line arguments, as options: `pull|push DIR [--shop SUBDOMAIN]`. */
export function fromArgs(args: string[]): Partial<ThemeSyncOptions> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { shop: { type: 'string' } } });
  const [command, dir] = positionals;
  if ((command !== 'pull' && command !== 'push') || !dir)
    throw new Error('Usage: theme-sync pull|push DIR [--shop SUBDOMAIN]');
  return { command, dir, shop: values.shop };
}
