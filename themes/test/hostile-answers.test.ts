/**
 * What a hostile server answers besides its theme's names: a shop id made to be a path, a case twin of a tracked
 * file, a write answered with another file's name, an asset download that never ends. None of them may touch a file
 * outside the folders the tool owns, take a held file for a deleted one, damage the manifest, or hold up Ctrl-C.
 */
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientCredentials, createClient } from '@storefront-platform/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN_TESTS, runCli, startCli } from './helpers/cli.js';
import { type HostileServer, startHostileServer } from './helpers/hostile-proxy.js';
import { appEnv, DEMO, REDIRECT_URIS } from './helpers/server.js';

let hostile: HostileServer;
let root: string;
let config: string;

beforeAll(async () => {
  hostile = await startHostileServer({ products: 5, demo: { ...DEMO, redirectUris: REDIRECT_URIS } });
  root = await mkdtemp(join(tmpdir(), 'storefront-answers-'));
  config = join(root, 'config');
  const login = await runCli(['login', '--client-credentials'], { config, env: appEnv(hostile.server) });
  if (login.code !== 0) throw new Error(`login failed: ${login.stderr}`);
});
afterEach(() => {
  for (const key of ['json', 'bytes', 'written', 'hang'] as const) hostile.rewrites[key] = undefined;
});
afterAll(async () => {
  await hostile?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

const cli = (args: string[]) => runCli(args, { config });

/** The production or development theme of northwind, straight from the reference server. */
async function northwind(development = false) {
  const { server } = hostile;
  const auth = clientCredentials({ authUrl: server.origin, ...DEMO, scope: 'admin' });
  const shops = (await createClient({ baseUrl: server.baseUrl, auth, retry: false }).root()).embedded('shops');
  const production = await (await shops.find((s) => s.properties.subdomain === 'northwind')!.follow('self')).follow(
    'svc:theme',
  );
  return development ? production.follow('svc:dev_theme') : production;
}

type Json = Record<string, unknown>;
const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe('hostile answers', BIN_TESTS, () => {
  it('pull holds back a case twin of a tracked file: not removed from the folder', async () => {
    const dir = join(root, 'twin');
    expect((await cli(['pull', dir, '--shop', 'northwind'])).code).toBe(0);
    // The twin comes first, so that the tracked 404.html is the one refused.
    hostile.rewrites.json = (document) => {
      const templates = (document._embedded as { templates?: Json[] } | undefined)?.templates;
      const tracked = templates?.find((t) => t.file_name === '404.html');
      if (tracked) templates!.unshift({ ...tracked, id: 'twin', file_name: '404.HTML' });
      return document;
    };
    const pulled = await cli(['pull', dir]);
    expect(pulled.stdout).toMatch(/^ {2}skipped {2}404\.html \(unsafe name: the same as 404\.HTML but for case\)$/m);
    expect(pulled.stdout).not.toMatch(/deleted\s+404\.html/);
    expect(await exists(join(dir, '404.html'))).toBe(true);
  });

  it('watch holds back a case twin of a tracked file: not removed from the folder', async () => {
    const dir = join(root, 'watched-twin');
    expect((await cli(['dev', dir, '--shop', 'northwind', '--no-serve'])).code).toBe(0);
    const watch = startCli(['watch', dir, '--interval', '0.2'], { config });
    try {
      await watch.waitFor(/^Watching /m);
      hostile.rewrites.json = (document) => {
        const templates = (document._embedded as { templates?: Json[] } | undefined)?.templates;
        const tracked = templates?.find((t) => t.file_name === '404.html');
        if (tracked) templates!.unshift({ ...tracked, id: 'twin', file_name: '404.HTML' });
        return document;
      };
      // A change on the server, so that the next look reads the theme (a 200, not a 304), twin and all.
      const page = (await northwind(true)).embedded('templates').find((t) => t.properties.file_name === 'page.html')!;
      await page.follow('svc:update_template', { body: '<p>page, theirs</p>\n' });
      await watch.waitFor(/pulled\s+page\.html \(updated on the server\)/);
      expect(watch.stdout()).not.toMatch(/404\.html/);
      expect(await exists(join(dir, '404.html'))).toBe(true);
    } finally {
      watch.child.kill('SIGINT');
      await watch.exited;
    }
  });

  it('push refuses a write answered with another file name, and the manifest stays readable', async () => {
    const dir = join(root, 'renamed-answer');
    expect((await cli(['pull', dir, '--shop', 'northwind'])).code).toBe(0);
    await writeFile(join(dir, 'layout.html'), `${await readFile(join(dir, 'layout.html'), 'utf8')}<!-- edit -->\n`);
    hostile.rewrites.written = (document) => (document.file_name ? { ...document, file_name: '../x.html' } : document);
    const pushed = await cli(['push', dir]);
    expect(pushed.code).toBe(1);
    expect(pushed.stdout).toMatch(
      /^ {2}failed {3}layout\.html \(the server answered .+ another file, "\.\.\/x\.html"/m,
    );
    hostile.rewrites.written = undefined;
    const status = await cli(['status', dir]);
    expect(status.stderr).toBe('');
    expect(status.code).toBe(0);
  });

  it('a second Ctrl-C aborts an asset download that hangs: publish reports the cut (exit 4)', async () => {
    expect((await cli(['dev', '--no-serve', join(root, 'dev'), '--shop', 'northwind'])).code).toBe(0);
    const development = await northwind(true);
    const data = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>').toString('base64');
    const asset = await development.follow('svc:create_theme_asset', { file_name: 'images/hangs.svg', data });
    const { pathname } = new URL(asset.link('file').expand());
    hostile.rewrites.hang = (path) => path.startsWith(pathname);
    const dir = await mkdtemp(join(root, 'empty-'));
    // From a folder without the base: --ours publishes the development theme's files over production's.
    const publish = startCli(['publish', dir, '--shop', 'northwind', '--yes', '--ours'], { config });
    try {
      await waitUntil(() => hostile.seen.some((r) => r.path.startsWith(pathname)));
      publish.child.kill('SIGINT');
      await publish.waitFor(/^Stopping \(SIGINT\)/m, 'stderr');
      publish.child.kill('SIGINT');
      const code = await Promise.race([publish.exited, sleep(15_000).then(() => 'still running')]);
      expect(code).toBe(4);
      expect(publish.stdout()).toMatch(/assets\/images\/hangs\.svg/);
    } finally {
      publish.child.kill('SIGKILL');
    }
  });

  it('a first Ctrl-C stops a push still reading a theme that hangs, at once: nothing sent (exit 4)', async () => {
    const dir = join(root, 'push-hangs');
    expect((await cli(['pull', dir, '--shop', 'northwind'])).code).toBe(0);
    // A new file: the push reads the theme to compare before it sends anything.
    await writeFile(join(dir, 'new.html'), '<p>new</p>\n');
    hostile.rewrites.hang = (path) => path.endsWith('/theme.json');
    const from = hostile.seen.length;
    const push = startCli(['push', dir], { config });
    try {
      await waitUntil(() => hostile.seen.slice(from).some((r) => r.path.endsWith('/theme.json')));
      push.child.kill('SIGINT');
      const code = await Promise.race([push.exited, sleep(10_000).then(() => 'still running')]);
      expect(code, push.stderr()).toBe(4);
      expect(push.stderr()).toMatch(/^storefront-themes push: interrupted \(SIGINT\)$/m);
      expect(hostile.seen.slice(from).filter((r) => r.method !== 'GET')).toEqual([]);
    } finally {
      push.child.kill('SIGKILL');
    }
  });

  it('a first Ctrl-C stops a push to environments still reading their shops: one listener, said once (exit 4)', async () => {
    const dir = join(root, 'environments-hang');
    expect((await cli(['pull', dir, '--shop', 'northwind'])).code).toBe(0);
    await writeFile(
      join(dir, 'storefront-themes.toml'),
      '[environments.north]\nshop = "northwind"\ntheme = "production"\n\n[environments.copper]\nshop = "copper-kettle"\ntheme = "production"\n',
    );
    hostile.rewrites.hang = (path) => path.endsWith('/theme.json');
    const from = hostile.seen.length;
    const push = startCli(['push', dir, '--env', 'north', '--env', 'copper', '--yes'], { config });
    try {
      await waitUntil(() => hostile.seen.slice(from).filter((r) => r.path.endsWith('/theme.json')).length === 2);
      push.child.kill('SIGINT');
      const code = await Promise.race([push.exited, sleep(10_000).then(() => 'still running')]);
      expect(code, push.stderr()).toBe(4);
      expect(push.stderr().match(/^Stopping \(SIGINT\)/gm), push.stderr()).toHaveLength(1);
      expect(push.stdout()).toMatch(/^ {2}failed north +- +interrupted \(SIGINT\)$/m);
      expect(push.stdout()).toMatch(/^ {2}failed copper +- +interrupted \(SIGINT\)$/m);
      expect(hostile.seen.slice(from).filter((r) => r.method !== 'GET')).toEqual([]);
    } finally {
      push.child.kill('SIGKILL');
    }
  });

  it('publish keeps its journal in the configuration folder whatever the shop id: /../ leads nowhere', async () => {
    const development = await northwind(true);
    const layout = development.embedded('templates').find((t) => t.properties.file_name === 'layout.html')!;
    await layout.follow('svc:update_template', { body: `${layout.properties.body}<!-- for production -->\n` });
    // Where `publish-${id}.jsonl` in the configuration folder would lead.
    const target = join(root, 'precious.jsonl');
    await writeFile(target, 'precious');
    hostile.rewrites.json = (document) =>
      document.subdomain === 'northwind' ? { ...document, id: '/../../../precious' } : document;
    const dir = join(root, 'no-theme');
    await mkdir(dir);
    const published = await cli(['publish', dir, '--shop', 'northwind', '--yes', '--ours']);
    expect(published.stderr).toMatch(/^No base is recorded for a publish from outside the theme folder: [^\n]*\n$/);
    expect(published.code).toBe(0);
    expect(await readFile(target, 'utf8')).toBe('precious');
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(done: () => boolean, timeout = 15_000): Promise<void> {
  for (const end = Date.now() + timeout; !done(); await sleep(50)) {
    if (Date.now() > end) throw new Error('waited in vain');
  }
}

describe('answers that are not the API’s', BIN_TESTS, () => {
  it('pull says in one line which answer was not a HAL resource, and why', async () => {
    const dir = join(root, 'not-a-resource');
    const cases: [(document: Json, path: string) => unknown, RegExp][] = [
      [
        (document) =>
          'shops' in ((document._embedded as Json) ?? {}) ? { ...document, _embedded: { shops: [null] } } : document,
        /_embedded\.shops\[0\] is null/,
      ],
      [
        (document, path) => (path.endsWith('/theme.json') ? { ...document, _links: undefined } : document),
        /has no _links/,
      ],
      [(document, path) => (path.endsWith('/theme.json') ? [document] : document), /is an array, not a HAL resource/],
    ];
    for (const [rewrite, fault] of cases) {
      hostile.rewrites.json = rewrite;
      const pulled = await cli(['pull', dir, '--shop', 'northwind']);
      expect(pulled.code, pulled.stderr).toBe(1);
      const lines = pulled.stderr.trim().split('\n');
      expect(lines, pulled.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(fault);
      expect(lines[0]).toMatch(/answered GET http:\/\/\S+ with what is not the API's/);
      expect(pulled.stderr).not.toMatch(/Cannot read properties|is not a function/);
    }
  });
});
