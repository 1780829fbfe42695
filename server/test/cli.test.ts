import { execFile } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useCli } from './helpers/cli-process.js';
import { storedRows } from './helpers/data-files.js';
import { useTempDir } from './helpers/temp-dir.js';
import { tokenRequest } from './helpers/test-server.js';

const tempDir = useTempDir();
const cli = useCli();

/** Starts the CLI and waits until it has printed its banner. */
async function started(args: string[], options: Parameters<typeof cli>[1] = {}) {
  const process = cli(args, options);
  await process.waitFor(/curl -s -H .*\n/);
  const origin = process.stdout().match(/listening on (http:\/\/\S+)/)![1]!;
  return { process, origin };
}

/** A client credentials request with the demo app's id and secret as the CLI printed them. */
function tokenFor(origin: string, output: string): Promise<Response> {
  const field = (name: string) => output.match(new RegExp(`${name}:\\s+(\\S+)`))![1]!;
  return tokenRequest(
    origin,
    { grant_type: 'client_credentials' },
    { clientId: field('Client id'), clientSecret: field('Client secret') },
  );
}

describe('storefront-server', () => {
  it('prints its options with --help', async () => {
    const help = cli(['--help']);
    expect(await help.exited).toBe(0);
    for (const flag of ['--port', '--host', '--data', '--reset', '--products', '--public-url', '--token-ttl']) {
      expect(help.stdout()).toContain(flag);
    }
    expect(help.stdout()).toContain('STOREFRONT_');
    expect(help.stdout()).toContain('--demo-password');
  });

  it.each([
    [['--nope'], {}, /'--nope'/],
    [['--port', 'abc'], {}, /--port must be a whole number/],
    [['--port', '70000'], {}, /--port must be/],
    [['--products', '-5'], {}, /--products/],
    [['--token-ttl', '0'], {}, /--token-ttl/],
    [['--public-url', 'ftp://x'], {}, /--public-url must be an http\(s\) origin/],
    [['--public-url', 'not a url'], {}, /--public-url must be an absolute URL/],
    [['stray'], {}, /positional/],
    [[], { STOREFRONT_PORT: 'abc' }, /--port must be/],
    [[], { STOREFRONT_QUIET: 'maybe' }, /STOREFRONT_QUIET must be true or false/],
    // Contradictions: both named, neither dropped (the database would otherwise be opened instead of the files).
    [['--data', 'x', '--store', 'postgres://u@127.0.0.1:1/db'], {}, /--data and --store contradict/],
    [['--data', 'x'], { STOREFRONT_DATABASE_URL: 'postgres://u@127.0.0.1:1/db' }, /--data and STOREFRONT_DATABASE_URL/],
    [
      [],
      { STOREFRONT_DATA: 'x', STOREFRONT_STORE: 'postgres://u@127.0.0.1:1/db' },
      /STOREFRONT_DATA and STOREFRONT_STORE/,
    ],
  ] as const)('exits 2 with a clear message for %j %j', async (args, env, message) => {
    const dir = await tempDir();
    const bad = cli([...args], { cwd: dir, env: { ...env } });
    expect(await bad.exited).toBe(2);
    expect(bad.stderr()).toMatch(message);
    expect(bad.stderr()).toContain('--help');
  });

  it('creates and seeds the default data file, prints working curl lines, logs requests, and stops on SIGINT', async () => {
    const dir = await tempDir();
    const { process, origin } = await started(['--port', '0', '--products', '12'], { cwd: dir });
    expect(process.stdout()).toMatch(/Base URL:\s+http:\/\/127\.0\.0\.1:\d+\/v1/);
    expect(process.stdout()).toMatch(/Tokens expire:\s+after 1 hour \(3600 s; --token-ttl to change\)/);
    expect(process.stdout()).toContain(join(dir, 'storefront-data', 'db.json'));
    const lines = process
      .stdout()
      .split('\n')
      .filter((line) => line.trim().startsWith('TOKEN=') || line.includes('$TOKEN'));
    expect(lines).toHaveLength(2);
    const { stdout } = await promisify(execFile)('sh', ['-c', lines.join('\n')]);
    expect(JSON.parse(stdout)).toMatchObject({ _class: ['root'], scopes: 'admin' });
    await process.waitFor(/GET \/v1\/ 200/);
    process.child.kill('SIGINT');
    expect(await process.exited).toBe(0);
    expect(await storedRows(join(dir, 'storefront-data', 'db.json'), 'products')).toHaveLength(12);
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('reads every setting from STOREFRONT_ variables, flags winning over them', async () => {
    const dir = await tempDir();
    const data = join(dir, 'custom.json');
    const { process, origin } = await started(['--products', '5'], {
      env: {
        STOREFRONT_PORT: '0',
        STOREFRONT_DATA: data,
        STOREFRONT_PRODUCTS: '9',
        STOREFRONT_TOKEN_TTL: '120',
        STOREFRONT_DEMO_CLIENT_ID: 'env-app',
        STOREFRONT_DEMO_CLIENT_SECRET: 'env-secret',
        STOREFRONT_DEMO_LOGIN: 'env-user',
        STOREFRONT_DEMO_PASSWORD: 'env password',
        STOREFRONT_QUIET: 'true',
        STOREFRONT_PUBLIC_URL: 'http://public.example:8080',
      },
    });
    const output = process.stdout();
    expect(output).toMatch(/Client id:\s+env-app/);
    expect(output).toMatch(/Login:\s+env-user/);
    expect(output).toMatch(/Password:\s+env password/);
    expect(output).toMatch(/Tokens expire:\s+after 2 minutes \(120 s;/);
    expect(output).toContain('Base URL:      http://public.example:8080/v1');
    expect(output).toContain('(seeded, 5 products)');
    const response = await fetch(`${origin}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'password',
        username: 'env-user',
        password: 'env password',
        client_id: 'env-app',
        client_secret: 'env-secret',
      }),
    });
    expect(response.status).toBe(200);
    expect((await response.json()).expires_in).toBe(120);
    process.child.kill('SIGTERM');
    expect(await process.exited).toBe(0);
    // --quiet: the banner only, no request log.
    expect(process.stdout()).not.toContain('POST /oauth/token');
    expect(await storedRows(data, 'products')).toHaveLength(5);
  });

  it("registers dev servers' redirect URIs for the demo app with --redirect-uri or STOREFRONT_REDIRECT_URIS", {
    timeout: 90_000,
  }, async () => {
    const dir = await tempDir();
    // The authorize page of the demo app's code flow (PKCE, as a public client must) for `redirectUri`.
    const page = (origin: string, output: string, redirectUri: string) =>
      fetch(
        `${origin}/oauth/authorize?${new URLSearchParams({
          response_type: 'code',
          client_id: output.match(/Client id:\s+(\S+)/)![1]!,
          redirect_uri: redirectUri,
          code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
          code_challenge_method: 'S256',
        })}`,
      );
    const flags = await started([
      '--port',
      '0',
      '--data',
      join(dir, 'a.json'),
      '--products',
      '3',
      '--quiet',
      '--redirect-uri',
      'http://192.168.1.20:5173/callback',
      '--redirect-uri',
      'http://10.0.0.2:3000/cb',
    ]);
    for (const uri of [
      'http://192.168.1.20:5173/callback',
      'http://10.0.0.2:3000/cb',
      'http://localhost:5173/callback',
    ]) {
      expect((await page(flags.origin, flags.process.stdout(), uri)).status).toBe(200);
    }
    const refused = await page(flags.origin, flags.process.stdout(), 'http://10.0.0.3:3000/cb');
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('--redirect-uri http://10.0.0.3:3000/cb');
    flags.process.child.kill('SIGTERM');
    expect(await flags.process.exited).toBe(0);

    const env = await started(['--port', '0', '--data', join(dir, 'b.json'), '--products', '3', '--quiet'], {
      env: { STOREFRONT_REDIRECT_URIS: 'http://10.0.0.2:3000/cb, http://10.0.0.3:3000/cb' },
    });
    expect((await page(env.origin, env.process.stdout(), 'http://10.0.0.3:3000/cb')).status).toBe(200);
    env.process.child.kill('SIGTERM');
    expect(await env.process.exited).toBe(0);

    const bad = cli(['--port', '0', '--data', join(dir, 'c.json'), '--redirect-uri', 'not a uri']);
    expect(await bad.exited).toBe(2);
    expect(bad.stderr()).toContain('--redirect-uri must be an absolute http(s) URI');
  });

  it('keeps existing data on restart and re-seeds it with --reset', async () => {
    const dir = await tempDir();
    const data = join(dir, 'db.json');
    const first = await started(['--port', '0', '--data', data, '--products', '4', '--quiet']);
    first.process.child.kill('SIGTERM');
    expect(await first.process.exited).toBe(0);

    const again = await started(['--port', '0', '--data', data, '--products', '8', '--quiet']);
    expect(again.process.stdout()).toContain('(existing data)');
    expect(again.process.stdout()).toMatch(/Password:\s+\(set when the data was created/);
    expect((await tokenFor(again.origin, again.process.stdout())).status).toBe(200);
    again.process.child.kill('SIGTERM');
    expect(await again.process.exited).toBe(0);
    expect(await storedRows(data, 'products')).toHaveLength(4);
    expect(await storedRows(data, 'tokens')).toHaveLength(1);

    const reset = await started(['--port', '0', '--data', data, '--products', '8', '--reset', '--quiet']);
    expect(reset.process.stdout()).toContain('(seeded, 8 products)');
    reset.process.child.kill('SIGTERM');
    expect(await reset.process.exited).toBe(0);
    expect(await storedRows(data, 'tokens')).toEqual([]);
  });

  it('finishes the writes in flight when stopped, so that every issued token is on disk', async () => {
    const dir = await tempDir();
    const data = join(dir, 'db.json');
    const { process, origin } = await started(['--port', '0', '--data', data, '--products', '3', '--quiet']);
    const output = process.stdout();
    const requests = Array.from({ length: 30 }, () =>
      tokenFor(origin, output).then(
        (r) => r.status,
        () => 'failed',
      ),
    );
    await Promise.race(requests);
    process.child.kill('SIGTERM');
    const statuses = await Promise.all(requests);
    expect(await process.exited).toBe(0);
    const issued = statuses.filter((status) => status === 200).length;
    expect(issued).toBeGreaterThan(0);
    expect((await storedRows(data, 'tokens')).length).toBeGreaterThanOrEqual(issued);
  });

  it('exits 1 with a clear message on a corrupt data file, leaving it untouched', async () => {
    const dir = await tempDir();
    const data = join(dir, 'db.json');
    await writeFile(data, '{ broken');
    const bad = cli(['--port', '0', '--data', data]);
    expect(await bad.exited).toBe(1);
    expect(bad.stderr()).toContain(`${data}: not valid JSON`);
    expect(await readFile(data, 'utf8')).toBe('{ broken');
  });

  it('exits 1 when the port is taken, suggesting --port, and leaves no data behind', async () => {
    const blocker = createNetServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const port = (blocker.address() as { port: number }).port;
      const dir = await tempDir();
      const taken = cli(['--port', String(port)], { cwd: dir });
      expect(await taken.exited).toBe(1);
      // Data seeded then would hold a password that was never printed.
      expect(await readdir(dir)).toEqual([]);
      expect(taken.stderr()).toContain('EADDRINUSE');
      expect(taken.stderr()).toContain(`port ${port} is in use`);
      expect(taken.stderr()).toMatch(/--port \d+/);
      expect(taken.stderr()).toContain('STOREFRONT_PORT');
    } finally {
      blocker.close();
    }
  });
  it('refuses to start a second server on the same data, naming the lock, the PID that holds it and the way out', async () => {
    const dir = await tempDir();
    const data = join(dir, 'db.json');
    const first = await started(['--port', '0', '--data', data, '--products', '3', '--quiet']);
    const pid = first.process.child.pid!;
    const second = cli(['--port', '0', '--data', data, '--quiet']);
    expect(await second.exited).toBe(1);
    expect(second.stdout()).toBe('');
    const message = second.stderr();
    expect(message).toContain(join(dir, 'db.lock'));
    expect(message).toContain(`process ${pid} since`);
    expect(message).toContain(`To stop that server: kill ${pid};`);
    expect(message).not.toContain('(PID');
    expect(message).toContain('--data');
    // The first one still owns the data, and writes to it.
    expect((await tokenFor(first.origin, first.process.stdout())).status).toBe(200);
    first.process.child.kill('SIGTERM');
    expect(await first.process.exited).toBe(0);

    const after = await started(['--port', '0', '--data', data, '--quiet']);
    expect(after.process.stdout()).toContain('(existing data)');
    expect((await tokenFor(after.origin, after.process.stdout())).status).toBe(200);
  });

  it('refuses data locked by a process on another host, telling to stop it there rather than to kill a PID here', async () => {
    const dir = await tempDir();
    const lock = { pid: process.pid, host: 'build-agent-7', since: '2026-11-23T08:00:00.000Z' };
    await writeFile(join(dir, 'db.lock'), JSON.stringify(lock));
    const second = cli(['--port', '0', '--data', join(dir, 'db.json'), '--quiet']);
    expect(await second.exited).toBe(1);
    const message = second.stderr();
    expect(message).toContain(`process ${process.pid} on build-agent-7 since ${lock.since}`);
    expect(message).toContain('To stop that server: on build-agent-7;');
    expect(message).not.toContain('kill');
  });

  it('keeps every acknowledged write of a burst cut short by SIGKILL; the restart takes over the stale lock', async () => {
    const dir = await tempDir();
    const data = join(dir, 'db.json');
    const args = ['--port', '0', '--data', data, '--products', '3', '--quiet'];
    const first = await started(args);
    const output = first.process.stdout();
    const acknowledged: string[] = [];
    let killed = false;
    const client = async () => {
      for (let i = 0; i < 200 && !killed; i++) {
        const body = await tokenFor(first.origin, output)
          .then((response) => (response.status === 200 ? response.json() : undefined))
          .catch(() => undefined);
        if (body) acknowledged.push(body.access_token);
        if (acknowledged.length >= 40 && !killed) {
          killed = true;
          first.process.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 6 }, client));
    expect(await first.process.exited).toBe(null);
    expect(acknowledged.length).toBeGreaterThanOrEqual(40);

    const again = await started(args);
    expect(again.process.stdout()).toContain('(existing data)');
    const statuses = await Promise.all(
      acknowledged.map(
        async (token) => (await fetch(`${again.origin}/v1/`, { headers: { authorization: `Bearer ${token}` } })).status,
      ),
    );
    expect(statuses).toEqual(acknowledged.map(() => 200));
  });
});
