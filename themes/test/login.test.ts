/** Signing in through the real bin: each grant, where the login is kept, how the token stays alive, logout. */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { approve } from './helpers/browser.js';
import { BIN_TESTS, modeOf, startCli } from './helpers/cli.js';
import { appEnv, DEMO, useThemesServer } from './helpers/server.js';

/** Tokens live 5 s of the server's clock, which the tests move. */
const themes = useThemesServer({ tokenTtl: 5 });

describe('login', BIN_TESTS, () => {
  it('with client credentials (CI): keeps the app and session in XDG_CONFIG_HOME, mode 0600; logout deletes them', async () => {
    const t = themes();
    const config = await t.tempDir();
    const login = await t.cli(['login', '--client-credentials'], { config, env: appEnv(t.server) });
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
    expect(login.stdout).toBe(`Logged in to ${t.server.origin} as Dana Demo, with the app's own credentials\n`);
    const folder = join(config, 'storefront-themes');
    expect(await modeOf(folder)).toBe(0o700);
    for (const file of ['credentials.json', 'session.json']) expect(await modeOf(join(folder, file))).toBe(0o600);
    expect(JSON.parse(await readFile(join(folder, 'credentials.json'), 'utf8'))).toEqual({
      url: t.server.origin,
      clientId: DEMO.clientId,
      clientSecret: DEMO.clientSecret,
    });
    expect(JSON.parse(await readFile(join(folder, 'session.json'), 'utf8'))).toMatchObject({
      grant: 'client_credentials',
      user: 'Dana Demo',
    });
    const pulled = await t.cli(['pull', join(config, 'theme'), '--shop', 'northwind'], { config });
    expect(pulled.code).toBe(0);

    const logout = await t.cli(['logout'], { config });
    expect(logout.stdout).toMatch(/^Logged out: deleted the credentials and token/);
    await expect(stat(join(folder, 'session.json'))).rejects.toThrow(/ENOENT/);
    await expect(stat(join(folder, 'credentials.json'))).rejects.toThrow(/ENOENT/);
    const after = await t.cli(['status', join(config, 'theme')], { config });
    expect(after.code).toBe(1);
    expect(after.stderr).toBe(
      'storefront-themes status: not logged in: run storefront-themes login (login --client-credentials in CI)\n',
    );
  });

  it('through the browser: authorization code with PKCE, redirected to a free port of 127.0.0.1', async () => {
    const t = themes();
    const config = await t.tempDir();
    const login = startCli(['login', '--no-browser'], { config, env: appEnv(t.server) });
    const [, url] = await login.waitFor(/^ {2}(http\S+\/oauth\/authorize\?\S+)$/m, 'stderr');
    const authorize = new URL(url!);
    expect(authorize.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    const callback = await approve(url!, 'demo', DEMO.password);
    expect(callback.startsWith(authorize.searchParams.get('redirect_uri')!)).toBe(true);
    const landing = await fetch(callback);
    expect(await landing.text()).toContain('You can close this tab');
    expect(await login.exited).toBe(0);
    expect(login.stdout()).toBe(`Logged in to ${t.server.origin} as Dana Demo, through the browser\n`);
    const session = JSON.parse(await readFile(join(config, 'storefront-themes/session.json'), 'utf8'));
    expect(session).toMatchObject({ grant: 'authorization_code', token: { accessToken: expect.any(String) } });
  });

  it('with a password read without echo, then keeps the token alive through the JWT bearer grant', async () => {
    const t = themes();
    const config = await t.tempDir();
    const login = await t.cli(['login', '--password'], {
      config,
      env: appEnv(t.server),
      input: `demo\n${DEMO.password}\n`,
    });
    expect(login.code).toBe(0);
    expect(login.stderr).toBe('Enter your login: \nEnter your password: \n');
    const sessionFile = join(config, 'storefront-themes/session.json');
    const first = JSON.parse(await readFile(sessionFile, 'utf8')).token.accessToken;
    const dir = join(config, 'dev');
    expect((await t.cli(['dev', '--no-serve', dir, '--shop', 'northwind'], { config })).code).toBe(0);

    // The token expires; the next run exchanges it for a new one and saves that (the old one is revoked).
    t.clock.advance(10_000);
    let from = t.requests.length;
    expect((await t.cli(['status', dir], { config })).code).toBe(0);
    expect(t.requests.slice(from).some((line) => line.startsWith('POST /oauth/token 200'))).toBe(true);
    const second = JSON.parse(await readFile(sessionFile, 'utf8')).token.accessToken;
    expect(second).not.toBe(first);
    expect(await modeOf(sessionFile)).toBe(0o600);

    // A watch holds that token while another run renews it, which revokes it: the watch adopts the saved one.
    const watch = startCli(['watch', dir], { config });
    await watch.waitFor(/^Watching /m);
    t.clock.advance(10_000);
    expect((await t.cli(['status', dir], { config })).code).toBe(0);
    expect(JSON.parse(await readFile(sessionFile, 'utf8')).token.accessToken).not.toBe(second);
    from = t.requests.length;
    await writeFile(join(dir, 'page.html'), '<p>saved with an adopted token</p>\n');
    await watch.waitFor(/pushed\s+page\.html/);
    expect(t.requests.slice(from).some((line) => /^PUT \/v1\/themes\/\d+\/templates\/\d+ 200 /.test(line))).toBe(true);
    watch.child.kill('SIGINT');
    expect(await watch.exited).toBe(0);
  });

  it('checks a new app before asking for the password, and stores nothing the server refuses', async () => {
    const t = themes();
    const config = await t.tempDir();
    const from = t.requests.length;
    const login = await t.cli(
      ['login', '--password', '--username', 'demo', '--client-id', DEMO.clientId, '--client-secret', 'bad'],
      { config, env: { STOREFRONT_URL: t.server.origin }, input: `${DEMO.password}\n` },
    );
    expect(login.code).toBe(1);
    // No password asked: the app was refused first.
    expect(login.stderr).toBe(
      `storefront-themes login: the server at ${t.server.origin} does not accept the client id "${DEMO.clientId}" with this secret: nothing stored (copy both again from the platform)\n`,
    );
    expect(t.requests.slice(from)).toEqual([expect.stringMatching(/^POST \/oauth\/token 401 /)]);
    expect(await readFile(join(config, 'storefront-themes/credentials.json'), 'utf8').catch(() => 'none')).toBe('none');
  });

  it('refuses a wrong password with a one-line error', async () => {
    const t = themes();
    const config = await t.tempDir();
    const login = await t.cli(['login', '--username', 'demo'], { config, env: appEnv(t.server), input: 'wrong\n' });
    expect(login.code).toBe(1);
    expect(login.stderr).toMatch(
      /^Enter your password: \nstorefront-themes login: the server refused this login and password \(.+\): check them and run this command again\n$/,
    );
  });
});
