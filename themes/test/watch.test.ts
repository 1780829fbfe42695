/**
 * `watch` through the real bin: a saved file reaches the server, conflicts are reported, a save the server could not
 * take is kept and sent later, and a failing server gets the client's retries only.
 */
import { appendFile, copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { clientCredentials, createClient } from '@storefront-platform/sdk';
import { createServer, type StorefrontServer } from '@storefront-platform/server';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN_TESTS, startCli } from './helpers/cli.js';
import { type ProxiedServer, startProxiedServer } from './helpers/failing-proxy.js';
import { appEnv, DEMO, REDIRECT_URIS, useThemesServer } from './helpers/server.js';

const themes = useThemesServer();

/** The bodies of the templates of the development theme of northwind on `server`, by file name. */
async function devTemplates(server: StorefrontServer): Promise<Map<string, string>> {
  const auth = clientCredentials({ authUrl: server.origin, ...DEMO, scope: 'admin' });
  const root = await createClient({ baseUrl: server.baseUrl, auth }).root();
  const northwind = await root
    .embedded('shops')
    .find((s) => s.properties.subdomain === 'northwind')!
    .follow('self');
  const dev = await (await northwind.follow('svc:theme')).follow('svc:dev_theme');
  return new Map(dev.embedded('templates').map((x) => [x.properties.file_name, x.properties.body]));
}

const running: ReturnType<typeof startCli>[] = [];
afterEach(async () => {
  for (const watch of running.splice(0)) {
    watch.child.kill('SIGINT');
    await watch.exited;
  }
});

/** `watch` running on a folder of the development theme of a server of the test's own, logged in there. */
async function watchOn(t: ReturnType<typeof themes>, server: StorefrontServer) {
  const config = await t.tempDir();
  expect((await t.cli(['login', '--client-credentials'], { config, env: appEnv(server) })).code).toBe(0);
  const dir = join(await t.tempDir(), 'dev');
  expect((await t.cli(['dev', '--no-serve', dir, '--shop', 'northwind'], { config })).code).toBe(0);
  const watch = startCli(['watch', dir], { config });
  running.push(watch);
  await watch.waitFor(/^Watching /m);
  return { dir, watch };
}

describe('watch', BIN_TESTS, () => {
  it('pushes each saved file to the development theme, one request each, and reports conflicts', async () => {
    const t = themes();
    const { config, dir } = await t.checkedOut('dev');
    const watch = startCli(['watch', dir], { config });
    running.push(watch);
    await watch.waitFor(/^Watching .+ \(Ctrl-C to stop\)$/m);
    const [, preview] = await watch.waitFor(/^Preview: (http\S+)$/m);
    expect((await fetch(preview!)).status).toBe(200);

    let from = t.requests.length;
    await appendFile(join(dir, 'layout.html'), '<!-- saved in the editor -->\n');
    await t.waitForRequest(/^PUT \/v1\/themes\/\d+\/templates\/\d+ 200 /, from);
    const { theme: dev } = await t.theme(true);
    const layout = dev.embedded('templates').find((x) => x.properties.file_name === 'layout.html')!;
    expect(layout.properties.body).toBe(await readFile(join(dir, 'layout.html'), 'utf8'));
    await watch.waitFor(/pushed\s+layout\.html \(updated, \d+ ms\)/);
    expect(t.requests.slice(from).filter((line) => /^(PUT|POST|DELETE) \/v1\//.test(line))).toHaveLength(1);

    from = t.requests.length;
    await copyFile(join(dir, 'assets/images/logo.png'), join(dir, 'assets/images/logo-copy.png'));
    await t.waitForRequest(/^POST \/v1\/themes\/\d+\/assets 201 /, from);
    await rm(join(dir, 'partials/newsletter.html'));
    await t.waitForRequest(/^DELETE \/v1\/themes\/\d+\/templates\/\d+ 204 /, from);

    // Someone changes page.html on the server a second later; my save of it is then a conflict, not sent.
    t.clock.advance(1000);
    const page = dev.embedded('templates').find((x) => x.properties.file_name === 'page.html')!;
    await page.follow('svc:update_template', { body: '<p>theirs</p>\n' });
    await writeFile(join(dir, 'page.html'), '<p>mine</p>\n');
    await watch.waitFor(/conflict page\.html: changed on the server too/);
    const { theme: after } = await t.theme(true);
    expect(after.embedded('templates').find((x) => x.properties.file_name === 'page.html')!.properties.body).toBe(
      '<p>theirs</p>\n',
    );

    watch.child.kill('SIGINT');
    expect(await watch.exited).toBe(0);
    // The conflict was never sent: said when the watch stops.
    expect(watch.stdout()).toMatch(/Stopped watching; conflicts: page\.html \(pull --merge, or push --force\)\n$/);
    expect(watch.stderr()).toBe('');
  });

  it('refuses a folder of the production theme', async () => {
    const t = themes();
    const config = await t.loggedIn();
    const dir = join(await t.tempDir(), 'production');
    expect((await t.cli(['pull', dir, '--shop', 'northwind'], { config })).code).toBe(0);
    const watch = await t.cli(['watch', dir], { config });
    expect(watch.code).toBe(2);
    expect(watch.stderr).toMatch(
      /^storefront-themes watch: .+ holds the production theme: .+run storefront-themes dev first\)\n$/,
    );
  });
});

describe('watch while the server is down', BIN_TESTS, () => {
  let server: StorefrontServer | undefined;
  afterEach(() => server?.close());

  it('keeps a save the server could not take, and sends it with the next save once it is back', async () => {
    const t = themes();
    const data = join(await t.tempDir(), 'db.json');
    const start = (port: number) =>
      createServer({ port, products: 5, data, demo: { ...DEMO, redirectUris: REDIRECT_URIS } });
    server = await start(0);
    const port = Number(new URL(server.origin).port);
    const { dir, watch } = await watchOn(t, server);

    await server.close();
    await appendFile(join(dir, 'layout.html'), '<!-- saved while the server was down -->\n');
    const refused = 'cannot reach the server at http://127\\.0\\.0\\.1:\\d+ \\(connection refused\\): is it running\\?';
    // The client's retries, shown as they come, then the file kept rather than dropped.
    await watch.waitFor(new RegExp(`retrying layout\\.html in [\\d.]+ s: ${refused}`));
    await watch.waitFor(
      new RegExp(`failed {3}layout\\.html: ${refused} \\(kept: sent again in 30 s or with the next save\\)`),
    );

    server = await start(port);
    await appendFile(join(dir, 'page.html'), '<!-- saved once the server was back -->\n');
    await watch.waitFor(/pushed\s+page\.html \(updated/);
    await watch.waitFor(/pushed\s+layout\.html \(updated/);
    const templates = await devTemplates(server);
    expect(templates.get('layout.html')).toContain('saved while the server was down');
    expect(templates.get('page.html')).toContain('saved once the server was back');
    expect(watch.stderr()).toBe('');
    expect(watch.stdout()).not.toMatch(/^\s+at /m);
  });
});

describe('watch while the server answers 503', BIN_TESTS, () => {
  let proxied: ProxiedServer | undefined;
  afterEach(() => proxied?.close());

  it("tries a save as the client's retry policy says, waiting what Retry-After asks, and no more", async () => {
    const t = themes();
    proxied = await startProxiedServer({ products: 5, demo: { ...DEMO, redirectUris: REDIRECT_URIS } });
    const { dir, watch } = await watchOn(t, proxied.server);

    const from = proxied.requests.length;
    const writes = () => proxied!.requests.slice(from).filter((r) => r.method !== 'GET' && r.path.startsWith('/v1/'));
    proxied.fail({ retryAfter: 1 });
    await appendFile(join(dir, 'layout.html'), '<!-- saved during a deployment -->\n');
    await watch.waitFor(/failed {3}layout\.html: .+ 503: .+ \(kept: sent again in 30 s or with the next save\)$/m);
    // One request and the client's two retries; watch repeated none of them (it used to make 15 requests).
    expect(writes().map((r) => `${r.method} ${r.status}`)).toEqual(['PUT 503', 'PUT 503', 'PUT 503']);
    // Each retry announced, and taken after the second the server asked for rather than the client's own backoff
    // (0.3, then 0.6 s): lower bounds only, which a slow machine cannot break.
    expect(watch.stdout().match(/retrying layout\.html in 1 s: PUT .+ failed with 503/g)).toHaveLength(2);
    const [first, second, third] = writes().map((r) => r.at);
    expect(second! - first!).toBeGreaterThanOrEqual(900);
    expect(third! - second!).toBeGreaterThanOrEqual(900);

    // The next save goes through, and takes the kept one with it.
    proxied.recover();
    await appendFile(join(dir, 'page.html'), '<!-- saved after it -->\n');
    await watch.waitFor(/pushed\s+page\.html \(updated/);
    await watch.waitFor(/pushed\s+layout\.html \(updated/);
    expect(writes().map((r) => `${r.method} ${r.status}`)).toEqual([
      'PUT 503',
      'PUT 503',
      'PUT 503',
      'PUT 200',
      'PUT 200',
    ]);
    const templates = await devTemplates(proxied.server);
    expect(templates.get('layout.html')).toContain('saved during a deployment');
    watch.child.kill('SIGINT');
    expect(await watch.exited).toBe(0);
    expect(watch.stdout()).toMatch(/Stopped watching\n$/);
    expect(watch.stderr()).toBe('');
  });
});
