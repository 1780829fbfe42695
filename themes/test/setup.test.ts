import { once } from 'node:events';
/**
 * `setup` through the real bin: the app's client id and secret and the server's address from flags, from the
 * environment, from answers piped in, or typed in a terminal (the secret without echo); what it keeps, with which
 * modes, and what becomes of a session when the app changes.
 */
import { readFile, stat } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skipWithout } from '../../test/support/requirement.js';
import { BIN_TESTS, modeOf } from './helpers/cli.js';
import { appEnv, DEMO, useThemesServer } from './helpers/server.js';
import { startInTerminal, TERMINAL } from './helpers/terminal.js';

const themes = useThemesServer();

const credentialsOf = async (config: string) =>
  JSON.parse(await readFile(join(config, 'storefront-themes/credentials.json'), 'utf8'));
const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

const ASK_ID = "Enter your application's client id:";
const ASK_SECRET = "Enter your application's client secret:";

describe('setup', BIN_TESTS, () => {
  it('with every value as a flag: asks nothing, keeps them with mode 0600 in a 0700 folder, and login uses them', async () => {
    const t = themes();
    const config = await t.tempDir();
    // The environment names another app and server: the flags win over it.
    const env = {
      STOREFRONT_URL: 'http://elsewhere.invalid',
      STOREFRONT_CLIENT_ID: 'other-app',
      STOREFRONT_CLIENT_SECRET: 'other',
    };
    const setup = await t.cli(
      ['setup', '--url', `${t.server.origin}/`, '--client-id', DEMO.clientId, '--client-secret', DEMO.clientSecret],
      { config, env, input: '' },
    );
    expect(setup.stderr).toBe('');
    expect(setup.code).toBe(0);
    const file = join(config, 'storefront-themes/credentials.json');
    expect(setup.stdout).toBe(
      `Stored the app ${DEMO.clientId} for ${t.server.origin} in ${file}\nNext: storefront-themes login\n`,
    );
    // The trailing slash of --url is not kept: the API root is {url}/v1.
    expect(await credentialsOf(config)).toEqual({
      url: t.server.origin,
      clientId: DEMO.clientId,
      clientSecret: DEMO.clientSecret,
    });
    expect(await modeOf(join(config, 'storefront-themes'))).toBe(0o700);
    expect(await modeOf(file)).toBe(0o600);
    expect(setup.stdout).not.toContain(DEMO.clientSecret);

    // With nothing in the environment, login finds the server and the app where setup put them.
    const login = await t.cli(['login', '--client-credentials'], { config, input: '' });
    expect(login.stderr).toBe('');
    expect(login.stdout).toBe(`Logged in to ${t.server.origin} as Dana Demo, with the app's own credentials\n`);
  });

  it('takes what no flag gives from STOREFRONT_URL, STOREFRONT_CLIENT_ID and STOREFRONT_CLIENT_SECRET; --json says what it kept', async () => {
    const t = themes();
    const config = await t.tempDir();
    // An app the server does not know: stored unchecked.
    const setup = await t.cli(['setup', '--client-id', 'flag-app', '--json', '--no-verify'], {
      config,
      env: appEnv(t.server),
      input: '',
    });
    expect(setup.stderr).toBe('');
    expect(setup.code).toBe(0);
    const file = join(config, 'storefront-themes/credentials.json');
    expect(JSON.parse(setup.stdout)).toEqual({ ok: true, url: t.server.origin, clientId: 'flag-app', file });
    expect(await credentialsOf(config)).toEqual({
      url: t.server.origin,
      clientId: 'flag-app',
      clientSecret: DEMO.clientSecret,
    });
  });

  it('checks the id and secret with the server before storing them: a wrong secret is refused, nothing stored', async () => {
    const t = themes();
    const config = await t.tempDir();
    const from = t.requests.length;
    const wrong = await t.cli(
      ['setup', '--url', t.server.origin, '--client-id', DEMO.clientId, '--client-secret', 'not the secret'],
      { config },
    );
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe(
      `storefront-themes setup: the server at ${t.server.origin} does not accept the client id "${DEMO.clientId}" with this secret: nothing stored (copy both again from the platform)\n`,
    );
    expect(await exists(join(config, 'storefront-themes/credentials.json'))).toBe(false);
    expect(t.requests.slice(from)).toEqual([expect.stringMatching(/^POST \/oauth\/token 401 /)]);
    // A port nothing listens on: one just freed.
    const closed = createNetServer().listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const url = `http://127.0.0.1:${port}`;
    const nowhere = await t.cli(['setup', '--url', url, '--client-id', 'a', '--client-secret', 'b'], { config });
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toMatch(
      /cannot reach the server at http:\/\/127\.0\.0\.1:\d+ to check the app \(connection refused\): nothing stored/,
    );
    expect(await exists(join(config, 'storefront-themes/credentials.json'))).toBe(false);
    // Something else answers there (a mistyped address): a page, not a token endpoint.
    const site = createHttpServer((_req, res) =>
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>No</h1>'),
    );
    site.listen(0, '127.0.0.1');
    await once(site, 'listening');
    try {
      const other = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
      const page = await t.cli(['setup', '--url', other, '--client-id', 'a', '--client-secret', 'b'], { config });
      expect(page.code).toBe(1);
      expect(page.stderr).toMatch(/answered 404, not as a Storefront token endpoint: .*nothing stored/);
    } finally {
      site.close();
    }
    expect(await exists(join(config, 'storefront-themes/credentials.json'))).toBe(false);
  });

  it('stores nothing when the token endpoint fails (5xx), and takes a refusal of the scope as the pair known', async () => {
    const t = themes();
    const config = await t.tempDir();
    const answers = [
      [503, '{"message":"down"}'],
      [400, '{"error":"invalid_scope","error_description":"no admin for this app"}'],
    ];
    const endpoint = createHttpServer((req, res) => {
      req.resume();
      const [status, body] = answers.shift()!;
      res.writeHead(status as number, { 'content-type': 'application/json' }).end(body);
    });
    endpoint.listen(0, '127.0.0.1');
    await once(endpoint, 'listening');
    try {
      const url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}`;
      const args = ['setup', '--url', url, '--client-id', 'a', '--client-secret', 'b'];
      const down = await t.cli(args, { config });
      expect(down.code).toBe(1);
      expect(down.stderr).toBe(
        `storefront-themes setup: the server at ${url} could not check the app (503): nothing stored (--no-verify stores it unchecked)\n`,
      );
      expect(await exists(join(config, 'storefront-themes/credentials.json'))).toBe(false);
      const scope = await t.cli(args, { config });
      expect(scope.code).toBe(0);
      expect(await credentialsOf(config)).toEqual({ url, clientId: 'a', clientSecret: 'b' });
    } finally {
      endpoint.close();
    }
  });

  it('asks for what is missing on standard error and reads the answers piped in, line by line', async () => {
    const t = themes();
    const config = await t.tempDir();
    const setup = await t.cli(['setup', '--url', t.server.origin], {
      config,
      input: `  ${DEMO.clientId}  \n${DEMO.clientSecret}\n`,
    });
    expect(setup.code).toBe(0);
    // Each question on its own line (nobody typed the line's end), and the answers are not repeated.
    expect(setup.stderr).toBe(`${ASK_ID} \n${ASK_SECRET} \n`);
    expect(setup.stdout).toMatch(/^Stored the app themes-test-app for http:\/\/127\.0\.0\.1:\d+ in /);
    // Answers are trimmed.
    expect(await credentialsOf(config)).toEqual({
      url: t.server.origin,
      clientId: DEMO.clientId,
      clientSecret: DEMO.clientSecret,
    });
    expect(await modeOf(join(config, 'storefront-themes/credentials.json'))).toBe(0o600);
  });

  it('run again, offers the stored app: empty answers keep it, and the session with it', async () => {
    const t = themes();
    const config = await t.loggedIn();
    const session = join(config, 'storefront-themes/session.json');
    const before = await credentialsOf(config);

    const again = await t.cli(['setup'], { config, input: '\n\n' });
    expect(again.code).toBe(0);
    expect(again.stderr).toBe(
      `Enter your application's client id [${DEMO.clientId}]: \n${ASK_SECRET.slice(0, -1)} [keep the stored one]: \n`,
    );
    expect(await credentialsOf(config)).toEqual(before);
    expect(await exists(session)).toBe(true);
  });

  it('another app replaces the stored one and forgets the session, which belonged to the old one', async () => {
    const t = themes();
    const config = await t.loggedIn();
    const session = join(config, 'storefront-themes/session.json');
    expect(await exists(session)).toBe(true);

    const other = await t.cli(['setup', '--no-verify'], { config, input: 'another-app\nanother secret\n' });
    expect(other.code).toBe(0);
    // A new client id: the stored secret is not offered for it.
    expect(other.stderr).toBe(`Enter your application's client id [${DEMO.clientId}]: \n${ASK_SECRET} \n`);
    expect(await credentialsOf(config)).toEqual({
      url: t.server.origin,
      clientId: 'another-app',
      clientSecret: 'another secret',
    });
    expect(await exists(session)).toBe(false);
    const status = await t.cli(['status', join(config, 'nowhere')], { config });
    expect(status.stderr).toMatch(/^storefront-themes status: not logged in: run storefront-themes login/);
  });

  it('with no answer to read (standard input closed), names the flag to pass and keeps nothing', async () => {
    const t = themes();
    const config = await t.tempDir();
    const noId = await t.cli(['setup', '--url', t.server.origin], { config, input: '' });
    expect(noId.code).toBe(2);
    expect(noId.stdout).toBe('');
    expect(noId.stderr).toBe(
      `${ASK_ID} \nstorefront-themes setup: no answer to "${ASK_ID}" (standard input is closed): pass --client-id\n`,
    );
    const noSecret = await t.cli(['setup', '--url', t.server.origin, '--client-id', 'x', '--json'], {
      config,
      input: '',
    });
    expect(noSecret.code).toBe(2);
    expect(JSON.parse(noSecret.stdout)).toEqual({
      ok: false,
      error: {
        message: `no answer to "${ASK_SECRET}" (standard input is closed): pass --client-secret`,
        exitCode: 2,
      },
    });
    expect(await exists(join(config, 'storefront-themes/credentials.json'))).toBe(false);
  });

  it('refuses a --url that is not an http(s) URL before asking anything', async () => {
    const t = themes();
    const config = await t.tempDir();
    const setup = await t.cli(['setup', '--url', 'localhost:4000'], { config, input: 'id\nsecret\n' });
    expect(setup.code).toBe(2);
    expect(setup.stderr).toBe(
      'storefront-themes setup: "localhost:4000" is not an http(s) URL (e.g. http://localhost:4000)\n',
    );
    expect(await exists(join(config, 'storefront-themes'))).toBe(false);
  });

  it('refuses a --url with a path (the API base URL the server prints), naming the origin to give', async () => {
    const t = themes();
    const config = await t.tempDir();
    const url = `${t.server.origin}/v1`;
    const setup = await t.cli(['setup', '--url', url, '--client-id', DEMO.clientId, '--client-secret', 'x'], {
      config,
    });
    expect(setup.code).toBe(2);
    expect(setup.stderr).toBe(
      `storefront-themes setup: "${url}" is not the server's origin: give ${t.server.origin} (the API is at ${url})\n`,
    );
    expect(await exists(join(config, 'storefront-themes'))).toBe(false);
  });

  const noTerminal = skipWithout(TERMINAL, 'The setup test in a terminal');
  it.skipIf(noTerminal)('in a terminal: shows the client id as it is typed, never the secret', async () => {
    const t = themes();
    const config = await t.tempDir();
    const setup = startInTerminal(['setup', '--url', t.server.origin], { config });
    await setup.waitFor(/client id: $/);
    setup.type(`${DEMO.clientId}\r`);
    await setup.waitFor(/client secret: $/);
    setup.type(`${DEMO.clientSecret}\r`);
    expect(await setup.exited).toBe(0);
    const screen = setup.text();
    // The id as typed (a test types faster than a person: the terminal may echo it once more before the prompt
    // takes the keyboard), then the secret's prompt with nothing after it.
    expect(screen).toMatch(
      new RegExp(`^${ASK_ID} (${DEMO.clientId}\n)+${ASK_SECRET} \nStored the app ${DEMO.clientId} for `),
    );
    expect(screen).not.toContain(DEMO.clientSecret);
    expect(await credentialsOf(config)).toEqual({
      url: t.server.origin,
      clientId: DEMO.clientId,
      clientSecret: DEMO.clientSecret,
    });
    expect(await modeOf(join(config, 'storefront-themes/credentials.json'))).toBe(0o600);
  });
});
