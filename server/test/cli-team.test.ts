/**
 * `storefront-server apps …` and `users …` against a server started with `--control` (the built bin, real HTTP on
 * a free port): two developers register an app and a user each, and each signs in with their own credentials and
 * redirect URI (code + PKCE, client credentials, password), never with the other's; removal revokes.
 */
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useCli } from './helpers/cli-process.js';
import { useTempDir } from './helpers/temp-dir.js';

/** Each test starts a server and a dozen commands, a node process each: seconds apiece on a busy machine. */
const MANY_PROCESSES = { timeout: 90_000 };

import { tokenRequest } from './helpers/test-server.js';
import { approveAt } from './oauth/fixture.js';

const tempDir = useTempDir();
const cli = useCli();

async function startServer() {
  const server = cli(['--port', '0', '--data', await tempDir(), '--products', '6', '--quiet', '--control']);
  const origin = (await server.waitFor(/listening on (http:\/\/\S+)/))[1]!;
  const token = (await server.waitFor(/Control token: +(\S+)/))[1]!;
  await server.waitFor(/curl -s -H .*\n/);
  return { origin, token };
}

/** Runs `storefront-server ARGS…` to its end. */
async function run(args: string[], env: Record<string, string> = {}) {
  const command = cli(args, { env });
  const code = await command.exited;
  return { code, stdout: command.stdout(), stderr: command.stderr() };
}

interface Developer {
  login: string;
  password: string;
  shop: string;
  redirectUri: string;
  app?: { client_id: string; client_secret: string; id: string };
}

/** Signs in through the authorize page with code + PKCE, as `who`, for `app`; the token endpoint's answer. */
async function codeFlow(origin: string, who: Developer) {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorize = `${origin}/oauth/authorize?${new URLSearchParams({
    response_type: 'code',
    client_id: who.app!.client_id,
    redirect_uri: who.redirectUri,
    scope: 'admin',
    state: 'xyz',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  })}`;
  const back = new URL(await approveAt(authorize, who.login, who.password));
  expect(`${back.origin}${back.pathname}`).toBe(who.redirectUri);
  expect(back.searchParams.get('state')).toBe('xyz');
  return tokenRequest(
    origin,
    {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: who.redirectUri,
      code_verifier: verifier,
    },
    { clientId: who.app!.client_id, clientSecret: who.app!.client_secret },
  );
}

async function shopsOf(origin: string, accessToken: string): Promise<number | string[]> {
  const root = await fetch(`${origin}/v1/`, { headers: { authorization: `Bearer ${accessToken}` } });
  if (root.status !== 200) return root.status;
  const body = (await root.json()) as { _embedded: { shops: { subdomain: string }[] } };
  return body._embedded.shops.map((shop) => shop.subdomain);
}

describe('storefront-server apps and users', () => {
  it(
    'gives two developers an app and a login each, which sign in with their own credentials only',
    MANY_PROCESSES,
    async () => {
      const { origin, token } = await startServer();
      const env = { STOREFRONT_CONTROL_TOKEN: token, STOREFRONT_CONTROL_URL: origin };
      const team: Developer[] = [
        { login: 'alice', password: 'alice-secret-1', shop: 'northwind', redirectUri: 'https://alice.test/callback' },
        { login: 'bob', password: 'bob-secret-22', shop: 'copper-kettle', redirectUri: 'http://127.0.0.1:7002/cb' },
      ];
      for (const who of team) {
        // Alice's password on the command line, Bob's from the environment (out of the shell's history).
        const user =
          who.login === 'alice'
            ? await run(['users', 'add', '--login', who.login, '--password', who.password, '--shop', who.shop], env)
            : await run(['users', 'add', '--login', who.login, '--shop', who.shop], {
                ...env,
                STOREFRONT_USER_PASSWORD: who.password,
              });
        expect(user.stderr).toBe('');
        expect(user.code).toBe(0);
        expect(user.stdout).toContain(`User "${who.login}" added`);
        const app = await run(
          [
            'apps',
            'add',
            '--name',
            `${who.login}'s app`,
            '--redirect-uri',
            who.redirectUri,
            '--owner',
            who.login,
            '--json',
          ],
          env,
        );
        expect(app.code).toBe(0);
        who.app = JSON.parse(app.stdout);
      }
      const [alice, bob] = team as [Developer, Developer];
      expect(alice.app!.client_id).not.toBe(bob.app!.client_id);

      const tokens = new Map<string, string>();
      for (const [who, other] of [
        [alice, bob],
        [bob, alice],
      ] as const) {
        const code = await codeFlow(origin, who);
        expect(code.status).toBe(200);
        const { access_token } = (await code.json()) as { access_token: string };
        expect(await shopsOf(origin, access_token)).toEqual([who.shop]);
        tokens.set(who.login, access_token);

        const client = { clientId: who.app!.client_id, clientSecret: who.app!.client_secret };
        const credentials = await tokenRequest(origin, { grant_type: 'client_credentials', scope: 'admin' }, client);
        expect(credentials.status).toBe(200);
        const password = await tokenRequest(
          origin,
          { grant_type: 'password', username: who.login, password: who.password, scope: 'admin' },
          client,
        );
        expect(password.status).toBe(200);
        // Not with the other's secret, nor to the other's redirect URI.
        const mixed = { clientId: who.app!.client_id, clientSecret: other.app!.client_secret };
        expect((await tokenRequest(origin, { grant_type: 'client_credentials' }, mixed)).status).toBe(401);
        const elsewhere = await fetch(
          `${origin}/oauth/authorize?${new URLSearchParams({
            response_type: 'code',
            client_id: who.app!.client_id,
            redirect_uri: other.redirectUri,
            code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
            code_challenge_method: 'S256',
          })}`,
          { redirect: 'manual' },
        );
        expect(elsewhere.status).toBe(400);
        expect(elsewhere.headers.get('location')).toBeNull();
      }

      const listed = await run(['apps', 'list'], env);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain(alice.app!.client_id);
      expect(listed.stdout).not.toContain(alice.app!.client_secret);
      const users = await run(['users', 'list', '--json'], env);
      expect(
        (JSON.parse(users.stdout) as { login: string; shops: string[] }[]).find((u) => u.login === 'bob')!.shops,
      ).toEqual(['copper-kettle']);

      // Removing Alice's app revokes her tokens; Bob's still work.
      const removed = await run(['apps', 'remove', alice.app!.client_id], env);
      expect(removed.code).toBe(0);
      expect(await shopsOf(origin, tokens.get('alice')!)).toBe(401);
      expect(await shopsOf(origin, tokens.get('bob')!)).toEqual(['copper-kettle']);
      const again = await run(['apps', 'remove', alice.app!.id], env);
      expect([again.code, again.stderr]).toEqual([1, expect.stringContaining(`No app ${alice.app!.id}`)]);
    },
  );

  it('says what is wrong: bad flags exit 2, an unreachable or refusing server 1', MANY_PROCESSES, async () => {
    const { origin, token } = await startServer();
    const env = { STOREFRONT_CONTROL_TOKEN: token, STOREFRONT_CONTROL_URL: origin };
    const cases: [string[], Record<string, string>, number, RegExp][] = [
      [['apps'], env, 2, /give one of add, list, remove/],
      [['apps', 'rename'], env, 2, /got "rename"/],
      [['apps', 'add'], env, 2, /apps add needs --name/],
      [['apps', 'list', '--login', 'x'], env, 2, /apps list takes no --login/],
      [['users', 'remove'], env, 2, /users remove takes one id/],
      [['users', 'add', '--login', 'eve'], env, 2, /needs --password/],
      [['apps', 'list', '--url', 'ftp://x'], env, 2, /--url must be/],
      [['apps', 'list'], { STOREFRONT_CONTROL_URL: origin }, 2, /control token is needed/],
      [['apps', 'add', '--name', 'x', '--redirect-uri', '/relative'], env, 2, /absolute http\(s\) URI/],
      [['users', 'add', '--login', 'eve', '--password', 'short'], env, 2, /password/],
      [
        ['apps', 'list'],
        { ...env, STOREFRONT_CONTROL_TOKEN: 'wrong-token-0123456789' },
        1,
        /refused the control token/,
      ],
      [
        ['apps', 'list', '--url', 'http://127.0.0.1:9'],
        env,
        1,
        /no server answers at http:\/\/127\.0\.0\.1:9\/_sandbox/,
      ],
      [['users', 'add', '--login', 'demo', '--password', 'long enough'], env, 1, /exists already/],
      [['users', 'remove', 'nobody'], env, 1, /No user nobody/],
    ];
    for (const [args, given, code, message] of cases) {
      const result = await run(args, given);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(code);
      expect(result.stderr).toMatch(message);
    }
    const help = await run(['users', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('storefront-server users add --login LOGIN [--password PASSWORD]');
  });

  it('tells a server without --control from a missing app', async () => {
    const server = cli(['--port', '0', '--data', await tempDir(), '--products', '2', '--quiet']);
    const origin = (await server.waitFor(/listening on (http:\/\/\S+)/))[1]!;
    const result = await run(['apps', 'list', '--url', origin, '--control-token', 'some-token-0123456789']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('has no control API: restart that server with --control');
  });
});
