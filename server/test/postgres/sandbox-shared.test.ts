/**
 * The sandbox's fault rules, clock and request journal on PostgreSQL are the fleet's, not a process's: two servers
 * with the control API on one schema play two workers of `--workers 2`, and each step is set through one and
 * checked through the other (issue 49). Connected directly, and through a real PgBouncer in each pooling mode.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGBOUNCER, type Pgbouncer, ROUTES, startPgbouncer } from '../../../test/support/pgbouncer-server.js';
import { type FreshSchema, freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { createServer, type StorefrontServer } from '../../src/create-server.js';
import { seededRandom } from '../../src/sandbox/faults.js';
import type { JournalEntry } from '../../src/sandbox/journal.js';
import { tokenRequest } from '../helpers/test-server.js';

const skip = skipWithout(POSTGRES, 'The shared sandbox on PostgreSQL');
const skipPooled = skip || skipWithout(PGBOUNCER, 'The shared sandbox through PgBouncer');
const DEMO = { clientId: 'shared-sandbox-app', clientSecret: 'shared-sandbox-secret-0123456789' };
const TOKEN = 'shared-sandbox-token-0123456789';
const HOUR = 3_600_000;

describe.each(ROUTES)('the sandbox of two processes on one PostgreSQL schema, $route', ({ mode }) => {
  if (mode ? skipPooled : skip) {
    it.skip('needs PostgreSQL (and PgBouncer)');
    return;
  }
  let schema: FreshSchema;
  let bouncer: Pgbouncer | undefined;
  let url: string;
  const servers: StorefrontServer[] = [];

  const start = () =>
    createServer({
      port: 0,
      store: url,
      products: 3,
      demo: DEMO,
      control: { token: TOKEN },
      explorer: false,
    });

  beforeAll(async () => {
    schema = await freshSchema();
    bouncer = mode && (await startPgbouncer(mode));
    url = bouncer ? bouncer.through(schema.url) : schema.url;
    // One after the other: the second must not clear what the first set (nothing yet), as a fleet's later worker.
    servers.push(await start());
    servers.push(await start());
  }, 60_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await bouncer?.close();
    await schema?.drop();
  });

  /** The origin of server `i % 2`: A and B. */
  const at = (i: number) => servers[i % 2]!.origin;
  const control = async (i: number, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${at(i)}/_sandbox${path}`, {
      method,
      headers: {
        authorization: `Bearer ${TOKEN}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(response.status, `${method} /_sandbox${path}`).toBeLessThan(300);
    return response.status === 204 ? undefined : ((await response.json()) as Record<string, unknown>);
  };
  const faults = async (i: number) => (await control(i, 'GET', '/faults'))!.faults as { hits: number; times: number }[];
  const epochMs = async (i: number) => (await control(i, 'GET', '/clock'))!.epoch_ms as number;

  it('hits one request of both for a rule of `times: 1` added through one', async () => {
    await control(0, 'DELETE', '/faults');
    await control(0, 'POST', '/faults', { kind: 'status', status: 503, path: '/v1/nowhere', times: 1 });
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${at(i)}/v1/nowhere`, { headers: { connection: 'close' } }).then((response) => response.status),
      ),
    );
    expect(statuses.filter((status) => status === 503)).toHaveLength(1);
    expect(statuses.filter((status) => status === 404)).toHaveLength(19);
    expect(await faults(1)).toEqual([expect.objectContaining({ hits: 1, times: 0 })]);
    await control(1, 'DELETE', '/faults');
    expect(await faults(0)).toEqual([]);
  });

  it('hits the same requests of both for one seed: 30 requests alternating, 10 runs', async () => {
    const random = seededRandom(2049);
    const expected = Array.from({ length: 30 }, () => random() < 0.4);
    const runs: boolean[][] = [];
    for (let run = 0; run < 10; run++) {
      await control(run, 'DELETE', '/faults');
      await control(run + 1, 'POST', '/faults', {
        kind: 'status',
        status: 502,
        path: '/v1/nowhere',
        probability: 0.4,
        seed: 2049,
      });
      const hits: boolean[] = [];
      for (let i = 0; i < 30; i++) hits.push((await fetch(`${at(i)}/v1/nowhere`)).status === 502);
      runs.push(hits);
    }
    // The sequence a single process's generator gives for that seed.
    for (const hits of runs) expect(hits).toEqual(expected);
    expect(expected.filter(Boolean).length).toBeGreaterThan(0);
    expect(expected.filter(Boolean).length).toBeLessThan(30);
    await control(0, 'DELETE', '/faults');
  }, 60_000);

  it("hits by a rule's seed alone through both, whatever an earlier rule hit first: 30 requests alternating, 3 runs", async () => {
    const random = seededRandom(2049);
    const wouldHit = Array.from({ length: 30 }, () => random() < 0.4);
    for (const earlierSeed of [1, 2, 3]) {
      await control(earlierSeed, 'DELETE', '/faults');
      const rule = { kind: 'status', path: '/v1/nowhere' };
      await control(earlierSeed, 'POST', '/faults', { ...rule, status: 500, probability: 0.5, seed: earlierSeed });
      await control(earlierSeed + 1, 'POST', '/faults', { ...rule, status: 502, probability: 0.4, seed: 2049 });
      const seen: number[] = [];
      for (let i = 0; i < 30; i++) seen.push((await fetch(`${at(i)}/v1/nowhere`)).status);
      const missed = seen.flatMap((status, i) => (status === 500 ? [] : [i]));
      expect(missed.length).toBeGreaterThan(5);
      expect(missed.map((i) => seen[i] === 502)).toEqual(missed.map((i) => wouldHit[i]));
    }
    await control(0, 'DELETE', '/faults');
  }, 60_000);

  it('reads through one the clock set through the other, and token expiry follows it', async () => {
    const response = await tokenRequest(at(0), { grant_type: 'client_credentials', scope: 'admin' }, DEMO);
    const { access_token: token } = (await response.json()) as { access_token: string };
    const shops = (i: number) => fetch(`${at(i)}/v1/shops.json`, { headers: { authorization: `Bearer ${token}` } });
    expect((await shops(0)).status).toBe(200);
    const before = await epochMs(0);
    const target = before + 2 * HOUR;
    await control(1, 'PUT', '/clock', { now: target });
    for (const i of [0, 1]) {
      const now = await epochMs(i);
      expect(now).toBeGreaterThanOrEqual(target);
      expect(now - target).toBeLessThan(60_000);
      expect((await shops(i)).status).toBe(401);
    }
    await control(0, 'POST', '/clock/advance', { ms: -2 * HOUR });
    expect((await epochMs(1)) - before).toBeLessThan(60_000);
    expect((await shops(1)).status).toBe(200);
  });

  it('limits through both the rate set through one, in one quota, and lifts it through the other', async () => {
    const response = await tokenRequest(at(0), { grant_type: 'client_credentials', scope: 'admin' }, DEMO);
    const { access_token: token } = (await response.json()) as { access_token: string };
    const root = (i: number) => fetch(`${at(i)}/v1/`, { headers: { authorization: `Bearer ${token}` } });
    expect((await root(1)).headers.get('ratelimit')).toBeNull();
    // An hour's window: the test never meets its end.
    expect(await control(0, 'PUT', '/rate-limit', { limit: '4/1h' })).toMatchObject({ quota: 4 });
    expect(await control(1, 'GET', '/rate-limit')).toMatchObject({ quota: 4, window_s: 3600 });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await root(i)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    await control(1, 'PUT', '/rate-limit', { limit: null });
    for (const i of [0, 1]) expect((await root(i)).status).toBe(200);
  });

  it('lists through one the requests the other answered, as soon as answered', async () => {
    await control(0, 'DELETE', '/journal');
    for (let i = 0; i < 6; i++) {
      const id = `shared-journal-${i}`;
      const answered = await fetch(`${at(i)}/v1/nowhere?x=${i}`, { headers: { 'x-request-id': id } });
      expect(answered.status).toBe(404);
      // Read at once through the other process.
      const { entries } = (await control(i + 1, 'GET', '/journal?path=/v1/nowhere&status=404')) as {
        entries: JournalEntry[];
      };
      expect(entries.map((entry) => entry.request_id)).toEqual(
        Array.from({ length: i + 1 }, (_, n) => `shared-journal-${n}`),
      );
      expect(entries.at(-1)).toMatchObject({ method: 'GET', path: '/v1/nowhere', status: 404, route: null });
    }
    const { entries: posts } = (await control(1, 'GET', '/journal?method=post')) as { entries: JournalEntry[] };
    expect(posts).toEqual([]);
    await control(1, 'DELETE', '/journal');
    expect(((await control(0, 'GET', '/journal')) as { entries: JournalEntry[] }).entries).toEqual([]);
  });

  it('dates a request by the clock set through the other process, from its first request on', async () => {
    await control(0, 'DELETE', '/journal');
    const target = Date.UTC(2030, 0, 1);
    await control(1, 'PUT', '/clock', { now: target });
    try {
      // The first request process A answers since the clock moved: nothing else made it catch up before.
      for (const id of ['dated-0', 'dated-1']) {
        await fetch(`${at(0)}/v1/nowhere`, { headers: { 'x-request-id': id } });
      }
      const { entries } = (await control(1, 'GET', '/journal?path=/v1/nowhere')) as { entries: JournalEntry[] };
      expect(entries.map((entry) => entry.request_id)).toEqual(['dated-0', 'dated-1']);
      for (const entry of entries) expect(Date.parse(entry.at) - target).toBeGreaterThanOrEqual(0);
      for (const entry of entries) expect(Date.parse(entry.at) - target).toBeLessThan(60_000);
    } finally {
      await control(1, 'PUT', '/clock', { now: Date.now() });
    }
  });

  it('keeps the newest entries of the journal only', async () => {
    const journal = servers[0]!.store.journal!;
    await journal.clear();
    for (let i = 0; i < 5; i++) await journal.add({ method: 'GET', path: `/v1/kept/${i}`, status: 200 }, 3);
    expect((await journal.list({ path: '/v1/kept/' })).map((record) => record.path)).toEqual([
      '/v1/kept/2',
      '/v1/kept/3',
      '/v1/kept/4',
    ]);
    await journal.clear();
  });

  it('keeps the rules and the clock through a reset and a restore, and clears them when a fleet starts', async () => {
    await control(0, 'POST', '/faults', { kind: 'delay', delay_ms: 1, path: '/v1/kept' });
    const before = await epochMs(0);
    await control(1, 'POST', '/clock/advance', { ms: 24 * HOUR });
    await control(0, 'PUT', '/snapshots/kept');
    await control(1, 'POST', '/reset');
    await control(0, 'POST', '/snapshots/kept/restore');
    for (const i of [0, 1]) {
      expect(await faults(i)).toEqual([expect.objectContaining({ path: '/v1/kept' })]);
      expect((await epochMs(i)) - before).toBeGreaterThanOrEqual(24 * HOUR);
    }
    // A third process starting as a fleet's first: both are gone, for every process.
    servers.push(await start());
    for (const i of [0, 1, 2]) {
      const origin = servers[i]!.origin;
      const read = (path: string) =>
        fetch(`${origin}/_sandbox${path}`, { headers: { authorization: `Bearer ${TOKEN}` } }).then(
          (response) => response.json() as Promise<Record<string, unknown>>,
        );
      expect((await read('/faults')).faults).toEqual([]);
      expect(((await read('/clock')).epoch_ms as number) - before).toBeLessThan(HOUR);
    }
  }, 30_000);
});
