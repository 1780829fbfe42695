/** `watch` through the real bin: a saved file reaches the server, conflicts are reported, a server outage is waited out. */
import { appendFile, copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { clientCredentials, createClient } from 'storefront-sdk';
import { createServer, type StorefrontServer } from 'storefront-server';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN_TESTS, startCli } from './helpers/cli.js';
import { appEnv, DEMO, REDIRECT_URIS, useThemesServer } from './helpers/server.js';

const themes = useThemesServer();

/** A logged-in configuration and a folder holding the development theme. */
async function devFolder(t: ReturnType<typeof themes>) {
  const config = await t.loggedIn();
  const dir = join(await t.tempDir(), 'dev');
  const dev = await t.cli(['dev', dir, '--shop', 'northwind'], { config });
  expect(dev.code).toBe(0);
  return { config, dir };
}

const running: ReturnType<typeof startCli>[] = [];
afterEach(async () => {
  for (const watch of running.splice(0)) {
    watch.child.kill('SIGINT');
    await watch.exited;
  }
});

describe('watch', BIN_TESTS, () => {
  it('pushes each saved file to the development theme, one request each, and reports conflicts', async () => {
    const t = themes();
    const { config, dir } = await devFolder(t);
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
    expect(watch.stdout()).toMatch(/Stopped watching\n$/);
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

  it('retries a save until the server is back, without a stack trace', async () => {
    const t = themes();
    const data = join(await t.tempDir(), 'db.json');
    const start = (port: number) =>
      createServer({ port, products: 5, data, demo: { ...DEMO, redirectUris: REDIRECT_URIS } });
    server = await start(0);
    const port = Number(new URL(server.origin).port);
    const config = await t.tempDir();
    expect((await t.cli(['login', '--client-credentials'], { config, env: appEnv(server) })).code).toBe(0);
    const dir = join(await t.tempDir(), 'dev');
    expect((await t.cli(['dev', dir, '--shop', 'northwind'], { config })).code).toBe(0);
    const watch = startCli(['watch', dir], { config });
    running.push(watch);
    await watch.waitFor(/^Watching /m);

    await server.close();
    await appendFile(join(dir, 'layout.html'), '<!-- saved while the server was down -->\n');
    await watch.waitFor(
      /retrying layout\.html in \d+ s: cannot reach the server at http:\/\/127\.0\.0\.1:\d+ \(connection refused\)/,
    );
    server = await start(port);
    await watch.waitFor(/pushed\s+layout\.html \(updated/);
    const auth = clientCredentials({ authUrl: server.origin, ...DEMO, scope: 'admin' });
    const root = await createClient({ baseUrl: server.baseUrl, auth }).root();
    const northwind = await root
      .embedded('shops')
      .find((s) => s.properties.subdomain === 'northwind')!
      .follow('self');
    const dev = await (await northwind.follow('svc:theme')).follow('svc:dev_theme');
    const layout = dev.embedded('templates').find((x) => x.properties.file_name === 'layout.html')!;
    expect(layout.properties.body).toContain('saved while the server was down');
    expect(watch.stderr()).toBe('');
    expect(watch.stdout()).not.toMatch(/^\s+at /m);
  });
});
