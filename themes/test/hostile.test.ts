/**
 * pull, push, status and watch against a hostile server (a proxy over the reference server that rewrites names,
 * sizes and links) and a folder with symbolic links: nothing written outside the folder, no file content sent from
 * outside it, no token sent to a foreign origin, every refusal reported.
 */
import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { clientCredentials, createClient } from '@storefront-platform/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DOCUMENT_BYTES } from '../src/theme/limits.js';
import { BIN_TESTS, runCli, startCli } from './helpers/cli.js';
import { type HostileServer, startHostileServer } from './helpers/hostile-proxy.js';
import { appEnv, DEMO, REDIRECT_URIS } from './helpers/server.js';

/** What the files outside the theme folder hold: nothing of it may leave the machine. */
const SECRET = 'SECRET-outside-the-theme-folder';

let hostile: HostileServer;
let root: string;
let config: string;
const running: ReturnType<typeof startCli>[] = [];

beforeAll(async () => {
  hostile = await startHostileServer({ products: 5, demo: { ...DEMO, redirectUris: REDIRECT_URIS } });
  root = await mkdtemp(join(tmpdir(), 'storefront-hostile-'));
  config = join(root, 'config');
  const login = await runCli(['login', '--client-credentials'], { config, env: appEnv(hostile.server) });
  if (login.code !== 0) throw new Error(`login failed: ${login.stderr}`);
  await mkdir(join(root, 'outside/linked'), { recursive: true });
  await writeFile(join(root, 'outside/secret.html'), SECRET);
  await writeFile(join(root, 'outside/linked/x.html'), SECRET);
});
afterEach(async () => {
  hostile.rewrites.json = undefined;
  hostile.rewrites.bytes = undefined;
  for (const watch of running.splice(0)) {
    watch.child.kill('SIGINT');
    await watch.exited;
  }
});
afterAll(async () => {
  await hostile?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

const cli = (args: string[]) => runCli(args, { config });

/** Every file below `dir` but those below `except`, with its contents. */
async function filesBelow(dir: string, except: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (!entry.isFile() || !relative(except, path).startsWith('..')) continue;
    files.set(relative(dir, path), await readFile(path, 'utf8'));
  }
  return files;
}

/** Whether any request that reached the server carried the secret, as text or as an upload's base64. */
const secretSent = () =>
  hostile.seen.some(
    (r) => r.body.includes(SECRET) || r.body.includes(Buffer.from(SECRET).toString('base64').slice(0, 24)),
  );

/** The production or development theme of northwind, straight from the reference server. */
async function northwind(development = false) {
  const { server } = hostile;
  const auth = clientCredentials({ authUrl: server.origin, ...DEMO, scope: 'admin' });
  const root = await createClient({ baseUrl: server.baseUrl, auth }).root();
  const shop = await root
    .embedded('shops')
    .find((s) => s.properties.subdomain === 'northwind')!
    .follow('self');
  const production = await shop.follow('svc:theme');
  return development ? production.follow('svc:dev_theme') : production;
}

type Json = Record<string, unknown> & { _links: Record<string, { href: string }> };

/** The names the issue found written outside the folder, and more of their kind. */
const UNSAFE_TEMPLATES = [
  '../../evil-rel.html',
  'partials/../../../x.html',
  'ok/../../x.css',
  '/tmp/abs.html',
  '..\\..\\win.html',
  'nul\u0000.html',
  '%2e%2e/%2e%2e/pct.html',
  '.git/hooks.html',
  'a/b/c.html',
  'LAYOUT.html',
];

describe('a hostile server', BIN_TESTS, () => {
  it('pull writes nothing outside the folder, skips and reports every unsafe name and size, pulls the rest', async () => {
    const dir = join(root, 'a/b/theme');
    await mkdir(join(root, 'a'), { recursive: true });
    await writeFile(join(root, 'a/evil-rel.html'), 'ORIGINAL');
    const before = await filesBelow(root, dir);
    let model: { template?: Json; asset?: Json } = {};
    hostile.rewrites.json = (document) => {
      const embedded = document._embedded as { templates?: Json[]; assets?: Json[] } | undefined;
      if (!embedded?.templates || !embedded.assets) return document;
      const [template, asset] = [embedded.templates[0]!, embedded.assets[0]!];
      model = { template, asset };
      const file = new URL(asset._links.file!.href);
      const withFile = (href: string) => ({ ...asset._links, file: { ...asset._links.file, href } });
      embedded.templates.push(
        ...UNSAFE_TEMPLATES.map((file_name, n) => ({ ...template, id: `x${n}`, file_name })),
        { ...template, id: 'x-number', file_name: 42 as unknown as string },
        { ...template, id: 'x-big', file_name: 'big.html', body: 'x'.repeat(100 * 1024) },
      );
      embedded.assets.push(
        { ...asset, file_name: '../../../x.png', _links: withFile(`${hostile.foreign}/escape.png`) },
        { ...asset, file_name: 'images/huge.png', file_size: 5 << 20, _links: withFile(`${hostile.foreign}/huge.png`) },
        { ...asset, file_name: 'images/fat.png', _links: withFile(`${hostile.origin}/fat.png`) },
      );
      // The real asset's bytes from a foreign origin, which must not see the token.
      asset._links = withFile(`${hostile.foreign}${file.pathname}`);
      return document;
    };
    hostile.rewrites.bytes = (path) => (path === '/fat.png' ? new Uint8Array(2 << 20) : undefined);

    const pulled = await cli(['pull', dir, '--shop', 'northwind']);
    expect(pulled.stderr).toBe('');
    expect(pulled.code).toBe(1);
    for (const name of UNSAFE_TEMPLATES) {
      // A case twin has a safe name, and is held at its path: shown as the path.
      const quoted = (name === 'LAYOUT.html' ? name : JSON.stringify(name)).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      expect(pulled.stdout).toMatch(new RegExp(`^  skipped  ${quoted} \\(unsafe name: .+\\)$`, 'm'));
    }
    expect(pulled.stdout).toMatch(/^ {2}skipped {2}"\.\.\/\.\.\/\.\.\/x\.png" \(unsafe name: .+\)$/m);
    expect(pulled.stdout).toMatch(/^ {2}skipped {2}42 \(unsafe name: not a string\)$/m);
    expect(pulled.stdout).toMatch(/^ {2}skipped {2}big\.html \(too large: 102400 bytes, the API allows 65536\)$/m);
    expect(pulled.stdout).toMatch(/^ {2}skipped {2}assets\/images\/huge\.png \(too large: 5242880 bytes/m);
    expect(pulled.stdout).toMatch(/^ {2}failed {3}assets\/images\/fat\.png \(.+ over 1048576 bytes/m);
    expect(pulled.stdout).toMatch(/^ {2}created {2}layout\.html$/m);

    // Nothing outside the folder was written or overwritten; nothing refused is in it.
    expect(await filesBelow(root, dir)).toEqual(before);
    const inside = await readdir(dir, { recursive: true });
    for (const path of ['big.html', 'assets/images/huge.png', 'assets/images/fat.png', 'LAYOUT.html']) {
      expect(inside).not.toContain(path);
    }
    // The refused huge asset was never downloaded; the real one came from abroad, without the token.
    expect(hostile.seenAbroad.map((r) => r.path)).not.toContain('/huge.png');
    const asset = model.asset as { file_name: string } | undefined;
    expect(await readFile(join(dir, 'assets', asset!.file_name))).toBeTruthy();
    expect(hostile.seenAbroad.length).toBeGreaterThan(0);
    expect(hostile.seenAbroad.filter((r) => r.headers.authorization)).toEqual([]);
  });

  it('an answer larger than any the API can give is refused before it is read', async () => {
    const dir = join(root, 'too-large');
    // The theme's representation, 1 MiB more than a theme at every limit of the API.
    const padded = Buffer.alloc(MAX_DOCUMENT_BYTES + (1 << 20));
    hostile.rewrites.bytes = (path) =>
      /^\/v1\/(shops\/\d+\/theme|themes\/\d+)(\.json)?(\?|$)/.test(path) ? padded : undefined;
    const before = hostile.seen.length;
    const pulled = await cli(['pull', dir, '--shop', 'northwind']);
    expect(pulled.code).toBe(1);
    expect(pulled.stderr).toMatch(
      /^storefront-themes pull: the answer of .+ is over \d+ bytes, more than the API allows/,
    );
    // Asked for once: not retried, so not downloaded again.
    const asked = hostile.seen.slice(before).filter((r) => hostile.rewrites.bytes?.(r.path) === padded);
    expect(asked).toHaveLength(1);
  });
});

describe('a folder with symbolic links', BIN_TESTS, () => {
  it('status and push ignore them: no content from outside is sent, a file replaced by one is not deleted', async () => {
    const dir = join(root, 'linked-push');
    expect((await cli(['pull', dir, '--shop', 'northwind'])).code).toBe(0);
    await symlink(join(root, 'outside/secret.html'), join(dir, 'partials/leak.html'));
    await symlink(join(root, 'outside/linked'), join(dir, 'linked'));
    await rm(join(dir, '404.html'));
    await symlink(join(root, 'outside/secret.html'), join(dir, '404.html'));

    const status = await cli(['status', dir]);
    expect(status.code).toBe(0);
    for (const link of ['404.html', 'linked', 'partials/leak.html']) {
      expect(status.stdout).toMatch(new RegExp(`ignored \\(symbolic link\\) +${link.replace('.', '\\.')}$`, 'm'));
    }
    expect(status.stdout).not.toMatch(/deleted here/);

    const pushed = await cli(['push', dir, '--json']);
    expect(pushed.code).toBe(0);
    const result = JSON.parse(pushed.stdout);
    expect(result.files).toEqual([]);
    expect(result.links).toEqual(['404.html', 'linked', 'partials/leak.html']);
    expect(secretSent()).toBe(false);
    const names = (await northwind()).embedded('templates').map((x) => x.properties.file_name);
    expect(names).toContain('404.html');
    expect(names).not.toContain('partials/leak.html');

    // A change on the server to the file replaced by a link is not written through it.
    const template = (await northwind()).embedded('templates').find((x) => x.properties.file_name === '404.html')!;
    await template.follow('svc:update_template', { body: '<p>changed on the server</p>\n' });
    const pulled = await cli(['pull', dir]);
    expect(pulled.stdout).toMatch(/^ {2}skipped {2}404\.html \(symbolic link\)$/m);
    expect(pulled.code).toBe(1);
    expect(await readFile(join(root, 'outside/secret.html'), 'utf8')).toBe(SECRET);
  });

  it('watch ignores them: nothing they point to is sent, a file replaced by one is not deleted', async () => {
    const dir = join(root, 'linked-watch');
    expect((await cli(['dev', '--no-serve', dir, '--shop', 'northwind'])).code).toBe(0);
    const watch = startCli(['watch', dir], { config });
    running.push(watch);
    await watch.waitFor(/^Watching /m);

    await symlink(join(root, 'outside/secret.html'), join(dir, 'partials/leak.html'));
    await symlink(join(root, 'outside/linked'), join(dir, 'linked'));
    await rm(join(dir, '404.html'));
    await symlink(join(root, 'outside/secret.html'), join(dir, '404.html'));
    await watch.waitFor(/ignored {2}partials\/leak\.html: partials\/leak\.html is a symbolic link/);
    await watch.waitFor(/ignored {2}404\.html: 404\.html is a symbolic link/);
    // A save after them: once it is pushed, the links' turns have passed.
    await appendFile(join(dir, 'layout.html'), '<!-- saved after the links -->\n');
    await watch.waitFor(/pushed\s+layout\.html \(updated/);

    expect(secretSent()).toBe(false);
    const names = (await northwind(true)).embedded('templates').map((x) => x.properties.file_name);
    expect(names).toContain('404.html');
    expect(names).not.toContain('partials/leak.html');
    expect(names).not.toContain('linked/x.html');
    expect(watch.stdout()).not.toMatch(/pushed\s+404\.html/);
  });
});
