/**
 * The control API of `storefront-server --control --workers 2` on PostgreSQL: a snapshot taken through one
 * worker is restored through the other, and every worker sees the restore at its next request. Requests go to
 * whichever worker the kernel picks, so each step is checked through both: two separate servers on one schema,
 * started with the same control token, play the two workers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FreshSchema, freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { type CliProcess, startCli } from '../helpers/cli-process.js';
import { tokenRequest } from '../helpers/test-server.js';

const skip = skipWithout(POSTGRES, 'The control API on PostgreSQL');
const DEMO = { clientId: 'control-app', clientSecret: 'control-secret-0123456789' };
const TOKEN = 'control-token-0123456789';

describe('the control API on PostgreSQL', () => {
  if (skip) {
    it.skip('needs PostgreSQL');
    return;
  }
  let schema: FreshSchema;
  const clis: CliProcess[] = [];
  const origins: string[] = [];

  beforeAll(async () => {
    schema = await freshSchema();
    for (let i = 0; i < 2; i++) {
      const cli = startCli(
        [
          ...['--store', schema.url, '--port', '0', '--quiet', '--products', '3', '--control'],
          ...['--demo-client-id', DEMO.clientId, '--demo-client-secret', DEMO.clientSecret],
        ],
        { env: { STOREFRONT_CONTROL_TOKEN: TOKEN } },
      );
      clis.push(cli);
      origins.push((await cli.waitFor(/listening on (http:\/\/\S+)/))[1]!);
    }
  }, 60_000);

  afterAll(async () => {
    for (const cli of clis) if (cli.child.exitCode === null) cli.child.kill('SIGTERM');
    await Promise.all(clis.map((cli) => cli.exited));
    await schema?.drop();
  });

  const control = (origin: string, method: string, path: string) =>
    fetch(`${origin}/_sandbox${path}`, { method, headers: { authorization: `Bearer ${TOKEN}` } });

  it('restores through one process a snapshot taken through the other, and both see it', async () => {
    const [a, b] = origins as [string, string];
    const response = await tokenRequest(a, { grant_type: 'client_credentials', scope: 'admin' }, DEMO);
    const bearer = ((await response.json()) as { access_token: string }).access_token;
    const endpoints = async (origin: string) => {
      const list = await fetch(`${origin}/v1/webhook_endpoints.json`, {
        headers: { authorization: `Bearer ${bearer}` },
      });
      expect(list.status).toBe(200);
      return JSON.stringify(await list.json()).match(/"url":"http:\/\/hooks\.test/g)?.length ?? 0;
    };
    expect((await control(a, 'PUT', '/snapshots/before')).status).toBe(201);
    const created = await fetch(`${b}/v1/webhook_endpoints.json`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'http://hooks.test/one' }),
    });
    expect(created.status).toBe(201);
    expect(await endpoints(a)).toBe(1);
    const listed = (await (await control(b, 'GET', '/snapshots')).json()) as { snapshots: { name: string }[] };
    expect(listed.snapshots.map((s) => s.name)).toEqual(['before']);

    expect((await control(b, 'POST', '/snapshots/before/restore')).status).toBe(204);
    expect(await endpoints(a)).toBe(0);
    expect(await endpoints(b)).toBe(0);
    expect((await control(a, 'DELETE', '/snapshots/before')).status).toBe(204);
    expect((await control(b, 'POST', '/snapshots/before/restore')).status).toBe(404);
  });

  it('answers 401 without the token', async () => {
    expect((await fetch(`${origins[0]}/_sandbox`)).status).toBe(401);
  });

  it('with --workers 2, every worker takes the token the banner prints', async () => {
    const fleet = startCli([
      ...['--store', schema.url, '--port', '0', '--workers', '2', '--control'],
      ...['--demo-client-id', DEMO.clientId, '--demo-client-secret', DEMO.clientSecret],
    ]);
    clis.push(fleet);
    const url = (await fleet.waitFor(/Control API: +(\S+)/))[1]!;
    const token = (await fleet.waitFor(/Control token: +(\S+)/))[1]!;
    await fleet.waitFor(/2 workers listening/);
    // New connections each time, spread by the kernel over both workers: each must know the token.
    const statuses = await Promise.all(
      Array.from({ length: 12 }, () =>
        fetch(`${url}/snapshots`, { headers: { authorization: `Bearer ${token}`, connection: 'close' } }).then(
          (response) => response.status,
        ),
      ),
    );
    expect(new Set(statuses)).toEqual(new Set([200]));

    // A rule of `times: 1` added through whichever worker hits one request of the fleet's (see sandbox-shared).
    const added = await fetch(`${url}/faults`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', connection: 'close' },
      body: JSON.stringify({ kind: 'status', status: 503, path: '/v1/nowhere', times: 1 }),
    });
    expect(added.status).toBe(201);
    const origin = new URL(url).origin;
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        fetch(`${origin}/v1/nowhere`, { headers: { connection: 'close' } }).then((response) => response.status),
      ),
    );
    expect(answers.filter((status) => status === 503)).toHaveLength(1);
  }, 60_000);

  it('a server joining the fleet from another host (--join) keeps its rules, clock and rate limit; one without starts anew', async () => {
    const [a] = origins as [string];
    const send = (origin: string, method: string, path: string, body: unknown) =>
      fetch(`${origin}/_sandbox${path}`, {
        method,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await control(a, 'DELETE', '/faults')).status).toBe(204);
    expect((await send(a, 'POST', '/faults', { kind: 'status', status: 503, path: '/v1/joined' })).status).toBe(201);
    expect((await send(a, 'POST', '/clock/advance', { ms: 3_600_000 })).status).toBe(200);
    expect((await send(a, 'PUT', '/rate-limit', { limit: '40/60s' })).status).toBe(200);
    const state = async () => {
      const faults = (await (await control(a, 'GET', '/faults')).json()) as { faults: unknown[] };
      const clock = (await (await control(a, 'GET', '/clock')).json()) as { epoch_ms: number };
      const limit = (await (await control(a, 'GET', '/rate-limit')).json()) as { limit: string | null };
      return { faults: faults.faults.length, ahead: clock.epoch_ms - Date.now() > 3_000_000, limit: limit.limit };
    };
    expect(await state()).toEqual({ faults: 1, ahead: true, limit: '40/60s' });
    const start = async (extra: string[]) => {
      const cli = startCli(
        [
          ...['--store', schema.url, '--port', '0', '--control', ...extra],
          ...['--demo-client-id', DEMO.clientId, '--demo-client-secret', DEMO.clientSecret],
        ],
        { env: { STOREFRONT_CONTROL_TOKEN: TOKEN } },
      );
      clis.push(cli);
      return (await cli.waitFor(/Sandbox state: +(.+)/))[1]!;
    };
    expect(await start(['--join'])).toBe('the fleet’s, kept (--join)');
    expect(await state()).toEqual({ faults: 1, ahead: true, limit: '40/60s' });
    expect(await start([])).toMatch(/^started anew/);
    expect(await state()).toEqual({ faults: 0, ahead: false, limit: null });
  }, 60_000);
});
